/**
 * Counting failed attempts at a secret (issue 4; made race-proof in issue 13, ADR 0018). One
 * shape serves every throttle — user login, staff login, the payment password — with its own rule.
 *
 * Every attempt is COUNTED BEFORE ITS SECRET IS CHECKED (the caller stores the count under a row
 * lock in the same step that asked the gate), so concurrent guesses cannot all pass a gate that
 * has not yet seen the others. A success then clears the count; an attempt that turns out not to
 * be a guess (the password was right but the two-step code is still to come) is settled: taken
 * back out.
 *
 * - The first `freeFailures` failures cost nothing.
 * - After that each further attempt must wait 2^(n − freeFailures) seconds (1, 2, 4, 8 …).
 * - At `lockAfterFailures` the subject is locked for `lockMs`.
 * - The count starts again after a success, or `windowMs` after the first failure.
 */
export interface ThrottleRule {
  freeFailures: number;
  lockAfterFailures: number;
  lockMs: number;
  windowMs: number;
}

/** One counter: failures (attempts counted and not cleared) since `firstFailedAtMs`. */
export interface FailureCount {
  failures: number;
  firstFailedAtMs: number;
  lastFailedAtMs: number;
  lockedUntilMs: number | null;
}

export type AttemptGate = { allowed: true } | { allowed: false; retryAfterMs: number };

const MAX_WAIT_EXPONENT = 10;

function isLive(count: FailureCount | undefined, nowMs: number, rule: ThrottleRule): count is FailureCount {
  return count !== undefined && count.failures > 0 && nowMs - count.firstFailedAtMs < rule.windowMs;
}

/** May one more attempt be checked now? */
export function attemptGate(count: FailureCount | undefined, nowMs: number, rule: ThrottleRule): AttemptGate {
  if (!isLive(count, nowMs, rule)) return { allowed: true };
  // A count that reached the lock under a stricter rule than the one that wrote it is locked too.
  const lockedUntilMs = count.lockedUntilMs ?? (count.failures >= rule.lockAfterFailures ? count.lastFailedAtMs + rule.lockMs : null);
  if (lockedUntilMs !== null && nowMs < lockedUntilMs) return { allowed: false, retryAfterMs: lockedUntilMs - nowMs };
  if (count.failures < rule.freeFailures) return { allowed: true };
  const readyAtMs = count.lastFailedAtMs + 1_000 * 2 ** Math.min(count.failures - rule.freeFailures, MAX_WAIT_EXPONENT);
  return nowMs >= readyAtMs ? { allowed: true } : { allowed: false, retryAfterMs: readyAtMs - nowMs };
}

/** The count after one more attempt at `nowMs` (counted as a failure until it is cleared or settled). */
export function afterCountedAttempt(count: FailureCount | undefined, nowMs: number, rule: ThrottleRule): FailureCount {
  const live = isLive(count, nowMs, rule);
  const failures = live ? count.failures + 1 : 1;
  return {
    failures,
    firstFailedAtMs: live ? count.firstFailedAtMs : nowMs,
    lastFailedAtMs: nowMs,
    lockedUntilMs: failures >= rule.lockAfterFailures ? nowMs + rule.lockMs : live ? count.lockedUntilMs : null,
  };
}

/** The count with one counted attempt taken back out (it was no guess); a lock it caused goes with it. */
export function afterSettledAttempt(count: FailureCount, rule: ThrottleRule): FailureCount {
  const failures = Math.max(0, count.failures - 1);
  return { ...count, failures, lockedUntilMs: failures >= rule.lockAfterFailures ? count.lockedUntilMs : null };
}

// ---- Login (users and staff alike), ADR 0018 -------------------------------------------------
//
// Counted per name as typed (not per account, so the answers are the same whether an account
// exists or not) in two counters:
// - per name AND source address: the rule below, with its hard lock. Only failures from that
//   address count, so nobody elsewhere can lock the owner out;
// - per name across all addresses: never a lock. It only tells whether the name is under attack
//   (NAME_UNDER_ATTACK_FAILURES in the window); while it is, each address locks sooner
//   (LOGIN_RULE_UNDER_ATTACK). A stranger can make the owner's own mistakes cost more, never
//   refuse the owner's first attempt from an address nor stretch a wait the owner did not cause.

export const LOGIN_RULE: ThrottleRule = { freeFailures: 3, lockAfterFailures: 10, lockMs: 30 * 60_000, windowMs: 60 * 60_000 };
export const NAME_UNDER_ATTACK_FAILURES = 20;
export const LOGIN_RULE_UNDER_ATTACK: ThrottleRule = { ...LOGIN_RULE, lockAfterFailures: 5 };
/** The name-wide counter only counts. */
const NAME_COUNT_RULE: ThrottleRule = {
  freeFailures: Number.POSITIVE_INFINITY,
  lockAfterFailures: Number.POSITIVE_INFINITY,
  lockMs: 0,
  windowMs: LOGIN_RULE.windowMs,
};

/** The published numbers of the login rule as they were before issue 13 (still true per address). */
export const FREE_FAILURES = LOGIN_RULE.freeFailures;
export const LOCK_AFTER_FAILURES = LOGIN_RULE.lockAfterFailures;
export const LOCK_MS = LOGIN_RULE.lockMs;
export const WINDOW_MS = LOGIN_RULE.windowMs;

export interface LoginCounts {
  /** Failures of the name from every address. */
  name: FailureCount | undefined;
  /** Failures of the name from this attempt's address. */
  source: FailureCount | undefined;
}

export type LoginAttemptDecision =
  | { allowed: true; next: { name: FailureCount; source: FailureCount } }
  | { allowed: false; retryAfterMs: number };

/** The per-address rule in force for a name now. */
export function loginRuleFor(name: FailureCount | undefined, nowMs: number): ThrottleRule {
  return isLive(name, nowMs, NAME_COUNT_RULE) && name.failures >= NAME_UNDER_ATTACK_FAILURES ? LOGIN_RULE_UNDER_ATTACK : LOGIN_RULE;
}

/** May this login attempt be checked now? If so, both counters with it counted. */
export function decideLoginAttempt(counts: LoginCounts, nowMs: number): LoginAttemptDecision {
  const rule = loginRuleFor(counts.name, nowMs);
  const gate = attemptGate(counts.source, nowMs, rule);
  if (!gate.allowed) return gate;
  return {
    allowed: true,
    next: { name: afterCountedAttempt(counts.name, nowMs, NAME_COUNT_RULE), source: afterCountedAttempt(counts.source, nowMs, rule) },
  };
}

/** Both counters with a counted attempt taken back out (the password was right, a second step is still due). */
export function settleLoginAttempt(counts: { name: FailureCount; source: FailureCount }, nowMs: number): { name: FailureCount; source: FailureCount } {
  return { name: afterSettledAttempt(counts.name, NAME_COUNT_RULE), source: afterSettledAttempt(counts.source, loginRuleFor(counts.name, nowMs)) };
}

/** The name-wide counter after a success: the attempt is taken back out; other addresses' failures stay. */
export function nameCountAfterSuccess(name: FailureCount): FailureCount {
  return afterSettledAttempt(name, NAME_COUNT_RULE);
}
