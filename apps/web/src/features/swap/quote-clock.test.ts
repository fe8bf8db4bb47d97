import type { SwapQuote } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { holdQuote, isExpired, secondsLeft } from './quote-clock.ts';

const quote = { createdAtMs: 5_000_000, expiresAtMs: 5_010_000 } as SwapQuote;

describe('quote clock', () => {
  it('counts the quote’s 10 s from when the request left, whatever the device’s time of day', () => {
    // The device clock is an hour off the server's: only durations matter.
    const held = holdQuote(quote, 1_000);
    expect(held.expiresAtLocalMs).toBe(11_000);
    expect(secondsLeft(held, 1_000)).toBe(10);
    expect(secondsLeft(held, 1_001)).toBe(10);
    expect(secondsLeft(held, 2_000)).toBe(9);
    expect(secondsLeft(held, 10_999)).toBe(1);
    expect(isExpired(held, 10_999)).toBe(false);
    expect(secondsLeft(held, 11_000)).toBe(0);
    expect(isExpired(held, 11_000)).toBe(true);
    expect(secondsLeft(held, 99_000)).toBe(0);
  });
});
