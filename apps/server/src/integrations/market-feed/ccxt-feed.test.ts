import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../test/helpers/manual-clock.ts';
import { CcxtFeed, type FetchImplementation } from './ccxt-feed.ts';
import type { FeedTick } from './price-feed.ts';

// The fixtures were written from Binance's documented REST formats, not recorded live (see
// fixtures/binance/README.md). ccxt requests them through its replaceable fetch, so its real URL
// building and response parsing run.
const fixture = (name: string) => readFileSync(new URL(`./fixtures/binance/${name}`, import.meta.url), 'utf8');

function binanceFixtures(priceFile: { current: string }) {
  const requested: string[] = [];
  const fetchImplementation: FetchImplementation = async (url) => {
    const { pathname } = new URL(url);
    requested.push(pathname);
    const files: Record<string, string> = {
      '/api/v3/exchangeInfo': 'exchangeInfo.json',
      '/api/v3/ticker/price': priceFile.current,
      '/api/v3/ticker/24hr': 'ticker-24hr.json',
    };
    const file = files[pathname];
    if (!file) return new Response('{"code":-1100,"msg":"not in the fixtures"}', { status: 404, headers: { 'content-type': 'application/json' } });
    return new Response(fixture(file), { status: 200, headers: { 'content-type': 'application/json;charset=UTF-8' } });
  };
  return { fetchImplementation, requested };
}

describe('ccxt feed (Binance spot, on fixtures)', () => {
  it('reads last prices through ccxt, maps exchange ids to symbols, and keeps the exchange decimals', async () => {
    const prices = { current: 'ticker-price.1.json' };
    const { fetchImplementation, requested } = binanceFixtures(prices);
    const warnings: unknown[] = [];
    const clock = new ManualClock(Date.parse('2026-11-22T10:00:00Z'));
    const feed = new CcxtFeed({
      exchangeId: 'binance',
      symbols: ['BTC/USDT', 'ETH/USDT', 'SOL/USDT', 'PEPE/USDT'],
      pollIntervalMs: 1000,
      clock,
      fetchImplementation,
      logger: { warn: (detail: unknown) => warnings.push(detail), info: () => {} },
    });
    expect(feed.source).toBe('ccxt:binance');
    const ticks = await feed.pollOnce();
    expect(ticks).toEqual([
      { symbol: 'BTC/USDT', price: '91234.56000000', atMs: clock.nowMs() },
      { symbol: 'ETH/USDT', price: '3012.34000000', atMs: clock.nowMs() },
      { symbol: 'SOL/USDT', price: '141.27000000', atMs: clock.nowMs() },
    ]);
    // Only spot markets were loaded (no futures exchangeInfo), then the cheap price endpoint.
    expect(requested).toEqual(['/api/v3/exchangeInfo', '/api/v3/ticker/price']);
    expect(warnings).toEqual([expect.objectContaining({ missing: ['PEPE/USDT'] })]);
  });

  it('emits only prices that changed, and an unchanged one again after the silence limit', async () => {
    const prices = { current: 'ticker-price.1.json' };
    const { fetchImplementation } = binanceFixtures(prices);
    const clock = new ManualClock();
    const feed = new CcxtFeed({ exchangeId: 'binance', symbols: ['BTC/USDT', 'ETH/USDT', 'SOL/USDT'], pollIntervalMs: 1000, maxSilenceMs: 5_000, clock, fetchImplementation });
    expect(await feed.pollOnce()).toHaveLength(3);
    clock.advance(1000);
    expect(await feed.pollOnce()).toEqual([]);
    prices.current = 'ticker-price.2.json';
    clock.advance(1000);
    expect((await feed.pollOnce()).map((tick) => `${tick.symbol} ${tick.price}`)).toEqual(['BTC/USDT 91250.01000000', 'SOL/USDT 141.26000000']);
    clock.advance(5_000);
    expect((await feed.pollOnce()).map((tick) => tick.symbol)).toEqual(['BTC/USDT', 'ETH/USDT', 'SOL/USDT']);
  });

  it('reads 24 h tickers when asked, taking the last price and the exchange time', async () => {
    const { fetchImplementation, requested } = binanceFixtures({ current: 'ticker-price.1.json' });
    const feed = new CcxtFeed({ exchangeId: 'binance', symbols: ['BTC/USDT', 'ETH/USDT'], pollIntervalMs: 1000, priceMethod: 'tickers', fetchImplementation });
    expect(await feed.pollOnce()).toEqual([
      { symbol: 'BTC/USDT', price: '91234.56000000', atMs: 1795341600123 },
      { symbol: 'ETH/USDT', price: '3012.34000000', atMs: 1795341600456 },
    ]);
    expect(requested.at(-1)).toBe('/api/v3/ticker/24hr');
  });

  it('polls on its interval once started, and stops', async () => {
    const { fetchImplementation, requested } = binanceFixtures({ current: 'ticker-price.1.json' });
    const clock = new ManualClock();
    const feed = new CcxtFeed({ exchangeId: 'binance', symbols: ['BTC/USDT'], pollIntervalMs: 1000, maxSilenceMs: 0, clock, fetchImplementation });
    const ticks: FeedTick[] = [];
    await feed.start((tick) => ticks.push(tick));
    clock.advance(0);
    await vi.waitFor(() => expect(ticks).toHaveLength(1));
    // The next poll is scheduled once this one has finished.
    await vi.waitFor(() => expect(clock.pendingTimers).toBe(1));
    clock.advance(999);
    expect(ticks).toHaveLength(1);
    clock.advance(1);
    await vi.waitFor(() => expect(ticks).toHaveLength(2));
    await vi.waitFor(() => expect(clock.pendingTimers).toBe(1));
    await feed.stop();
    expect(clock.pendingTimers).toBe(0);
    clock.advance(5000);
    expect(ticks).toHaveLength(2);
    expect(requested.filter((path) => path === '/api/v3/ticker/price')).toHaveLength(2);
  });

  it('refuses an exchange ccxt does not have', async () => {
    const feed = new CcxtFeed({ exchangeId: 'nosuchexchange', symbols: ['BTC/USDT'], pollIntervalMs: 1000 });
    await expect(feed.pollOnce()).rejects.toThrow(/nosuchexchange/);
    expect(() => new CcxtFeed({ exchangeId: '../x', symbols: [], pollIntervalMs: 1000 })).toThrow(RangeError);
  });
});
