import { performance } from 'node:perf_hooks';
import type { UserSession } from './resolve-session.ts';

/**
 * The user sessions this node checked in the last moment, for the reads that follow (issue 15):
 * a screen's reads each carry the token, and checking it is a database round trip before the
 * read's own. Only reads (`GET`) take a session from here; every call that changes something checks
 * it in the database, so a money-moving call never acts on a session that just ended.
 *
 * An entry lives at most `ttlMs` (at most a second: a session ended or a user suspended on any
 * node is refused everywhere within it, even if the bus lost the news) and never past the session's
 * own expiry. `forgetUser` drops a user's entries at once: the node that ends sessions or changes
 * the user calls it, and tells the other nodes over the event bus (`forgetCachedSessions`). A read
 * that started before such a change does not store what it read (it may be the state before).
 */
export class SessionCache {
  private readonly entries = new Map<string, { session: UserSession; storedAtMs: number }>();
  /** The token hashes of each user's entries: every change call forgets its user, so this is a hot path. */
  private readonly tokenHashesByUser = new Map<string, Set<string>>();
  /**
   * When each user was last forgotten, on this cache's clock, oldest first (re-inserted on every
   * forget); kept a minute, far longer than a read.
   */
  private readonly forgottenAtMs = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  /** A monotonic clock in milliseconds: the wall clock may step, and tests set `deps.now`. */
  readonly clockMs: () => number;

  constructor(options: { ttlMs: number; maxEntries?: number; clockMs?: () => number }) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? 20_000;
    this.clockMs = options.clockMs ?? (() => performance.now());
  }

  /** The session of this token hash if it was checked less than `ttlMs` ago and has not expired at `now`. */
  get(tokenHash: string, now: Date): UserSession | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (this.clockMs() - entry.storedAtMs >= this.ttlMs || entry.session.expiresAt <= now) {
      this.drop(tokenHash);
      return undefined;
    }
    return entry.session;
  }

  /** Keeps a session read from the database by a read that started at `readStartedAtMs` (`clockMs`). */
  store(session: UserSession, readStartedAtMs: number): void {
    if (this.ttlMs <= 0) return;
    const forgotten = this.forgottenAtMs.get(session.user.id.toString());
    if (forgotten !== undefined && forgotten >= readStartedAtMs) return;
    // Re-inserted at the end: the map's order is the order of storing, oldest first.
    this.drop(session.tokenHash);
    this.entries.set(session.tokenHash, { session, storedAtMs: this.clockMs() });
    const userId = session.user.id.toString();
    const tokenHashes = this.tokenHashesByUser.get(userId) ?? new Set<string>();
    tokenHashes.add(session.tokenHash);
    this.tokenHashesByUser.set(userId, tokenHashes);
    while (this.entries.size > this.maxEntries) this.drop(this.entries.keys().next().value as string);
  }

  /** Drops every session of the user (its sessions ended, or the user's row changed). */
  forgetUser(userId: bigint | string): void {
    const id = userId.toString();
    const nowMs = this.clockMs();
    this.forgottenAtMs.delete(id);
    this.forgottenAtMs.set(id, nowMs);
    for (const tokenHash of this.tokenHashesByUser.get(id) ?? []) this.drop(tokenHash);
    // Oldest first: stop at the first one still within the minute.
    for (const [user, at] of this.forgottenAtMs) {
      if (nowMs - at <= 60_000) break;
      this.forgottenAtMs.delete(user);
    }
  }

  /** Removes one entry and its place in its user's index. */
  private drop(tokenHash: string): void {
    const entry = this.entries.get(tokenHash);
    if (!entry) return;
    this.entries.delete(tokenHash);
    const userId = entry.session.user.id.toString();
    const tokenHashes = this.tokenHashesByUser.get(userId);
    tokenHashes?.delete(tokenHash);
    if (tokenHashes?.size === 0) this.tokenHashesByUser.delete(userId);
  }

  get size(): number {
    return this.entries.size;
  }
}
