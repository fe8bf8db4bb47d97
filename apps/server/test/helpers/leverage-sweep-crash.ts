// A trigger-engine process that dies by SIGKILL in the middle of a liquidation sweep (issue 16's
// crash test): it runs one engine pass over every market on the database the environment names
// (DATABASE_URL, or PGlite in DATA_DIR), lets the first market's transaction commit, and kills
// itself inside the second market's transaction once all its writes are done — right before the
// cursor moves and the transaction commits. No shutdown code runs; what was in flight is lost.
import { loadConfig } from '../../src/config/env.ts';
import type { Db, Queryable } from '../../src/persistence/db.ts';
import { openConfiguredDb } from '../../src/persistence/open-db.ts';
import { runTriggerPass } from '../../src/use-cases/leverage/trigger-engine.ts';

const db = await openConfiguredDb(loadConfig());
let marketsCommitted = 0;
const dieBeforeCursorMoves = (tx: Queryable): Queryable => ({
  exec: (sql) => tx.exec(sql),
  query(sql, params, options) {
    if (marketsCommitted === 1 && sql.startsWith('UPDATE leverage_trigger_cursors')) {
      console.log('killing myself inside the second market’s transaction');
      process.kill(process.pid, 'SIGKILL');
    }
    return tx.query(sql, params, options);
  },
});
const dying: Db = { ...db, kind: db.kind, close: () => db.close(), query: (...args) => db.query(...args), exec: (sql) => db.exec(sql), transaction: (work) => db.transaction((tx) => work(dieBeforeCursorMoves(tx))) };
await runTriggerPass(
  { db: dying, now: () => new Date() },
  {
    onCommitted: (symbol, closed) => {
      marketsCommitted += 1;
      console.log(`committed ${closed.length} closes of ${symbol}`);
    },
  },
);
console.log('the sweep ended without the crash');
process.exit(3);
