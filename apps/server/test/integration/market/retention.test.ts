import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deleteTicksOlderThan } from '../../../src/persistence/market-ticks.store.ts';
import { ManualFeed, recordTicksForTest, startTestMarket } from '../../helpers/market.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';

/** Ticks as if recorded `hoursAgo` hours ago (the recorder always stamps now). */
async function insertAged(t: TestDb, symbol: string, count: number, hoursAgo: number) {
  await t.db.query(
    `INSERT INTO market_ticks (symbol, price, observed_at_ms, source, recorded_at)
     SELECT $1, 100 + n, 1, 'aged', now() - $2::int * interval '1 hour' FROM generate_series(1, $3) AS n`,
    [symbol, hoursAgo, count],
  );
}

const count = async (t: TestDb, where: string) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM market_ticks WHERE ${where}`))[0]!.n;

describe('tick retention', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.dispose());

  it('deletes ticks recorded before the retention window, oldest first, in bounded batches; keeps newer ticks and all candles', async () => {
    await insertAged(t, 'LTC/USDT', 25, 72);
    await insertAged(t, 'LTC/USDT', 5, 30);
    await recordTicksForTest(t.db, [{ symbol: 'LTC/USDT', price: '85' }]);
    const candlesBefore = await t.db.query('SELECT * FROM market_candles ORDER BY symbol, interval, open_time_ms');
    expect(await deleteTicksOlderThan(t.db, 48, 10)).toBe(10);
    expect(await deleteTicksOlderThan(t.db, 48, 10)).toBe(10);
    expect(await deleteTicksOlderThan(t.db, 48, 10)).toBe(5);
    expect(await deleteTicksOlderThan(t.db, 48, 10)).toBe(0);
    expect(await count(t, `recorded_at < now() - interval '48 hours'`)).toBe(0);
    expect(await count(t, `source = 'aged'`)).toBe(5);
    expect(await count(t, `source = 'test'`)).toBe(1);
    expect(await t.db.query('SELECT * FROM market_candles ORDER BY symbol, interval, open_time_ms')).toEqual(candlesBefore);
  });

  it('is applied by the lease holder', async () => {
    await insertAged(t, 'TRX/USDT', 20, 10);
    const market = await startTestMarket(t.db, { feed: new ManualFeed('retainer'), leaseName: 'retention', retentionHours: 5, retentionIntervalMs: 0 });
    try {
      expect(market.service.isLeader).toBe(true);
      await vi.waitFor(async () => expect(await count(t, `symbol = 'TRX/USDT'`)).toBe(0), { timeout: 10_000, interval: 20 });
    } finally {
      await market.stop();
    }
  });
});
