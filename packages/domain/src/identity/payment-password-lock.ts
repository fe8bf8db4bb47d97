import { afterCountedAttempt, attemptGate, type FailureCount, type ThrottleRule } from './login-throttle.ts';

/**
 * The payment password's lock (issue 13, ADR 0018). Six digits are a million guesses, and only
 * the user's own session can reach the payment password, so it is counted per user: five wrong
 * ones within 24 hours lock it for 24 hours; a right one resets the count. Attempts are counted
 * before the password is checked, so concurrent guesses get no more than five checks.
 */
export const PAYMENT_PASSWORD_MAX_FAILURES = 5;
export const PAYMENT_PASSWORD_LOCK_MS = 24 * 3_600_000;
export const PAYMENT_PASSWORD_RULE: ThrottleRule = {
  // No waits before the lock: five tries, then the lock.
  freeFailures: PAYMENT_PASSWORD_MAX_FAILURES,
  lockAfterFailures: PAYMENT_PASSWORD_MAX_FAILURES,
  lockMs: PAYMENT_PASSWORD_LOCK_MS,
  windowMs: PAYMENT_PASSWORD_LOCK_MS,
};

export type PaymentPasswordAttemptDecision =
  | { allowed: true; next: FailureCount; failuresLeftIfWrong: number }
  | { allowed: false; lockedUntilMs: number };

/** May the payment password be checked now? If so, the count with this attempt counted. */
export function decidePaymentPasswordAttempt(count: FailureCount | undefined, nowMs: number): PaymentPasswordAttemptDecision {
  const gate = attemptGate(count, nowMs, PAYMENT_PASSWORD_RULE);
  if (!gate.allowed) return { allowed: false, lockedUntilMs: nowMs + gate.retryAfterMs };
  const next = afterCountedAttempt(count, nowMs, PAYMENT_PASSWORD_RULE);
  return { allowed: true, next, failuresLeftIfWrong: Math.max(0, PAYMENT_PASSWORD_MAX_FAILURES - next.failures) };
}

/** Where the user stands, as published: wrong tries left before the lock, and the lock's end if locked. */
export function paymentPasswordStanding(count: FailureCount | undefined, nowMs: number): { failuresLeft: number; lockedUntilMs: number | null } {
  const gate = attemptGate(count, nowMs, PAYMENT_PASSWORD_RULE);
  if (!gate.allowed) return { failuresLeft: 0, lockedUntilMs: nowMs + gate.retryAfterMs };
  const live = count !== undefined && nowMs - count.firstFailedAtMs < PAYMENT_PASSWORD_RULE.windowMs ? count.failures : 0;
  return { failuresLeft: Math.max(0, PAYMENT_PASSWORD_MAX_FAILURES - live), lockedUntilMs: null };
}
