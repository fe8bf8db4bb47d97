import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTicksForTest } from '../../helpers/market.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const at = (iso: string) => Date.parse(iso);
const NOW = '2026-11-22T13:47:30.000Z';

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

interface Candle {
  openTimeMs: number;
  open: string;
  high: string;
  low: string;
  close: string;
  tickCount: number;
}

describe('market data API', () => {
  let t: TestApp;
  const get = async <T>(url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    const body = response.json() as Envelope<T>;
    expect(response.statusCode).toBe(body.code);
    return body;
  };
  const candles = (query: string) => get<{ symbol: string; interval: string; items: Candle[] }>(`/home/market/candles?${query}`);

  beforeAll(async () => {
    t = await createTestApp({}, { now: () => new Date(NOW) });
  });
  afterAll(() => t.close());

  describe('recording', () => {
    it('stores exact 8-decimal prices, cutting longer feed prices, and ids in recording order', async () => {
      const recorded = await recordTicksForTest(t.db, [
        { symbol: 'LTC/USDT', price: '85.123456789', atMs: at('2026-11-22T10:00:01Z') },
        { symbol: 'LTC/USDT', price: '85', atMs: at('2026-11-22T10:00:02Z') },
      ]);
      expect(recorded.map((tick) => tick.price)).toEqual(['85.12345678', '85.00000000']);
      expect(recorded[1]!.tickId).toBeGreaterThan(recorded[0]!.tickId);
      expect(recorded[0]).toMatchObject({ symbol: 'LTC/USDT', atMs: at('2026-11-22T10:00:01Z'), source: 'test' });
    });

    it('refuses a batch with a malformed or non-positive price, writing nothing of it', async () => {
      const before = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM market_ticks`);
      await expect(recordTicksForTest(t.db, [{ symbol: 'LTC/USDT', price: '86' }, { symbol: 'LTC/USDT', price: '0' }])).rejects.toThrow(RangeError);
      await expect(recordTicksForTest(t.db, [{ symbol: 'LTC/USDT', price: '1e3' }])).rejects.toThrow(RangeError);
      expect(await t.db.query(`SELECT count(*)::int AS n FROM market_ticks`)).toEqual(before);
    });

    it('a recorded tick cannot be changed', async () => {
      await expect(t.db.query(`UPDATE market_ticks SET price = 1 WHERE symbol = 'LTC/USDT'`)).rejects.toThrow(/cannot be changed/);
    });

    it('folds every batch into 1m to 1d candles: open kept, high and low widened, latest close, counts added', async () => {
      await recordTicksForTest(t.db, [
        { symbol: 'BNB/USDT', price: '900', atMs: at('2026-11-22T09:00:05Z') },
        { symbol: 'BNB/USDT', price: '905', atMs: at('2026-11-22T09:00:10Z') },
      ]);
      await recordTicksForTest(t.db, [
        { symbol: 'BNB/USDT', price: '899.5', atMs: at('2026-11-22T09:00:20Z') },
        { symbol: 'BNB/USDT', price: '901', atMs: at('2026-11-22T09:00:30Z') },
      ]);
      await recordTicksForTest(t.db, [{ symbol: 'BNB/USDT', price: '902', atMs: at('2026-11-22T09:01:00Z') }]);

      const minute = await candles('symbol=BNB/USDT&interval=1m');
      expect(minute).toMatchObject({ code: 200, data: { symbol: 'BNB/USDT', interval: '1m' } });
      expect(minute.data.items).toEqual([
        { openTimeMs: at('2026-11-22T09:00:00Z'), open: '900.00000000', high: '905.00000000', low: '899.50000000', close: '901.00000000', tickCount: 4 },
        { openTimeMs: at('2026-11-22T09:01:00Z'), open: '902.00000000', high: '902.00000000', low: '902.00000000', close: '902.00000000', tickCount: 1 },
      ]);
      const hourly = await candles('symbol=BNB/USDT&interval=1h');
      expect(hourly.data.items).toEqual([
        { openTimeMs: at('2026-11-22T09:00:00Z'), open: '900.00000000', high: '905.00000000', low: '899.50000000', close: '902.00000000', tickCount: 5 },
      ]);
      for (const interval of ['5m', '15m', '1d']) {
        const { data } = await candles(`symbol=BNB/USDT&interval=${interval}`);
        expect(data.items, interval).toHaveLength(1);
        expect(data.items[0], interval).toMatchObject({ open: '900.00000000', close: '902.00000000', tickCount: 5 });
      }
    });
  });

  describe('candles', () => {
    beforeAll(async () => {
      // One tick a minute for ten minutes, rising by one.
      await recordTicksForTest(
        t.db,
        Array.from({ length: 10 }, (_, i) => ({ symbol: 'TRX/USDT', price: `${100 + i}`, atMs: at('2026-11-22T11:00:30Z') + i * 60_000 })),
      );
    });

    it('come oldest first, the latest `limit`, paged back with beforeMs', async () => {
      const latest = await candles('symbol=TRX/USDT&interval=1m&limit=4');
      expect(latest.data.items.map((candle) => candle.close)).toEqual(['106.00000000', '107.00000000', '108.00000000', '109.00000000']);
      const before = latest.data.items[0]!.openTimeMs;
      const older = await candles(`symbol=TRX/USDT&interval=1m&limit=4&beforeMs=${before}`);
      expect(older.data.items.map((candle) => candle.close)).toEqual(['102.00000000', '103.00000000', '104.00000000', '105.00000000']);
      const oldest = await candles(`symbol=TRX/USDT&interval=1m&limit=4&beforeMs=${older.data.items[0]!.openTimeMs}`);
      expect(oldest.data.items.map((candle) => candle.close)).toEqual(['100.00000000', '101.00000000']);
      expect((await candles('symbol=TRX/USDT')).data).toMatchObject({ interval: '1m' });
      expect((await candles('symbol=TRX/USDT')).data.items).toHaveLength(10);
    });

    it('of a listed market without ticks are empty; an unlisted market is not found, by name', async () => {
      expect((await candles('symbol=ADA/USDT&interval=5m')).data.items).toEqual([]);
      const unlisted = await candles('symbol=PEPE/USDT');
      expect(unlisted).toMatchObject({ code: 404, msg: 'record does not exist', data: { symbol: 'PEPE/USDT' } });
    });

    it('refuse malformed input with parameter error', async () => {
      for (const query of ['symbol=btcusdt', 'symbol=BTC/USDT&interval=2m', 'symbol=BTC/USDT&limit=501', 'symbol=BTC/USDT&limit=0', 'symbol=BTC/USDT&beforeMs=-1', '']) {
        const body = await candles(query);
        expect(body, query).toMatchObject({ code: 400, msg: 'parameter error' });
      }
    });
  });

  describe('tickers', () => {
    beforeAll(async () => {
      await recordTicksForTest(t.db, [
        // More than 24 h before NOW: must not count, though its hour candle overlaps the window start.
        { symbol: 'BTC/USDT', price: '1000', atMs: at('2026-11-21T13:40:00Z') },
        { symbol: 'BTC/USDT', price: '100', atMs: at('2026-11-21T13:50:00Z') },
        { symbol: 'BTC/USDT', price: '130', atMs: at('2026-11-21T20:00:00Z') },
        { symbol: 'BTC/USDT', price: '80', atMs: at('2026-11-22T05:00:00Z') },
        { symbol: 'BTC/USDT', price: '98.75', atMs: at('2026-11-22T13:47:00Z') },
        // Only a tick from more than a day ago.
        { symbol: 'ETH/USDT', price: '3000.5', atMs: at('2026-11-21T07:00:00Z') },
      ]);
    });

    it('list every listed market with a tick, in the listed order, with its last recorded tick', async () => {
      const { code, data } = await get<{ items: Array<Record<string, unknown> & { symbol: string }> }>('/home/market/tickers');
      expect(code).toBe(200);
      const listed = t.config.MARKET_SYMBOLS;
      const symbols = data.items.map((item) => item.symbol);
      expect(symbols).toEqual(listed.filter((symbol) => symbols.includes(symbol)));
      expect(symbols).toEqual(expect.arrayContaining(['BTC/USDT', 'ETH/USDT', 'BNB/USDT', 'TRX/USDT', 'LTC/USDT']));
      expect(symbols).not.toContain('ADA/USDT');
      const btc = data.items.find((item) => item.symbol === 'BTC/USDT');
      expect(btc).toMatchObject({
        base: 'BTC',
        quote: 'USDT',
        last: { symbol: 'BTC/USDT', price: '98.75000000', atMs: at('2026-11-22T13:47:00Z'), source: 'test', tickId: expect.stringMatching(/^\d+$/) },
      });
    });

    it('compute the 24 h open, high, low and change from candles within the window', async () => {
      const { data } = await get<{ items: Array<Record<string, unknown> & { symbol: string }> }>('/home/market/tickers');
      expect(data.items.find((item) => item.symbol === 'BTC/USDT')).toMatchObject({
        open24h: '100.00000000',
        high24h: '130.00000000',
        low24h: '80.00000000',
        change24hPct: '-1.25',
      });
    });

    it('show a market quiet for more than a day at its last price, unchanged', async () => {
      const { data } = await get<{ items: Array<Record<string, unknown> & { symbol: string }> }>('/home/market/tickers');
      expect(data.items.find((item) => item.symbol === 'ETH/USDT')).toMatchObject({
        last: { price: '3000.50000000' },
        open24h: '3000.50000000',
        high24h: '3000.50000000',
        low24h: '3000.50000000',
        change24hPct: '0.00',
      });
    });
  });
});
