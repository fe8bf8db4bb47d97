// A reward process that dies by SIGKILL in the middle of a run (issue 20's crash test): it credits
// what is due on the database the environment names (DATABASE_URL, or PGlite in DATA_DIR) in
// batches of 50 invitees, lets two batches commit, and kills itself inside the third batch's
// transaction once its entries and day rows are written — right before the invitations' next days
// move and the transaction commits. No shutdown code runs; what was in flight is lost.
import { loadConfig } from '../../src/config/env.ts';
import { openConfiguredDb } from '../../src/persistence/open-db.ts';
import { creditInviteRewards } from '../../src/use-cases/invitations/invite-rewards.ts';
import { dieNow, dyingDb } from './dying-db.ts';

const db = await openConfiguredDb(loadConfig());
const dying = dyingDb(
  db,
  (sql, _tx, committed) => {
    if (committed === 2 && sql.startsWith('UPDATE invitations')) dieNow('killing myself inside the third batch’s transaction');
  },
  { onCommit: (committed) => console.log(`committed reward batch ${committed}`) },
);
await creditInviteRewards({ db: dying, now: () => new Date() }, 50);
console.log('the reward run ended without the crash');
process.exit(3);
