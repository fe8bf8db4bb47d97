import { describe, expect, it } from 'vitest';
import { formatPriceMinor, normalizeFeedPrice, parsePriceMinor } from './price.ts';

describe('prices at 8 decimals', () => {
  it('round-trips a price', () => {
    expect(parsePriceMinor('91234.5')).toBe(9_123_450_000_000n);
    expect(formatPriceMinor(9_123_450_000_000n)).toBe('91234.50000000');
  });

  it('cuts a feed price with more decimals towards zero, never up', () => {
    expect(normalizeFeedPrice('0.123456789999')).toBe('0.12345678');
    expect(normalizeFeedPrice(' 3000 ')).toBe('3000.00000000');
  });

  it('refuses malformed, signed, exponent and zero prices', () => {
    for (const text of ['', 'abc', '-1', '1e5', '1,000', '0', '0.000000001']) {
      expect(() => normalizeFeedPrice(text), text).toThrow(RangeError);
    }
  });
});
