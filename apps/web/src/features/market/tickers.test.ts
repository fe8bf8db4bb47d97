import { describe, expect, it } from 'vitest';
import { applyTick, changeDirection, marketMovers, type Ticker, usdtPriceMap, usdtPrices } from './tickers.ts';

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

describe('market movers', () => {
  const withChange = (symbol: string, change: string): Ticker => ({ ...ticker(symbol, '1', '1.00000000', '1.00000000'), change24hPct: change });

  it('ranks by the size of the 24 h change, whichever way, exactly', () => {
    const list = [
      withChange('BTC/USDT', '1.25'),
      withChange('ETH/USDT', '-7.10'),
      withChange('SOL/USDT', '0.00'),
      withChange('XRP/USDT', '7.09'),
      withChange('DOGE/USDT', '-0.50'),
    ];
    expect(marketMovers(list, 3).map((each) => each.symbol)).toEqual(['ETH/USDT', 'XRP/USDT', 'BTC/USDT']);
    expect(marketMovers(list, 10)).toHaveLength(5);
    expect(marketMovers([], 3)).toEqual([]);
  });

  it('orders equal changes by symbol and leaves out a change that is not a number', () => {
    const list = [withChange('SOL/USDT', '2.00'), withChange('ADA/USDT', '-2.00'), withChange('BAD/USDT', 'n/a')];
    expect(marketMovers(list, 3).map((each) => each.symbol)).toEqual(['ADA/USDT', 'SOL/USDT']);
  });

  it('reads the direction of a change from its sign, zero being flat', () => {
    expect(changeDirection('1.25')).toBe('up');
    expect(changeDirection('-0.01')).toBe('down');
    expect(changeDirection('0.00')).toBe('flat');
    expect(changeDirection('0')).toBe('flat');
  });

  it('gives the valuation a plain price per asset, USDT being 1', () => {
    const prices = usdtPriceMap([ticker('BTC/USDT', '1', '64000.00000000', '60000.00000000'), ticker('ETH/BTC', '2', '0.05000000', '0.05000000')]);
    expect([...prices]).toEqual([
      ['USDT', '1'],
      ['BTC', '64000.00000000'],
    ]);
  });
});
