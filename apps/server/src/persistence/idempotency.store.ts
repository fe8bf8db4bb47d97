import { AppError } from '@keel/contracts';
import type { Queryable } from './db.ts';

/** Stored answers are kept this long (the promise is "at least 24 h"). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A claim still in flight after this long belongs to a request that died; a retry may take it over. */
export const IN_FLIGHT_TIMEOUT_MS = 60_000;

export type IdempotencyClaim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: unknown };

/**
 * Claims (scope, key) for a request, or answers what happened to the first request with that key:
 * its stored answer (replay), "request in progress" (409) while it runs, or "idempotency key
 * reused with different input" (422) when the request differs.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  input: { scope: string; key: string; requestHash: string; now: Date },
): Promise<IdempotencyClaim> {
  const nowMs = input.now.getTime();
  // Autocommitted on its own, so a concurrent duplicate sees the claim at once.
  const claimed = await db.query(
    `INSERT INTO idempotency_requests (scope, idem_key, request_hash, status, created_at, expires_at)
     VALUES ($1, $2, $3, 'in_flight', $4, $5)
     ON CONFLICT (scope, idem_key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, status = 'in_flight', response_status = NULL, response_body = NULL,
           created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
       WHERE idempotency_requests.expires_at < $4
          OR (idempotency_requests.status = 'in_flight' AND idempotency_requests.created_at < $6)
     RETURNING 1`,
    [input.scope, input.key, input.requestHash, input.now, new Date(nowMs + IDEMPOTENCY_TTL_MS), new Date(nowMs - IN_FLIGHT_TIMEOUT_MS)],
  );
  if (claimed.length > 0) return { kind: 'claimed' };
  const [existing] = await db.query<{ request_hash: string; status: string; response_status: number | null; response_body: unknown }>(
    'SELECT request_hash, status, response_status, response_body FROM idempotency_requests WHERE scope = $1 AND idem_key = $2',
    [input.scope, input.key],
  );
  if (!existing) return claimIdempotencyKey(db, input);
  if (existing.request_hash !== input.requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  if (existing.status === 'in_flight') throw new AppError('REQUEST_IN_PROGRESS');
  return { kind: 'replay', status: existing.response_status!, body: existing.response_body };
}

export async function storeIdempotentAnswer(db: Queryable, input: { scope: string; key: string; status: number; body: unknown }) {
  await db.query(
    `UPDATE idempotency_requests SET status = 'done', response_status = $3, response_body = $4 WHERE scope = $1 AND idem_key = $2`,
    [input.scope, input.key, input.status, JSON.stringify(input.body)],
  );
}

/** Frees a claim whose request failed unexpectedly, so the client's retry can run. */
export async function releaseIdempotencyKey(db: Queryable, input: { scope: string; key: string }) {
  await db.query(`DELETE FROM idempotency_requests WHERE scope = $1 AND idem_key = $2 AND status = 'in_flight'`, [input.scope, input.key]);
}
