// A fund job process that dies by SIGKILL in the middle of paying investors at term (issue 18's
// crash test): it settles the funded requests due on the database the environment names
// (DATABASE_URL, or PGlite in DATA_DIR), 20 per transaction; lets one batch commit, and kills itself
// inside the second batch's transaction after 5 of its requests were paid out, before it commits.
// No shutdown code runs; what was in flight is lost.
import { loadConfig } from '../../src/config/env.ts';
import { noMarketPrices } from '../../src/market/market-prices.ts';
import { openConfiguredDb } from '../../src/persistence/open-db.ts';
import { settleDueRequests } from '../../src/use-cases/fund/fund-jobs.ts';
import { dieNow, dyingDb } from './dying-db.ts';

const config = loadConfig();
const db = await openConfiguredDb(config);
let settledInBatch = 0;
const dying = dyingDb(
  db,
  (sql, _tx, committed) => {
    if (!sql.startsWith('UPDATE fund_requests SET status = $2, closed_at_ms')) return;
    settledInBatch += 1;
    if (committed === 1 && settledInBatch === 5) dieNow('killing myself inside the second batch’s transaction');
  },
  { onTransactionStart: () => (settledInBatch = 0), onCommit: (committed) => console.log(`committed settlement batch ${committed}`) },
);
await settleDueRequests({ db: dying, now: () => new Date(), market: noMarketPrices, config });
console.log('the settlement run ended without the crash');
process.exit(3);
