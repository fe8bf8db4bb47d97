import type { FailureCount } from '@keel/domain';
import type { Db, Queryable } from './db.ts';

// Failed-attempt counters (ADR 0018): logins per name and per (name, source address), the payment
// password per user. They live in the database, so every server process counts the same attempts.

/** One counter: what is guessed at (`email:…`, `staff:…`, `payment-password:<user id>`) and from where ('' = every address). */
export interface CounterKey {
  identifier: string;
  source: string;
}

interface CounterRow {
  failures: number;
  first_failed_at: Date;
  last_failed_at: Date;
  locked_until: Date | null;
}

function toCount(row: CounterRow | undefined): FailureCount | undefined {
  if (!row || row.failures === 0) return undefined;
  return {
    failures: row.failures,
    firstFailedAtMs: row.first_failed_at.getTime(),
    lastFailedAtMs: row.last_failed_at.getTime(),
    lockedUntilMs: row.locked_until?.getTime() ?? null,
  };
}

/**
 * Locks the counter's row and reads it. An upsert, so the row exists (at zero) afterwards and two
 * first attempts lock the same row instead of both inserting. The lock holds until the
 * transaction ends.
 */
async function lockCounter(tx: Queryable, key: CounterKey, now: Date): Promise<FailureCount | undefined> {
  const [row] = await tx.query<CounterRow>(
    `INSERT INTO login_failures (identifier, source, failures, first_failed_at, last_failed_at) VALUES ($1, $2, 0, $3, $3)
     ON CONFLICT (identifier, source) DO UPDATE SET failures = login_failures.failures
     RETURNING failures, first_failed_at, last_failed_at, locked_until`,
    [key.identifier, key.source, now],
  );
  return toCount(row);
}

async function writeCounter(tx: Queryable, key: CounterKey, count: FailureCount): Promise<void> {
  await tx.query(
    `UPDATE login_failures SET failures = $3, first_failed_at = $4, last_failed_at = $5, locked_until = $6
     WHERE identifier = $1 AND source = $2`,
    [
      key.identifier,
      key.source,
      count.failures,
      new Date(count.firstFailedAtMs),
      new Date(count.lastFailedAtMs),
      count.lockedUntilMs === null ? null : new Date(count.lockedUntilMs),
    ],
  );
}

/**
 * The one way a counter changes: its rows are locked (in the order of `keys`; every caller names
 * the name-wide row before the per-address one, so two attempts never wait on each other's rows
 * crosswise), `decide` (a pure rule of the domain) looks at the counts, and the counts it answers
 * are written — one transaction. An attempt is thus counted in the same step that lets it be
 * checked: concurrent attempts queue on the row, and each sees the ones before it.
 */
export async function updateCounters<Decision>(
  db: Db,
  keys: readonly CounterKey[],
  now: Date,
  /** `next[i]`: the new count of `keys[i]`; null forgets it, undefined leaves it as it is. */
  decide: (counts: (FailureCount | undefined)[]) => { decision: Decision; next?: readonly (FailureCount | null | undefined)[] },
): Promise<Decision> {
  return db.transaction(async (tx) => {
    const counts: (FailureCount | undefined)[] = [];
    for (const key of keys) counts.push(await lockCounter(tx, key, now));
    const { decision, next = [] } = decide(counts);
    for (const [index, key] of keys.entries()) {
      const count = next[index];
      if (count === null) await clearCounter(tx, key);
      else if (count !== undefined) await writeCounter(tx, key, count);
    }
    return decision;
  });
}

/** A counter as it stands (no lock): for showing it, never for deciding. */
export async function readCounter(db: Queryable, key: CounterKey): Promise<FailureCount | undefined> {
  const [row] = await db.query<CounterRow>(
    'SELECT failures, first_failed_at, last_failed_at, locked_until FROM login_failures WHERE identifier = $1 AND source = $2',
    [key.identifier, key.source],
  );
  return toCount(row);
}

/** Forgets one counter (a success). */
export async function clearCounter(db: Queryable, key: CounterKey): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE identifier = $1 AND source = $2', [key.identifier, key.source]);
}

/** Forgets every counter of a name, from every address (a password reset by code proved the owner). */
export async function clearLoginFailures(db: Queryable, identifier: string): Promise<void> {
  // The name-wide row first, as updateCounters locks them, so this never waits crosswise on a login.
  await db.query(`DELETE FROM login_failures WHERE identifier = $1 AND source = ''`, [identifier]);
  await db.query('DELETE FROM login_failures WHERE identifier = $1', [identifier]);
}
