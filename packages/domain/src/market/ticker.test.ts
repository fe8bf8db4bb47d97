import { describe, expect, it } from 'vitest';
import { parsePriceMinor } from './price.ts';
import { percentChangeText, tickerWindow } from './ticker.ts';

describe('24 h change', () => {
  const change = (open: string, last: string) => percentChangeText(parsePriceMinor(open), parsePriceMinor(last));

  it('is signed, two decimals, rounded half away from zero', () => {
    expect(change('100', '98.75')).toBe('-1.25');
    expect(change('100', '101.25')).toBe('1.25');
    expect(change('100', '100')).toBe('0.00');
    expect(change('3', '4')).toBe('33.33');
    expect(change('3', '2')).toBe('-33.33');
    expect(change('200', '200.01')).toBe('0.01'); // 0.005 % rounds up
    expect(change('200', '199.99')).toBe('-0.01');
    expect(change('300', '300.01')).toBe('0.00'); // 0.0033 % rounds to zero, without a minus sign
    expect(change('300', '299.99')).toBe('0.00');
    expect(change('0.15', '0.30')).toBe('100.00');
    expect(change('90000', '0.00000001')).toBe('-100.00');
  });

  it('refuses a non-positive open', () => {
    expect(() => percentChangeText(0n, 1n)).toThrow(RangeError);
  });
});

describe('24 h candle window', () => {
  it('takes minutes up to the next whole hour, then hours, to now', () => {
    const now = Date.parse('2026-11-22T13:47:30.500Z');
    expect(tickerWindow(now)).toEqual({
      minuteFromMs: Date.parse('2026-11-21T13:47:00Z'),
      hourFromMs: Date.parse('2026-11-21T14:00:00Z'),
      toMs: now,
    });
  });

  it('needs no minutes when the window starts on a whole hour', () => {
    const now = Date.parse('2026-11-22T13:00:00Z');
    const window = tickerWindow(now);
    expect(window.minuteFromMs).toBe(window.hourFromMs);
    expect(window.hourFromMs).toBe(Date.parse('2026-11-21T13:00:00Z'));
  });
});
