import { afterLoginFailure, type LoginFailureState } from '@keel/domain';
import type { Queryable } from './db.ts';

export async function readLoginFailures(db: Queryable, identifier: string): Promise<LoginFailureState | undefined> {
  const [row] = await db.query<{ failures: number; first_failed_at: Date; last_failed_at: Date; locked_until: Date | null }>(
    'SELECT failures, first_failed_at, last_failed_at, locked_until FROM login_failures WHERE identifier = $1',
    [identifier],
  );
  if (!row || row.failures === 0) return undefined;
  return {
    failures: row.failures,
    firstFailedAtMs: row.first_failed_at.getTime(),
    lastFailedAtMs: row.last_failed_at.getTime(),
    lockedUntilMs: row.locked_until?.getTime() ?? null,
  };
}

/** Counts one more failure; call it in a transaction: the row lock makes concurrent failures all count. */
export async function recordLoginFailure(db: Queryable, identifier: string, now: Date): Promise<LoginFailureState> {
  // A zero row first, so two concurrent first failures lock the same row instead of both inserting.
  await db.query(
    'INSERT INTO login_failures (identifier, failures, first_failed_at, last_failed_at) VALUES ($1, 0, $2, $2) ON CONFLICT DO NOTHING',
    [identifier, now],
  );
  const [row] = await db.query<{ failures: number; first_failed_at: Date; last_failed_at: Date; locked_until: Date | null }>(
    'SELECT failures, first_failed_at, last_failed_at, locked_until FROM login_failures WHERE identifier = $1 FOR UPDATE',
    [identifier],
  );
  const next = afterLoginFailure(
    row && row.failures > 0
      ? {
          failures: row.failures,
          firstFailedAtMs: row.first_failed_at.getTime(),
          lastFailedAtMs: row.last_failed_at.getTime(),
          lockedUntilMs: row.locked_until?.getTime() ?? null,
        }
      : undefined,
    now.getTime(),
  );
  await db.query(
    'UPDATE login_failures SET failures = $2, first_failed_at = $3, last_failed_at = $4, locked_until = $5 WHERE identifier = $1',
    [identifier, next.failures, new Date(next.firstFailedAtMs), new Date(next.lastFailedAtMs), next.lockedUntilMs === null ? null : new Date(next.lockedUntilMs)],
  );
  return next;
}

export async function clearLoginFailures(db: Queryable, identifier: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE identifier = $1', [identifier]);
}
