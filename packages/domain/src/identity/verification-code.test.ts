import { describe, expect, it } from 'vitest';
import {
  CODE_MAX_ATTEMPTS,
  CODE_RESEND_COOLDOWN_MS,
  decideCodeSend,
  isCodeUsable,
  normalizeEmail,
  normalizePhone,
} from './verification-code.ts';

const now = 10_000_000_000;
const minutesAgo = (minutes: number) => now - minutes * 60_000;

describe('decideCodeSend', () => {
  it('allows the first code and refuses a second within the minute, saying how long to wait', () => {
    expect(decideCodeSend({ nowMs: now, targetSentAtMs: [], addressSentAtMs: [] })).toEqual({ allowed: true });
    expect(decideCodeSend({ nowMs: now, targetSentAtMs: [now - 20_000], addressSentAtMs: [] })).toEqual({
      allowed: false,
      retryAfterMs: CODE_RESEND_COOLDOWN_MS - 20_000,
    });
    expect(decideCodeSend({ nowMs: now, targetSentAtMs: [now - CODE_RESEND_COOLDOWN_MS], addressSentAtMs: [] })).toEqual({ allowed: true });
  });

  it('allows five per target per hour; the sixth waits until the oldest leaves the hour', () => {
    const five = [minutesAgo(50), minutesAgo(40), minutesAgo(30), minutesAgo(20), minutesAgo(10)];
    expect(decideCodeSend({ nowMs: now, targetSentAtMs: five, addressSentAtMs: [] })).toEqual({ allowed: false, retryAfterMs: 10 * 60_000 });
    expect(decideCodeSend({ nowMs: now, targetSentAtMs: five.slice(1), addressSentAtMs: [] })).toEqual({ allowed: true });
    // Sends older than an hour do not count.
    expect(decideCodeSend({ nowMs: now, targetSentAtMs: [minutesAgo(61), ...five.slice(1)], addressSentAtMs: [] })).toEqual({ allowed: true });
  });

  it('allows twenty per client address per hour', () => {
    const twenty = Array.from({ length: 20 }, (_, index) => minutesAgo(59 - index));
    expect(decideCodeSend({ nowMs: now, targetSentAtMs: [], addressSentAtMs: twenty })).toEqual({ allowed: false, retryAfterMs: 60_000 });
    expect(decideCodeSend({ nowMs: now, targetSentAtMs: [], addressSentAtMs: twenty.slice(1) })).toEqual({ allowed: true });
  });
});

describe('isCodeUsable', () => {
  const fresh = { expiresAtMs: now + 1, consumed: false, attempts: 0 };
  it('is usable only unconsumed, unexpired and under the guess limit', () => {
    expect(isCodeUsable(fresh, now)).toBe(true);
    expect(isCodeUsable({ ...fresh, consumed: true }, now)).toBe(false);
    expect(isCodeUsable({ ...fresh, expiresAtMs: now }, now)).toBe(false);
    expect(isCodeUsable({ ...fresh, attempts: CODE_MAX_ATTEMPTS - 1 }, now)).toBe(true);
    expect(isCodeUsable({ ...fresh, attempts: CODE_MAX_ATTEMPTS }, now)).toBe(false);
  });
});

describe('targets', () => {
  it('normalises e-mail addresses and refuses malformed ones', () => {
    expect(normalizeEmail('  Ana.Silva@Example.COM ')).toBe('ana.silva@example.com');
    for (const bad of ['', 'ana', 'ana@', '@example.com', 'ana@example', 'a na@example.com', 'ana@example.c']) {
      expect(normalizeEmail(bad), bad).toBeUndefined();
    }
  });

  it('normalises phone numbers to E.164 and refuses others', () => {
    expect(normalizePhone('+49 (170) 123-4567')).toBe('+491701234567');
    expect(normalizePhone('0044 20 7946 0958')).toBe('+442079460958');
    for (const bad of ['', '12345678', '+0123456789', '+12', '+1234567890123456', '+49abc1234567']) {
      expect(normalizePhone(bad), bad).toBeUndefined();
    }
  });
});
