import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../persistence/users.repository.ts';
import type { UserSession } from './resolve-session.ts';
import { SessionCache } from './session-cache.ts';

// Issue 15: reads reuse a session checked within the last second, never past its expiry, and never
// one read before the user's sessions were forgotten.

const now = new Date('2026-11-24T12:00:00Z');
const sessionOf = (userId: bigint, tokenHash: string, expiresAt = new Date(now.getTime() + 3_600_000)): UserSession => ({
  user: { id: userId } as UserRow,
  tokenHash,
  expiresAt,
});

function cacheWithClock(ttlMs = 1_000, maxEntries?: number) {
  const clock = { ms: 10_000 };
  const cache = new SessionCache({ ttlMs, maxEntries, clockMs: () => clock.ms });
  return { cache, clock };
}

describe('SessionCache', () => {
  it('gives a stored session until its time is up, then asks for the database again', () => {
    const { cache, clock } = cacheWithClock();
    const session = sessionOf(1n, 'a');
    cache.store(session, clock.ms);
    clock.ms += 999;
    expect(cache.get('a', now)).toBe(session);
    clock.ms += 1;
    expect(cache.get('a', now)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('never gives a session past its own expiry', () => {
    const { cache, clock } = cacheWithClock();
    cache.store(sessionOf(1n, 'a', new Date(now.getTime() + 10)), clock.ms);
    expect(cache.get('a', now)).toBeDefined();
    expect(cache.get('a', new Date(now.getTime() + 10))).toBeUndefined();
  });

  it('forgets every session of a user at once, and no other', () => {
    const { cache, clock } = cacheWithClock();
    cache.store(sessionOf(1n, 'a'), clock.ms);
    cache.store(sessionOf(1n, 'b'), clock.ms);
    cache.store(sessionOf(2n, 'c'), clock.ms);
    cache.forgetUser('1');
    expect([cache.get('a', now), cache.get('b', now)]).toEqual([undefined, undefined]);
    expect(cache.get('c', now)).toBeDefined();
  });

  it('does not keep what a read found when the user was forgotten while it ran', () => {
    const { cache, clock } = cacheWithClock();
    const readStartedAtMs = clock.ms;
    clock.ms += 5;
    cache.forgetUser(1n);
    clock.ms += 5;
    cache.store(sessionOf(1n, 'a'), readStartedAtMs);
    expect(cache.get('a', now)).toBeUndefined();
    // A read that started after the change is kept.
    cache.store(sessionOf(1n, 'a'), clock.ms);
    expect(cache.get('a', now)).toBeDefined();
  });

  it('holds at most maxEntries, dropping the oldest', () => {
    const { cache, clock } = cacheWithClock(1_000, 2);
    cache.store(sessionOf(1n, 'a'), clock.ms);
    cache.store(sessionOf(2n, 'b'), clock.ms);
    cache.store(sessionOf(3n, 'c'), clock.ms);
    expect(cache.size).toBe(2);
    expect(cache.get('a', now)).toBeUndefined();
    expect(cache.get('c', now)).toBeDefined();
  });

  it('keeps nothing with a time of 0', () => {
    const { cache, clock } = cacheWithClock(0);
    cache.store(sessionOf(1n, 'a'), clock.ms);
    expect(cache.get('a', now)).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
