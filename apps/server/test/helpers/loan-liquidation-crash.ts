// A loan job process that dies by SIGKILL in the middle of a due-date liquidation run (issue 18's
// crash test): it liquidates the loans past due on the database the environment names
// (DATABASE_URL, or PGlite in DATA_DIR), 100 per transaction, at the latest recorded prices; lets two
// batches commit, and kills itself inside the third batch's transaction after 50 of its loans were
// written, before it commits. No shutdown code runs; what was in flight is lost.
import { loadConfig } from '../../src/config/env.ts';
import type { LatestTick } from '../../src/market/market-prices.ts';
import type { Db, Queryable } from '../../src/persistence/db.ts';
import { readTailStart } from '../../src/persistence/market-ticks.store.ts';
import { openConfiguredDb } from '../../src/persistence/open-db.ts';
import { liquidateDueLoans } from '../../src/use-cases/loans/liquidate-loans.ts';

const config = loadConfig();
const db = await openConfiguredDb(config);
const { latest } = await readTailStart(db, ['BTC/USDT', 'ETH/USDT']);
const bySymbol = new Map<string, LatestTick>(latest.map((tick) => [tick.symbol, tick]));
let batchesCommitted = 0;
let closedInBatch = 0;
const dieInThirdBatch = (tx: Queryable): Queryable => ({
  exec: (sql) => tx.exec(sql),
  query(sql, params, options) {
    if (sql.startsWith("UPDATE ledger_holds SET status = 'posted'")) {
      closedInBatch += 1;
      if (batchesCommitted === 2 && closedInBatch === 50) {
        console.log('killing myself inside the third batch’s transaction');
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
    closedInBatch = 0;
    const result = await db.transaction((tx) => work(dieInThirdBatch(tx)));
    batchesCommitted += 1;
    console.log(`committed liquidation batch ${batchesCommitted}`);
    return result;
  },
};
await liquidateDueLoans({ db: dying, now: () => new Date(), market: { latest: (symbol: string) => bySymbol.get(symbol) } as never, config });
console.log('the liquidation run ended without the crash');
process.exit(3);
