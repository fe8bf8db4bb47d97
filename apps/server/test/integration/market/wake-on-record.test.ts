import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { MarketService } from '../../../src/market/market.service.ts';
import type { RecordedTick } from '../../../src/persistence/market-ticks.store.ts';
import { createLocalEventBus } from '../../../src/realtime/event-bus.ts';
import { ManualFeed } from '../../helpers/market.ts';
import { testConfig } from '../../helpers/test-app.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';

// Issue 15, live prices: a tick is recorded as soon as it arrives (no fixed wait), the recording
// node reads it at once, and another node reads it as soon as the bus tells it. The timers here
// are a minute, so a tick seen within the test's few seconds was seen because of the wake-ups.
const A_MINUTE_MS = 60_000;
const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 5_000, interval: 10 });

function marketOn(db: TestDb['db'], options: { feed?: ManualFeed; holderId: string }) {
  return new MarketService({
    db,
    symbols: ['BTC/USDT', 'ETH/USDT'],
    leaseName: 'wake-on-record',
    flushIntervalMs: A_MINUTE_MS,
    tailIntervalMs: A_MINUTE_MS,
    leaseTtlMs: A_MINUTE_MS,
    leaseRenewMs: A_MINUTE_MS / 4,
    ...options,
  });
}

describe('recorded ticks wake the nodes instead of waiting for their timers', () => {
  let testDb: TestDb;
  const bus = createLocalEventBus();
  const feed = new ManualFeed('wake-test');
  let recorder: MarketService;
  let follower: MarketService;
  let nodes: Awaited<ReturnType<typeof buildApp>>[] = [];
  const heardByRecorder: RecordedTick[] = [];
  const heardByFollower: RecordedTick[] = [];

  beforeAll(async () => {
    testDb = await createTestDb();
    recorder = marketOn(testDb.db, { feed, holderId: 'recorder' });
    follower = marketOn(await testDb.openAnother(), { holderId: 'follower' });
    const config = testConfig({ WEB_DIST_DIR: '/nonexistent', ADMIN_DIST_DIR: '/nonexistent' });
    // Two nodes on one database and one bus; buildApp wires each market to the bus.
    nodes = [await buildApp({ config, db: testDb.db, market: recorder, events: bus }), await buildApp({ config, db: testDb.db, market: follower, events: bus })];
    await recorder.start();
    await follower.start();
    expect(recorder.isLeader).toBe(true);
    recorder.onTicks((ticks) => heardByRecorder.push(...ticks));
    follower.onTicks((ticks) => heardByFollower.push(...ticks));
  });
  afterAll(async () => {
    for (const node of nodes) await node.close();
    await follower.stop();
    await recorder.stop();
    await bus.close();
    await testDb.dispose();
  });

  it('a tick reaches both nodes, recorded once, in the same order, long before any timer', async () => {
    const startedMs = Date.now();
    feed.emit('BTC/USDT', '91000.5');
    feed.emit('ETH/USDT', '3100');
    await waitFor(() => expect(heardByFollower.map((tick) => tick.symbol)).toEqual(['BTC/USDT', 'ETH/USDT']));
    await waitFor(() => expect(heardByRecorder).toEqual(heardByFollower));
    expect(follower.latest('BTC/USDT')?.price).toBe('91000.50000000');
    expect(Date.now() - startedMs).toBeLessThan(A_MINUTE_MS / 4);

    // Ticks arriving while a flush is under way go together in the next one, none lost or doubled.
    for (let i = 1; i <= 50; i += 1) feed.emit('BTC/USDT', `${91_000 + i}`);
    await waitFor(() => expect(heardByFollower).toHaveLength(52));
    expect(heardByRecorder.map((tick) => tick.tickId)).toEqual(heardByFollower.map((tick) => tick.tickId));
    const [count] = await testDb.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM market_ticks WHERE source = 'wake-test'`);
    expect(count?.n).toBe(52);
    expect(follower.latest('BTC/USDT')?.price).toBe('91050.00000000');
  });
});
