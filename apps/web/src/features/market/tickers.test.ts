import { describe, expect, it } from 'vitest';
import { applyTick, type Ticker, usdtPrices } from './tickers.ts';

const ticker = (symbol: string, tickId: string, price: string, open: string): Ticker => {
  const [base, quote] = symbol.split('/') as [string, string];
  return {
    symbol,
    base,
    quote,
    last: { tickId, symbol, price, atMs: 1, source: 'simulator' },
    open24h: open,
    high24h: price,
    low24h: price,
    change24hPct: '0.00',
  };
};

const tick = (symbol: string, tickId: string, price: string) => ({ tickId, symbol, price, atMs: 2, source: 'simulator' });

describe('applyTick', () => {
  const list = [ticker('BTC/USDT', '10', '100.00000000', '100.00000000'), ticker('ETH/USDT', '11', '50.00000000', '40.00000000')];

  it('moves the last price and recomputes the 24 h change, high and low', () => {
    const next = applyTick(list, tick('BTC/USDT', '12', '98.75000000'));
    expect(next[0]!.last.price).toBe('98.75000000');
    expect(next[0]!.change24hPct).toBe('-1.25');
    expect(next[0]!.low24h).toBe('98.75000000');
    expect(next[0]!.high24h).toBe('100.00000000');
    expect(next[1]).toBe(list[1]);
    const up = applyTick(next, tick('BTC/USDT', '13', '102.00000000'));
    expect(up[0]!.change24hPct).toBe('2.00');
    expect(up[0]!.high24h).toBe('102.00000000');
  });

  it('ignores a tick no newer than the shown one, and unknown markets', () => {
    expect(applyTick(list, tick('BTC/USDT', '10', '1.00000000'))).toBe(list);
    expect(applyTick(list, tick('BTC/USDT', '9', '1.00000000'))).toBe(list);
    expect(applyTick(list, tick('DOGE/USDT', '99', '1.00000000'))).toBe(list);
  });

  it('compares tick ids as integers', () => {
    const nine = [ticker('BTC/USDT', '9', '100.00000000', '100.00000000')];
    expect(applyTick(nine, tick('BTC/USDT', '10', '101.00000000'))[0]!.last.tickId).toBe('10');
  });
});

describe('usdtPrices', () => {
  it('prices each base asset of a USDT market, and USDT at 1', () => {
    const prices = usdtPrices([ticker('BTC/USDT', '1', '64000.00000000', '1'), ticker('ETH/BTC', '2', '0.05000000', '1')]);
    expect(prices.get('BTC')?.price).toBe('64000.00000000');
    expect(prices.get('USDT')?.price).toBe('1');
    expect(prices.has('ETH')).toBe(false);
  });
});
