import { describe, expect, it } from 'vitest';
import { afterLoginFailure, FREE_FAILURES, LOCK_AFTER_FAILURES, LOCK_MS, type LoginFailureState, loginGate, WINDOW_MS } from './login-throttle.ts';

const start = 1_000_000_000;

function failTimes(count: number, everyMs = 100_000): LoginFailureState | undefined {
  let state: LoginFailureState | undefined;
  for (let index = 0; index < count; index++) state = afterLoginFailure(state, start + index * everyMs);
  return state;
}

describe('login throttle', () => {
  it('lets the first failures through at once', () => {
    expect(loginGate(undefined, start)).toEqual({ allowed: true });
    const state = failTimes(FREE_FAILURES - 1, 0);
    expect(loginGate(state, start)).toEqual({ allowed: true });
  });

  it('then doubles the wait after each failure', () => {
    const third = failTimes(FREE_FAILURES, 0)!;
    expect(loginGate(third, start)).toEqual({ allowed: false, retryAfterMs: 1_000 });
    expect(loginGate(third, start + 1_000)).toEqual({ allowed: true });
    const fourth = afterLoginFailure(third, start + 1_000);
    expect(loginGate(fourth, start + 1_000)).toEqual({ allowed: false, retryAfterMs: 2_000 });
  });

  it('locks for 30 minutes at the tenth failure', () => {
    const state = failTimes(LOCK_AFTER_FAILURES, 60_000)!;
    const lastAt = start + (LOCK_AFTER_FAILURES - 1) * 60_000;
    expect(state.lockedUntilMs).toBe(lastAt + LOCK_MS);
    expect(loginGate(state, lastAt + 10)).toEqual({ allowed: false, retryAfterMs: LOCK_MS - 10 });
  });

  it('forgets failures an hour after the first one', () => {
    const state = failTimes(FREE_FAILURES + 2, 0)!;
    expect(loginGate(state, start + WINDOW_MS)).toEqual({ allowed: true });
    expect(afterLoginFailure(state, start + WINDOW_MS).failures).toBe(1);
  });
});
