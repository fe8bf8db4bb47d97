// A snapshot job process that dies by SIGKILL in the middle of taking a proof-of-liabilities
// snapshot (issue 22's crash test): it takes the pending snapshot on the database the environment
// names (DATABASE_URL, or PGlite in DATA_DIR) and kills itself inside the transaction, after the
// tree's levels were written and while the users' leaves are being written, before it commits. No
// shutdown code runs; what was in flight is lost.
import { loadConfig } from '../../src/config/env.ts';
import { openConfiguredDb } from '../../src/persistence/open-db.ts';
import { takeLiabilitySnapshot } from '../../src/use-cases/proof/liability-snapshots.ts';
import { dieNow, dyingDb } from './dying-db.ts';

const config = loadConfig();
const db = await openConfiguredDb(config);
const dying = dyingDb(db, async (sql, tx) => {
  if (!sql.startsWith('INSERT INTO liability_snapshot_leaves')) return;
  const [levels] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM liability_snapshot_levels');
  dieNow(`killing myself while writing the leaves, ${levels!.n} levels written in the transaction`);
});
const silent = { info: () => {}, error: () => {}, warn: () => {} } as never;
await takeLiabilitySnapshot({ db: dying, now: () => new Date(), logger: silent });
console.log('the snapshot ended without the crash');
process.exit(3);
