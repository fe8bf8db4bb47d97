import { describe, expect, it } from 'vitest';
import { resendWaitMs, retryAfterSeconds } from './code-wait.ts';

describe('waits', () => {
  it('counts the resend wait from the answer alone, whatever the device clock says', () => {
    const sentAt = 1_000_000;
    expect(resendWaitMs({ expiresAtMs: sentAt + 300_000, resendAfterMs: sentAt + 60_000 })).toBe(60_000);
  });

  it('reads retryAfterSeconds of a 429 answer', () => {
    expect(retryAfterSeconds({ retryAfterSeconds: 1800 })).toBe(1800);
    expect(retryAfterSeconds({ retryAfterSeconds: 0.2 })).toBe(1);
    expect(retryAfterSeconds(null)).toBeUndefined();
    expect(retryAfterSeconds({ retryAfterSeconds: 'x' })).toBeUndefined();
  });
});
