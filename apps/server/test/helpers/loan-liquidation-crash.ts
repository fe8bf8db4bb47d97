// A loan job process that dies by SIGKILL in the middle of a due-date liquidation run (issue 18's
// crash test): it liquidates the loans past due on the database the environment names
// (DATABASE_URL, or PGlite in DATA_DIR), 100 per transaction, at the latest recorded prices; lets two
// batches commit, and kills itself inside the third batch's transaction after 50 of its loans were
// written, before it commits. No shutdown code runs; what was in flight is lost.
import { loadConfig } from '../../src/config/env.ts';
import type { LatestTick } from '../../src/market/market-prices.ts';
import { readTailStart } from '../../src/persistence/market-ticks.store.ts';
import { openConfiguredDb } from '../../src/persistence/open-db.ts';
import { liquidateDueLoans } from '../../src/use-cases/loans/liquidate-loans.ts';
import { dieNow, dyingDb } from './dying-db.ts';

const config = loadConfig();
const db = await openConfiguredDb(config);
const { latest } = await readTailStart(db, ['BTC/USDT', 'ETH/USDT']);
const bySymbol = new Map<string, LatestTick>(latest.map((tick) => [tick.symbol, tick]));
let closedInBatch = 0;
const dying = dyingDb(
  db,
  (sql, _tx, committed) => {
    if (!sql.startsWith("UPDATE ledger_holds SET status = 'posted'")) return;
    closedInBatch += 1;
    if (committed === 2 && closedInBatch === 50) dieNow('killing myself inside the third batch’s transaction');
  },
  { onTransactionStart: () => (closedInBatch = 0), onCommit: (committed) => console.log(`committed liquidation batch ${committed}`) },
);
await liquidateDueLoans({ db: dying, now: () => new Date(), market: { latest: (symbol: string) => bySymbol.get(symbol) } as never, config });
console.log('the liquidation run ended without the crash');
process.exit(3);
