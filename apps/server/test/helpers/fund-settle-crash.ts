// A fund job process that dies by SIGKILL in the middle of paying investors at term (issue 18's
// crash test): it settles the funded requests due on the database the environment names
// (DATABASE_URL, or PGlite in DATA_DIR), 20 per transaction; lets one batch commit, and kills itself
// inside the second batch's transaction after 5 of its requests were paid out, before it commits.
// No shutdown code runs; what was in flight is lost.
import { loadConfig } from '../../src/config/env.ts';
import { noMarketPrices } from '../../src/market/market-prices.ts';
import type { Db, Queryable } from '../../src/persistence/db.ts';
import { openConfiguredDb } from '../../src/persistence/open-db.ts';
import { settleDueRequests } from '../../src/use-cases/fund/fund-jobs.ts';

const config = loadConfig();
const db = await openConfiguredDb(config);
let batchesCommitted = 0;
let settledInBatch = 0;
const dieInSecondBatch = (tx: Queryable): Queryable => ({
  exec: (sql) => tx.exec(sql),
  query(sql, params, options) {
    if (sql.trimStart().startsWith('UPDATE fund_requests SET status = $2, closed_at_ms')) {
      settledInBatch += 1;
      if (batchesCommitted === 1 && settledInBatch === 5) {
        console.log('killing myself inside the second batch’s transaction');
        process.kill(process.pid, 'SIGKILL');
      }
    }
    return tx.query(sql, params, options);
  },
});
const dying: Db = {
  ...db,
  kind: db.kind,
  close: () => db.close(),
  query: (...args) => db.query(...args),
  exec: (sql) => db.exec(sql),
  transaction: async (work) => {
    settledInBatch = 0;
    const result = await db.transaction((tx) => work(dieInSecondBatch(tx)));
    batchesCommitted += 1;
    console.log(`committed settlement batch ${batchesCommitted}`);
    return result;
  },
};
await settleDueRequests({ db: dying, now: () => new Date(), market: noMarketPrices, config });
console.log('the settlement run ended without the crash');
process.exit(3);
