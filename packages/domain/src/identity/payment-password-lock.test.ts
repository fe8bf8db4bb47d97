import { describe, expect, it } from 'vitest';
import type { FailureCount } from './login-throttle.ts';
import {
  decidePaymentPasswordAttempt,
  PAYMENT_PASSWORD_LOCK_MS,
  PAYMENT_PASSWORD_MAX_FAILURES,
  paymentPasswordStanding,
} from './payment-password-lock.ts';

const start = 1_000_000_000;

/** The count after `wrong` wrong payment passwords, one a minute. */
function wrongTimes(wrong: number): FailureCount | undefined {
  let count: FailureCount | undefined;
  for (let index = 0; index < wrong; index += 1) {
    const decision = decidePaymentPasswordAttempt(count, start + index * 60_000);
    if (!decision.allowed) throw new Error(`attempt ${index} refused`);
    count = decision.next;
  }
  return count;
}

describe('payment password lock', () => {
  it('publishes 5 failures and a 24 h lock', () => {
    expect(PAYMENT_PASSWORD_MAX_FAILURES).toBe(5);
    expect(PAYMENT_PASSWORD_LOCK_MS).toBe(24 * 3_600_000);
  });

  it('checks five in a row at once, saying what is left, then locks for 24 h from the fifth', () => {
    expect(paymentPasswordStanding(undefined, start)).toEqual({ failuresLeft: 5, lockedUntilMs: null });
    const four = wrongTimes(4);
    expect(paymentPasswordStanding(four, start + 4 * 60_000)).toEqual({ failuresLeft: 1, lockedUntilMs: null });
    const fifth = decidePaymentPasswordAttempt(four, start + 4 * 60_000);
    expect(fifth).toMatchObject({ allowed: true, failuresLeftIfWrong: 0 });
    const lockedUntilMs = start + 4 * 60_000 + PAYMENT_PASSWORD_LOCK_MS;
    const five = wrongTimes(5);
    expect(decidePaymentPasswordAttempt(five, start + 5 * 60_000)).toEqual({ allowed: false, lockedUntilMs });
    expect(paymentPasswordStanding(five, start + 5 * 60_000)).toEqual({ failuresLeft: 0, lockedUntilMs });
  });

  it('opens again with five fresh tries when the lock ends', () => {
    const five = wrongTimes(5);
    const endsMs = five!.lockedUntilMs!;
    expect(paymentPasswordStanding(five, endsMs)).toEqual({ failuresLeft: 5, lockedUntilMs: null });
    expect(decidePaymentPasswordAttempt(five, endsMs)).toMatchObject({ allowed: true, next: { failures: 1 }, failuresLeftIfWrong: 4 });
  });

  it('forgets wrong ones 24 h after the first', () => {
    const three = wrongTimes(3);
    expect(paymentPasswordStanding(three, start + PAYMENT_PASSWORD_LOCK_MS)).toEqual({ failuresLeft: 5, lockedUntilMs: null });
  });
});
