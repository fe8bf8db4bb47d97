// A payout process that dies by SIGKILL in the middle of a payout run (issue 17's crash test): it
// pays what is due on the database the environment names (DATABASE_URL, or PGlite in DATA_DIR) in
// batches of 100 subscriptions, lets two batches commit, and kills itself inside the third batch's
// transaction once its entries and payout rows are written — right before the obligations row
// moves and the transaction commits. No shutdown code runs; what was in flight is lost.
import { loadConfig } from '../../src/config/env.ts';
import { openConfiguredDb } from '../../src/persistence/open-db.ts';
import { payDueInterest } from '../../src/use-cases/earn/pay-interest.ts';
import { dieNow, dyingDb } from './dying-db.ts';

const db = await openConfiguredDb(loadConfig());
const dying = dyingDb(
  db,
  (sql, _tx, committed) => {
    if (committed === 2 && sql.startsWith('UPDATE earn_obligations')) dieNow('killing myself inside the third batch’s transaction');
  },
  { onCommit: (committed) => console.log(`committed payout batch ${committed}`) },
);
await payDueInterest({ db: dying, now: () => new Date() }, 100);
console.log('the payout run ended without the crash');
process.exit(3);
