// A VIP level run that dies by SIGKILL in the middle (issue 20's crash test): it computes today's
// levels on the database the environment names (DATABASE_URL, or PGlite in DATA_DIR) in batches of
// 100 users, lets two batches commit, and kills itself inside the third batch's transaction once
// its run rows are written — at its first level write. No shutdown code runs; what was in flight is lost.
import { loadConfig } from '../../src/config/env.ts';
import { noMarketPrices } from '../../src/market/market-prices.ts';
import { openConfiguredDb } from '../../src/persistence/open-db.ts';
import { computeVipLevels } from '../../src/use-cases/vip/vip-levels.ts';
import { dieNow, dyingDb } from './dying-db.ts';

const config = loadConfig();
const db = await openConfiguredDb(config);
let runsInThird = 0;
const dying = dyingDb(
  db,
  (sql, _tx, committed) => {
    if (committed === 2 && sql.startsWith('INSERT INTO vip_level_runs')) runsInThird += 1;
    if (committed === 2 && runsInThird === 50 && sql.startsWith('INSERT INTO vip_levels')) dieNow('killing myself inside the third batch’s transaction');
  },
  { onCommit: (committed) => console.log(`committed level batch ${committed}`) },
);
await computeVipLevels({ db: dying, now: () => new Date(), market: noMarketPrices, config }, 100);
console.log('the level run ended without the crash');
process.exit(3);
