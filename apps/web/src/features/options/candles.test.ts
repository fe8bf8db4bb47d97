import { describe, expect, it } from 'vitest';
import { type Candle, chartPrecision, mergeCandle, toChartBars } from './candles.ts';

const candle = (openTimeMs: number, close: string, tickCount = 1): Candle => ({ openTimeMs, open: '100.00', high: '110.00', low: '90.00', close, tickCount });

describe('live candles', () => {
  const list = [candle(60_000, '101'), candle(120_000, '102', 3)];

  it('replaces the current candle and appends a new one', () => {
    expect(mergeCandle(list, candle(120_000, '105', 4)).map((each) => each.close)).toEqual(['101', '105']);
    expect(mergeCandle(list, candle(180_000, '99')).map((each) => each.openTimeMs)).toEqual([60_000, 120_000, 180_000]);
    expect(mergeCandle([], candle(60_000, '1'))).toHaveLength(1);
  });

  it('ignores a frame older than what is shown', () => {
    expect(mergeCandle(list, candle(120_000, '90', 2))).toBe(list);
    expect(mergeCandle(list, candle(0, '90'))).toBe(list);
    expect(mergeCandle(list, candle(60_000, '98', 2)).map((each) => each.close)).toEqual(['98', '102']);
  });
});

describe('chart bars', () => {
  it('draws numbers on the device’s local time and skips what cannot be drawn', () => {
    const at = Date.UTC(2025, 0, 15, 12, 0);
    const offsetSeconds = new Date(at).getTimezoneOffset() * 60;
    const bars = toChartBars([candle(at, '101.5'), { ...candle(at + 60_000, 'x') }, candle(at + 120_000, '102')]);
    expect(bars).toEqual([
      { time: at / 1000 - offsetSeconds, open: 100, high: 110, low: 90, close: 101.5 },
      { time: (at + 120_000) / 1000 - offsetSeconds, open: 100, high: 110, low: 90, close: 102 },
    ]);
  });

  it('keeps bar times strictly rising', () => {
    const bars = toChartBars([candle(120_000, '1'), candle(60_000, '2')]);
    expect(bars).toHaveLength(1);
  });

  it('shows as many decimals as the prices need, 2 to 8', () => {
    expect(chartPrecision([candle(0, '64000.00000000')])).toBe(2);
    expect(chartPrecision([{ ...candle(0, '0.15012000'), low: '0.15' }])).toBe(5);
    expect(chartPrecision([candle(0, '0.0000000012')])).toBe(8);
  });
});
