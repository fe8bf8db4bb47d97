// A C2C job process that dies by SIGKILL in the middle of offering requests to merchants (issue
// 19's crash test): it offers the waiting requests on the database the environment names
// (DATABASE_URL, or PGlite in DATA_DIR), 20 per transaction; lets one batch commit, and kills itself
// inside the second batch's transaction once 5 of its offers were inserted, before it commits. No
// shutdown code runs; what was in flight is lost.
import { loadConfig } from '../../src/config/env.ts';
import { openConfiguredDb } from '../../src/persistence/open-db.ts';
import { offerWaitingRequests } from '../../src/use-cases/c2c/c2c-matching.ts';
import { dieNow, dyingDb } from './dying-db.ts';

const config = loadConfig();
const db = await openConfiguredDb(config);
let offeredInBatch = 0;
const dying = dyingDb(
  db,
  (sql, _tx, committed) => {
    // The statement after the fifth offer of the second batch: five offers written, none committed.
    if (committed === 1 && offeredInBatch === 5) dieNow('killing myself inside the second batch’s transaction');
    if (sql.startsWith('INSERT INTO c2c_offers')) offeredInBatch += 1;
  },
  { onTransactionStart: () => (offeredInBatch = 0), onCommit: (committed) => console.log(`committed offer batch ${committed}`) },
);
await offerWaitingRequests({ db: dying, now: () => new Date() });
console.log('the offer run ended without the crash');
process.exit(3);
