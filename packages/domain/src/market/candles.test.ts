import { describe, expect, it } from 'vitest';
import { aggregateCandles, type CandleTick, candleOfTick, candleOpenTimeMs, mergeCandles } from './candles.ts';
import { parsePriceMinor } from './price.ts';

const at = (iso: string) => Date.parse(iso);
let nextId = 1n;
function tick(symbol: string, price: string, iso: string): CandleTick {
  nextId += 1n;
  return { tickId: nextId, symbol, priceMinor: parsePriceMinor(price), atMs: at(iso) };
}

describe('candle buckets', () => {
  it('cut UTC-aligned buckets: a tick on a boundary opens the next bucket', () => {
    const t = at('2026-11-22T13:47:59.999Z');
    expect(candleOpenTimeMs(t, '1m')).toBe(at('2026-11-22T13:47:00Z'));
    expect(candleOpenTimeMs(t, '5m')).toBe(at('2026-11-22T13:45:00Z'));
    expect(candleOpenTimeMs(t, '15m')).toBe(at('2026-11-22T13:45:00Z'));
    expect(candleOpenTimeMs(t, '1h')).toBe(at('2026-11-22T13:00:00Z'));
    expect(candleOpenTimeMs(t, '1d')).toBe(at('2026-11-22T00:00:00Z'));
    expect(candleOpenTimeMs(at('2026-11-22T13:48:00Z'), '1m')).toBe(at('2026-11-22T13:48:00Z'));
    expect(candleOpenTimeMs(at('2026-11-23T00:00:00Z'), '1d')).toBe(at('2026-11-23T00:00:00Z'));
    expect(candleOpenTimeMs(0, '1d')).toBe(0);
  });

  it('refuses a time that is not a non-negative whole millisecond', () => {
    expect(() => candleOpenTimeMs(-1, '1m')).toThrow(RangeError);
    expect(() => candleOpenTimeMs(1.5, '1m')).toThrow(RangeError);
  });
});

describe('aggregating a batch of ticks', () => {
  const ticks = [
    tick('BTC/USDT', '100', '2026-11-22T10:00:01Z'),
    tick('ETH/USDT', '10', '2026-11-22T10:00:02Z'),
    tick('BTC/USDT', '105', '2026-11-22T10:00:30Z'),
    tick('BTC/USDT', '95', '2026-11-22T10:00:59Z'),
    tick('BTC/USDT', '101', '2026-11-22T10:01:00Z'),
  ];
  const candles = aggregateCandles(ticks, ['1m', '1h']);
  const find = (symbol: string, interval: string, iso: string) =>
    candles.find((c) => c.symbol === symbol && c.interval === interval && c.openTimeMs === at(iso));

  it('gives one candle per symbol, interval and bucket', () => {
    // BTC: two minutes and one hour; ETH: one minute and one hour.
    expect(candles).toHaveLength(5);
  });

  it('takes the first tick as open, the last as close, the extremes as high and low, and counts', () => {
    expect(find('BTC/USDT', '1m', '2026-11-22T10:00:00Z')).toMatchObject({
      openMinor: parsePriceMinor('100'),
      highMinor: parsePriceMinor('105'),
      lowMinor: parsePriceMinor('95'),
      closeMinor: parsePriceMinor('95'),
      tickCount: 3,
      closeTickId: ticks[3]!.tickId,
    });
    expect(find('BTC/USDT', '1m', '2026-11-22T10:01:00Z')).toMatchObject({
      openMinor: parsePriceMinor('101'),
      closeMinor: parsePriceMinor('101'),
      tickCount: 1,
    });
    expect(find('BTC/USDT', '1h', '2026-11-22T10:00:00Z')).toMatchObject({
      openMinor: parsePriceMinor('100'),
      highMinor: parsePriceMinor('105'),
      lowMinor: parsePriceMinor('95'),
      closeMinor: parsePriceMinor('101'),
      tickCount: 4,
      closeTickId: ticks[4]!.tickId,
    });
    expect(find('ETH/USDT', '1h', '2026-11-22T10:00:00Z')).toMatchObject({ openMinor: parsePriceMinor('10'), tickCount: 1 });
  });

  it('uses every recorded interval by default', () => {
    const all = aggregateCandles([tick('BTC/USDT', '1', '2026-11-22T10:00:00Z')]);
    expect(all.map((c) => c.interval)).toEqual(['1m', '5m', '15m', '1h', '1d']);
  });

  it('refuses ticks out of recording order', () => {
    expect(() => aggregateCandles([ticks[1]!, ticks[0]!])).toThrow(RangeError);
  });
});

describe('merging candle updates (the upsert rule)', () => {
  const first = tick('BTC/USDT', '100', '2026-11-22T10:00:01Z');
  const second = tick('BTC/USDT', '120', '2026-11-22T10:00:02Z');
  const third = tick('BTC/USDT', '90', '2026-11-22T10:00:03Z');

  it('keeps the open, widens high and low, takes the later close and adds counts', () => {
    const merged = mergeCandles(aggregateCandles([first, second], ['1m'])[0]!, candleOfTick(third, '1m'));
    expect(merged).toMatchObject({
      openMinor: parsePriceMinor('100'),
      highMinor: parsePriceMinor('120'),
      lowMinor: parsePriceMinor('90'),
      closeMinor: parsePriceMinor('90'),
      tickCount: 3,
      closeTickId: third.tickId,
    });
  });

  it('gives the same result as aggregating all ticks at once', () => {
    const stepwise = mergeCandles(mergeCandles(candleOfTick(first, '5m'), candleOfTick(second, '5m')), candleOfTick(third, '5m'));
    expect(stepwise).toEqual(aggregateCandles([first, second, third], ['5m'])[0]);
  });

  it('keeps the close of the later tick whichever update arrives last', () => {
    const merged = mergeCandles(candleOfTick(third, '1m'), candleOfTick(second, '1m'));
    expect(merged.closeMinor).toBe(parsePriceMinor('90'));
    expect(merged.closeTickId).toBe(third.tickId);
  });

  it('refuses candles of different buckets', () => {
    const later = tick('BTC/USDT', '1', '2026-11-22T10:01:00Z');
    expect(() => mergeCandles(candleOfTick(first, '1m'), candleOfTick(later, '1m'))).toThrow(RangeError);
  });
});
