import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ticker } from './tickers.ts';

// The query module reads the device's session and listens for its changes when it loads; Node
// has neither localStorage nor window.
vi.hoisted(() => {
  const stored = new Map<string, string>();
  Object.assign(globalThis, {
    localStorage: { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => stored.set(key, value), removeItem: (key: string) => stored.delete(key) },
    window: { addEventListener: () => {}, removeEventListener: () => {} },
  });
});

import { queueTick, tickersKey } from './useTickers.ts';

const ticker = (symbol: string, tickId: string, price: string): Ticker => {
  const [base, quote] = symbol.split('/') as [string, string];
  return { symbol, base, quote, last: { tickId, symbol, price, atMs: 1, source: 'simulator' }, open24h: price, high24h: price, low24h: price, change24hPct: '0.00' };
};
const tick = (symbol: string, tickId: string, price: string) => ({ tickId, symbol, price, atMs: 2, source: 'simulator' });

describe('queueTick: pushed ticks written into the cached market list once per frame', () => {
  let frames: (() => void)[];
  beforeEach(() => {
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('a burst of ticks is one cache write, with the newest tick of each market', () => {
    const client = new QueryClient();
    client.setQueryData(tickersKey, { items: [ticker('BTC/USDT', '10', '100.00000000'), ticker('ETH/USDT', '10', '50.00000000')] });
    let writes = 0;
    client.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'success') writes += 1;
    });

    queueTick(client, tick('BTC/USDT', '12', '101.00000000'));
    queueTick(client, tick('ETH/USDT', '13', '51.00000000'));
    queueTick(client, tick('BTC/USDT', '14', '102.00000000'));
    // Older than what is waiting: dropped, the newer one stays.
    queueTick(client, tick('BTC/USDT', '11', '99.00000000'));

    expect(frames).toHaveLength(1);
    expect(writes).toBe(0);
    frames.shift()!();
    expect(writes).toBe(1);
    const items = client.getQueryData<{ items: Ticker[] }>(tickersKey)!.items;
    expect(items.map((item) => [item.symbol, item.last.tickId, item.last.price])).toEqual([
      ['BTC/USDT', '14', '102.00000000'],
      ['ETH/USDT', '13', '51.00000000'],
    ]);

    // The next tick asks for the next frame.
    queueTick(client, tick('ETH/USDT', '15', '52.00000000'));
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(writes).toBe(2);
  });

  it('ticks older than the list change nothing and write nothing', () => {
    const client = new QueryClient();
    client.setQueryData(tickersKey, { items: [ticker('BTC/USDT', '20', '100.00000000')] });
    const before = client.getQueryData(tickersKey);
    queueTick(client, tick('BTC/USDT', '19', '90.00000000'));
    frames.shift()!();
    expect(client.getQueryData(tickersKey)).toBe(before);
  });

  it('a tick of a market the list does not show yet refetches the list, once per market', async () => {
    const client = new QueryClient();
    client.setQueryData(tickersKey, { items: [ticker('BTC/USDT', '30', '100.00000000')] });
    const refetches = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    // A market the server had no tick of when the list was fetched, ticking now.
    queueTick(client, tick('XRP/USDT', '31', '0.50000000'));
    frames.shift()!();
    expect(refetches).toHaveBeenCalledTimes(1);
    expect(refetches).toHaveBeenCalledWith({ queryKey: tickersKey });
    // Asked about once: its next ticks, and ticks of listed markets, do not ask again.
    queueTick(client, tick('XRP/USDT', '32', '0.51000000'));
    queueTick(client, tick('BTC/USDT', '33', '101.00000000'));
    frames.shift()!();
    expect(refetches).toHaveBeenCalledTimes(1);
    expect(client.getQueryData<{ items: Ticker[] }>(tickersKey)!.items.map((item) => item.last.tickId)).toEqual(['33']);
  });
});
