import { describe, expect, it } from 'vitest';
import {
  afterCountedAttempt,
  afterSettledAttempt,
  attemptGate,
  decideLoginAttempt,
  type FailureCount,
  LOGIN_RULE,
  LOGIN_RULE_UNDER_ATTACK,
  loginRuleFor,
  NAME_UNDER_ATTACK_FAILURES,
  nameCountAfterSuccess,
  settleLoginAttempt,
} from './login-throttle.ts';

const start = 1_000_000_000;
const { freeFailures, lockAfterFailures, lockMs, windowMs } = LOGIN_RULE;

function failTimes(count: number, everyMs = 100_000, rule = LOGIN_RULE): FailureCount | undefined {
  let state: FailureCount | undefined;
  for (let index = 0; index < count; index++) state = afterCountedAttempt(state, start + index * everyMs, rule);
  return state;
}

describe('the throttle rule (login numbers)', () => {
  it('publishes 3 free failures, a lock at 10 for 30 minutes, a window of an hour', () => {
    expect(LOGIN_RULE).toEqual({ freeFailures: 3, lockAfterFailures: 10, lockMs: 30 * 60_000, windowMs: 60 * 60_000 });
    expect(LOGIN_RULE_UNDER_ATTACK).toEqual({ ...LOGIN_RULE, lockAfterFailures: 5 });
    expect(NAME_UNDER_ATTACK_FAILURES).toBe(20);
  });

  it('lets the first failures through at once', () => {
    expect(attemptGate(undefined, start, LOGIN_RULE)).toEqual({ allowed: true });
    expect(attemptGate(failTimes(freeFailures - 1, 0), start, LOGIN_RULE)).toEqual({ allowed: true });
  });

  it('then doubles the wait after each failure', () => {
    const third = failTimes(freeFailures, 0)!;
    expect(attemptGate(third, start, LOGIN_RULE)).toEqual({ allowed: false, retryAfterMs: 1_000 });
    expect(attemptGate(third, start + 1_000, LOGIN_RULE)).toEqual({ allowed: true });
    const fourth = afterCountedAttempt(third, start + 1_000, LOGIN_RULE);
    expect(attemptGate(fourth, start + 1_000, LOGIN_RULE)).toEqual({ allowed: false, retryAfterMs: 2_000 });
  });

  it('locks for 30 minutes at the tenth failure', () => {
    const state = failTimes(lockAfterFailures, 60_000)!;
    const lastAt = start + (lockAfterFailures - 1) * 60_000;
    expect(state.lockedUntilMs).toBe(lastAt + lockMs);
    expect(attemptGate(state, lastAt + 10, LOGIN_RULE)).toEqual({ allowed: false, retryAfterMs: lockMs - 10 });
  });

  it('forgets failures an hour after the first one', () => {
    const state = failTimes(freeFailures + 2, 0)!;
    expect(attemptGate(state, start + windowMs, LOGIN_RULE)).toEqual({ allowed: true });
    expect(afterCountedAttempt(state, start + windowMs, LOGIN_RULE).failures).toBe(1);
  });

  it('a count that reached a stricter rule’s lock number is locked under it, from its last failure', () => {
    const seven = failTimes(7, 60_000)!;
    const lastAt = start + 6 * 60_000;
    expect(seven.lockedUntilMs).toBeNull();
    expect(attemptGate(seven, lastAt + 1_000, LOGIN_RULE_UNDER_ATTACK)).toEqual({ allowed: false, retryAfterMs: lockMs - 1_000 });
  });

  it('settling takes one counted attempt back out, and the lock it caused', () => {
    const tenth = failTimes(lockAfterFailures, 60_000)!;
    const settled = afterSettledAttempt(tenth, LOGIN_RULE);
    expect(settled).toMatchObject({ failures: 9, lockedUntilMs: null });
    const eleventh = afterCountedAttempt(tenth, tenth.lastFailedAtMs + lockMs, LOGIN_RULE);
    expect(afterSettledAttempt(eleventh, LOGIN_RULE).lockedUntilMs).toBe(eleventh.lockedUntilMs);
    expect(afterSettledAttempt(failTimes(1)!, LOGIN_RULE).failures).toBe(0);
  });
});

describe('login: per name and address, with a name-wide count that never locks', () => {
  it('counts the attempt in both counters when it may be checked', () => {
    const decision = decideLoginAttempt({ name: undefined, source: undefined }, start);
    expect(decision).toEqual({
      allowed: true,
      next: {
        name: { failures: 1, firstFailedAtMs: start, lastFailedAtMs: start, lockedUntilMs: null },
        source: { failures: 1, firstFailedAtMs: start, lastFailedAtMs: start, lockedUntilMs: null },
      },
    });
  });

  it('refuses only by the address’s own count: any number of failures elsewhere never refuse a fresh address', () => {
    const name = failTimes(500, 1_000, { ...LOGIN_RULE, lockAfterFailures: Number.POSITIVE_INFINITY, freeFailures: Number.POSITIVE_INFINITY });
    const nowMs = start + 500_000;
    expect(name!.lockedUntilMs).toBeNull();
    expect(decideLoginAttempt({ name, source: undefined }, nowMs).allowed).toBe(true);
    const ownThree = failTimes(3, 0);
    expect(decideLoginAttempt({ name, source: ownThree }, start)).toEqual({ allowed: false, retryAfterMs: 1_000 });
  });

  it('while the name has 20 failures in the hour, each address locks at 5 instead of 10', () => {
    const underAttack = failTimes(NAME_UNDER_ATTACK_FAILURES, 1_000);
    const calm = failTimes(NAME_UNDER_ATTACK_FAILURES - 1, 1_000);
    expect(loginRuleFor(underAttack, start + 30_000)).toBe(LOGIN_RULE_UNDER_ATTACK);
    expect(loginRuleFor(calm, start + 30_000)).toBe(LOGIN_RULE);
    // An hour after the name's first failure the attack is forgotten.
    expect(loginRuleFor(underAttack, start + windowMs)).toBe(LOGIN_RULE);

    let source: FailureCount | undefined;
    let nowMs = start + 30_000;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      nowMs += 10_000;
      const decision = decideLoginAttempt({ name: underAttack, source }, nowMs);
      if (!decision.allowed) throw new Error(`attempt ${attempt} refused`);
      source = decision.next.source;
    }
    expect(source).toMatchObject({ failures: 5, lockedUntilMs: nowMs + lockMs });
    expect(decideLoginAttempt({ name: underAttack, source }, nowMs + 10_000)).toEqual({ allowed: false, retryAfterMs: lockMs - 10_000 });
  });

  it('settling and success take the attempt back out of the name-wide count', () => {
    const decision = decideLoginAttempt({ name: failTimes(4, 0), source: undefined }, start);
    if (!decision.allowed) throw new Error('refused');
    expect(settleLoginAttempt(decision.next, start)).toMatchObject({ name: { failures: 4 }, source: { failures: 0 } });
    expect(nameCountAfterSuccess(decision.next.name).failures).toBe(4);
  });
});
