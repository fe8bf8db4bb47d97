import { defaultSimulatedMarkets } from '@keel/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import type { LatestTick } from '../../../src/market/market-prices.ts';
import type { Db } from '../../../src/persistence/db.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { migrate } from '../../../src/persistence/migrate.ts';
import { crashWorld, sleep, whenExited } from '../../helpers/crash-server.ts';
import { recordTicksForTest } from '../../helpers/market.ts';
import { registerViaApi, storageNotUsedInThisTest, testConfig } from '../../helpers/test-app.ts';
import { testDbKind } from '../../helpers/test-db.ts';
import { call, fund, verifyUser } from '../../helpers/wallet.ts';

// Issue 16, "a crash test": hundreds of positions across every market and a recorded price path
// that crosses all their liquidation prices. An engine process sweeps them and dies by SIGKILL in
// the middle: after the first market's closes committed, inside the second market's transaction
// with all its writes done (test/helpers/leverage-sweep-crash.ts; a sweep takes tens of
// milliseconds, too short to aim a kill from outside). Then the real server starts on the same
// database and must liquidate every position exactly once: one liquidation event and one keyed
// journal entry each, no margin left frozen, the ledger check passing. PGlite (a data folder the
// process owns) and PostgreSQL (a fresh schema).

const USERS = 8;
const POSITIONS_PER_USER_AND_MARKET = 10;
const MARKETS = defaultSimulatedMarkets.map((market) => market.symbol);
const CLOSED_LINE = 'leverage: positions closed by their triggers';
// No new prices: the engine works only on the path recorded before the start.
const SERVER_ENV = { LEVERAGE_ENGINE_INTERVAL_MS: '100' };
const world = crashWorld('leverage-crash');
const { dataDir, openDb } = world;

afterAll(() => world.dispose());

const stateOf = async (db: Db): Promise<Record<string, number>> =>
  Object.fromEntries(
    (await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM leverage_positions GROUP BY status ORDER BY status')).map((row) => [
      row.status,
      row.n,
    ]),
  );

describe('a crash in the middle of a liquidation sweep', () => {
  it('liquidates every position exactly once after SIGKILL and restart, and the ledger check passes', { timeout: 240_000 }, async () => {
    // Positions opened in-process on the server's database, before the server runs, at a recorded
    // price of 100 in every market.
    const setupDb = await openDb();
    await migrate(setupDb);
    const startMs = Date.now() - 60_000;
    const opening = new Map<string, LatestTick>();
    for (const symbol of MARKETS) {
      const recorded = await recordTicksForTest(setupDb, [0, 1, 2].map((n) => ({ symbol, price: '100', atMs: startMs + n * 1_000 })));
      opening.set(symbol, recorded.at(-1)!);
    }
    const setupApp = await buildApp({
      config: testConfig({ DATA_DIR: dataDir, LEVERAGE_OPEN_TICK_MAX_AGE_MS: '60000' }),
      db: setupDb,
      storage: storageNotUsedInThisTest,
      market: { latest: (symbol) => opening.get(symbol) },
      now: () => new Date(startMs + 3_000),
    });
    let total = 0;
    for (let u = 0; u < USERS; u += 1) {
      const user = await registerViaApi(setupApp, `levcrash${u}`);
      await verifyUser(setupDb, user.userId);
      await fund(setupDb, user.userId, 'USDT', '1000', 'leveraged');
      expect((await call(setupApp, 'POST', '/home/leverage/disclosure', user.token, { version: 1 })).code).toBe(200);
      for (const symbol of MARKETS) {
        for (let n = 0; n < POSITIONS_PER_USER_AND_MARKET; n += 1) {
          const opened = await call(setupApp, 'POST', '/home/leverage/positions', user.token, { product: 'futures', symbol, side: 'long', margin: '10', leverage: 20 });
          expect(opened.code, opened.msg).toBe(200);
          total += 1;
        }
      }
    }
    await setupApp.close();
    // The crash: every market gaps from 100 to 50 (marks 100, 100, 50, 50): far past every
    // liquidation price (about 95.5).
    for (const symbol of MARKETS) {
      await recordTicksForTest(setupDb, [0, 1, 2, 3].map((n) => ({ symbol, price: '50', atMs: startMs + 10_000 + n * 1_000 })));
    }
    await setupDb.close();

    const { child: crashing, output: crashOutput } = world.spawnScript('apps/server/test/helpers/leverage-sweep-crash.ts', SERVER_ENV);
    await whenExited(crashing);
    expect(crashing.signalCode, crashOutput.join('')).toBe('SIGKILL');
    expect(crashOutput.join('')).toContain('killing myself inside the second market');

    // Killed mid-sweep: the first market's closes committed, the second's lost, the rest not begun.
    const midway = await openDb();
    const killedAt = await stateOf(midway);
    await midway.close();
    expect(killedAt).toEqual({ liquidated: USERS * POSITIONS_PER_USER_AND_MARKET, open: total - USERS * POSITIONS_PER_USER_AND_MARKET });

    const second = await world.startServer(SERVER_ENV, CLOSED_LINE);
    const doneBy = Date.now() + 120_000;
    if (testDbKind === 'postgres') {
      const watch = await openDb();
      try {
        while (((await stateOf(watch)).liquidated ?? 0) < total) {
          if (Date.now() > doneBy) throw new Error(`positions still open 120 s after the restart:\n${second.output.join('').slice(-3000)}`);
          await sleep(250);
        }
      } finally {
        await watch.close();
      }
    } else {
      // PGlite has one owner: count the closes the server reports.
      const closedSoFar = () =>
        second.output
          .join('')
          .split('\n')
          .filter((line) => line.includes(CLOSED_LINE))
          .reduce((sum, line) => sum + (JSON.parse(line) as { liquidated: number }).liquidated, 0);
      while (closedSoFar() < total - (killedAt.liquidated ?? 0)) {
        if (Date.now() > doneBy) throw new Error(`positions still open 120 s after the restart:\n${second.output.join('').slice(-3000)}`);
        await sleep(250);
      }
    }
    second.child.kill('SIGTERM');
    await whenExited(second.child);

    const db = await openDb();
    try {
      expect(await stateOf(db)).toEqual({ liquidated: total });
      const events = await db.query<{ position_id: string; n: number }>(
        `SELECT position_id::text, count(*)::int AS n FROM leverage_position_events WHERE kind = 'liquidation' GROUP BY position_id`,
      );
      expect(events).toHaveLength(total);
      expect(events.every((row) => row.n === 1)).toBe(true);
      const entries = await db.query<{ n: number; keyed: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE idempotency_key = 'leverage.trigger:' || reference_id)::int AS keyed
         FROM journal_entries WHERE reason = 'leverage.liquidation'`,
      );
      expect(entries).toEqual([{ n: total, keyed: total }]);
      const [frozen] = await db.query<{ total: string }>(`SELECT COALESCE(sum(frozen_minor), 0)::text AS total FROM ledger_accounts WHERE kind = 'leveraged'`);
      expect(frozen!.total).toBe('0');
      expect((await checkLedger(db)).problems).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
