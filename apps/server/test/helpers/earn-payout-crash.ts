// A payout process that dies by SIGKILL in the middle of a payout run (issue 17's crash test): it
// pays what is due on the database the environment names (DATABASE_URL, or PGlite in DATA_DIR) in
// batches of 100 subscriptions, lets two batches commit, and kills itself inside the third batch's
// transaction once its entries and payout rows are written — right before the obligations row
// moves and the transaction commits. No shutdown code runs; what was in flight is lost.
import { loadConfig } from '../../src/config/env.ts';
import type { Db, Queryable } from '../../src/persistence/db.ts';
import { openConfiguredDb } from '../../src/persistence/open-db.ts';
import { payDueInterest } from '../../src/use-cases/earn/pay-interest.ts';

const db = await openConfiguredDb(loadConfig());
let batchesCommitted = 0;
const dieBeforeCommit = (tx: Queryable): Queryable => ({
  exec: (sql) => tx.exec(sql),
  query(sql, params, options) {
    if (batchesCommitted === 2 && sql.startsWith('UPDATE earn_obligations')) {
      console.log('killing myself inside the third batch’s transaction');
      process.kill(process.pid, 'SIGKILL');
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
    const result = await db.transaction((tx) => work(dieBeforeCommit(tx)));
    batchesCommitted += 1;
    console.log(`committed payout batch ${batchesCommitted}`);
    return result;
  },
};
await payDueInterest({ db: dying, now: () => new Date() }, 100);
console.log('the payout run ended without the crash');
process.exit(3);
