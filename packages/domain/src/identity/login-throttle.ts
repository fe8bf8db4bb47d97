/**
 * Slowing down and locking repeated failed logins (issue 4). Counted per identifier as typed, not
 * per account, so the answers are the same whether an account exists or not.
 *
 * - The first FREE_FAILURES failures cost nothing.
 * - After that each further attempt must wait 2^(n − FREE_FAILURES) seconds (1, 2, 4, 8 …).
 * - At LOCK_AFTER_FAILURES the identifier is locked for LOCK_MS.
 * - The count starts again after a success, or WINDOW_MS after the first failure.
 */
export const FREE_FAILURES = 3;
export const LOCK_AFTER_FAILURES = 10;
export const LOCK_MS = 30 * 60_000;
export const WINDOW_MS = 60 * 60_000;

export interface LoginFailureState {
  failures: number;
  firstFailedAtMs: number;
  lastFailedAtMs: number;
  lockedUntilMs: number | null;
}

export type LoginGate = { allowed: true } | { allowed: false; retryAfterMs: number };

/** May a login attempt for this identifier be checked now? */
export function loginGate(state: LoginFailureState | undefined, nowMs: number): LoginGate {
  if (!state || nowMs - state.firstFailedAtMs >= WINDOW_MS) return { allowed: true };
  if (state.lockedUntilMs !== null && nowMs < state.lockedUntilMs) return { allowed: false, retryAfterMs: state.lockedUntilMs - nowMs };
  if (state.failures < FREE_FAILURES) return { allowed: true };
  const waitMs = 1_000 * 2 ** Math.min(state.failures - FREE_FAILURES, 10);
  const readyAtMs = state.lastFailedAtMs + waitMs;
  return nowMs >= readyAtMs ? { allowed: true } : { allowed: false, retryAfterMs: readyAtMs - nowMs };
}

/** The state after one more failure at `nowMs`. */
export function afterLoginFailure(state: LoginFailureState | undefined, nowMs: number): LoginFailureState {
  const fresh = !state || nowMs - state.firstFailedAtMs >= WINDOW_MS;
  const failures = fresh ? 1 : state.failures + 1;
  return {
    failures,
    firstFailedAtMs: fresh ? nowMs : state.firstFailedAtMs,
    lastFailedAtMs: nowMs,
    lockedUntilMs: failures >= LOCK_AFTER_FAILURES ? nowMs + LOCK_MS : null,
  };
}
