import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTickBatch } from '../../../src/persistence/market-ticks.store.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';

// ADR 0009 addendum (issue 7): per market, observed times never go back in recording order. The
// contract settler's closing-tick lookup is only "the first tick recorded at or after expiry"
// because of it.

describe('recording leaves stale ticks out', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t?.dispose());

  const tick = (symbol: string, atMs: number, price = '100') => ({ symbol, price, atMs, source: 'test' });

  it('keeps equal and later times, leaves out earlier ones, per market, within and across batches', async () => {
    const first = await recordTickBatch(t.db, [tick('BTC/USDT', 1_000), tick('BTC/USDT', 1_000, '101'), tick('ETH/USDT', 500), tick('BTC/USDT', 999)]);
    expect(first.map((row) => [row.symbol, row.atMs, row.price])).toEqual([
      ['BTC/USDT', 1_000, '100.00000000'],
      ['BTC/USDT', 1_000, '101.00000000'],
      ['ETH/USDT', 500, '100.00000000'],
    ]);
    // Another batch (another feed or node would record the same way): BTC before 1,000 is stale;
    // ETH is judged on its own times.
    const second = await recordTickBatch(t.db, [tick('BTC/USDT', 900), tick('ETH/USDT', 600), tick('BTC/USDT', 1_001)]);
    expect(second.map((row) => [row.symbol, row.atMs])).toEqual([
      ['ETH/USDT', 600],
      ['BTC/USDT', 1_001],
    ]);
    expect(await recordTickBatch(t.db, [tick('BTC/USDT', 1)])).toEqual([]);
    const [backwards] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT observed_at_ms < lag(observed_at_ms) OVER (PARTITION BY symbol ORDER BY id) AS back FROM market_ticks) t WHERE back`,
    );
    expect(backwards!.n).toBe(0);
    const [candles] = await t.db.query<{ n: number }>(`SELECT sum(tick_count)::int AS n FROM market_candles WHERE interval = '1m'`);
    expect(candles!.n).toBe(5);
  });
});
