import { randomUUID } from 'node:crypto';
import { AppError } from '@keel/contracts';
import type { Queryable } from './db.ts';

/** Stored answers are kept this long (the promise is "at least 24 h"). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A claim still in flight after this long belongs to a request that died; a retry may take it over. */
export const IN_FLIGHT_TIMEOUT_MS = 60_000;

/** `claimToken` names this run's claim: only it may store or free the row (ADR 0019). */
export type IdempotencyClaim = { kind: 'claimed'; claimToken: string } | { kind: 'replay'; status: number; body: unknown };

/** Which claim of which key: the run's identity for every write to its row. */
export interface ClaimedKey {
  scope: string;
  key: string;
  claimToken: string;
}

/**
 * What a use case behind an idempotent route receives (ADR 0019): the request's key, and the way
 * to commit its answer together with its effect, so that a process dying after the commit cannot
 * lose the answer (a retry then replays it instead of running again).
 */
export interface IdempotentRequest<Answer> {
  readonly scope: string;
  readonly key: string;
  /**
   * Stores `answer` (the contract's `data`, checked against it) as this request's answer inside
   * `tx`. Call it as the transaction's last statement, with the view read through `tx`. Throws
   * IdempotentAnswerTaken when another run of the same key committed first: the transaction, and
   * with it this run's effect, must then roll back (let the error through).
   */
  answerInTransaction: (tx: Queryable, answer: Answer) => Promise<void>;
}

/** Another run of the same key (one that took over, or was taken over) committed its answer first. */
export class IdempotentAnswerTaken extends Error {
  constructor(scope: string, key: string) {
    super(`idempotency key ${key} of ${scope} was answered by another run`);
    this.name = 'IdempotentAnswerTaken';
  }
}

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
  const claimToken = randomUUID();
  // Autocommitted on its own, so a concurrent duplicate sees the claim at once. A takeover gives
  // the row a new token: from then on the run it was taken from can neither answer nor free it.
  const claimed = await db.query(
    `INSERT INTO idempotency_requests (scope, idem_key, request_hash, status, created_at, expires_at, claim_token)
     VALUES ($1, $2, $3, 'in_flight', $4, $5, $7)
     ON CONFLICT (scope, idem_key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, status = 'in_flight', response_status = NULL, response_body = NULL,
           created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, claim_token = EXCLUDED.claim_token
       WHERE idempotency_requests.expires_at < $4
          OR (idempotency_requests.status = 'in_flight' AND idempotency_requests.created_at < $6)
     RETURNING 1`,
    [input.scope, input.key, input.requestHash, input.now, new Date(nowMs + IDEMPOTENCY_TTL_MS), new Date(nowMs - IN_FLIGHT_TIMEOUT_MS), claimToken],
  );
  if (claimed.length > 0) return { kind: 'claimed', claimToken };
  const [existing] = await db.query<{ request_hash: string; status: string; response_status: number | null; response_body: unknown }>(
    'SELECT request_hash, status, response_status, response_body FROM idempotency_requests WHERE scope = $1 AND idem_key = $2',
    [input.scope, input.key],
  );
  if (!existing) return claimIdempotencyKey(db, input);
  if (existing.request_hash !== input.requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  if (existing.status === 'in_flight') throw new AppError('REQUEST_IN_PROGRESS');
  return { kind: 'replay', status: existing.response_status!, body: existing.response_body };
}

/**
 * Stores the answer of the run holding the claim: on `db` after the handler, or on the use case's
 * transaction (answerInTransaction), so it commits with the effect. Only a row still in flight
 * under this run's claim is written, so a late answer can never overwrite a committed one.
 * Answers whether it was written.
 */
export async function storeIdempotentAnswer(db: Queryable, input: ClaimedKey & { status: number; body: unknown }): Promise<boolean> {
  const stored = await db.query(
    `UPDATE idempotency_requests SET status = 'done', response_status = $4, response_body = $5
     WHERE scope = $1 AND idem_key = $2 AND claim_token = $3 AND status = 'in_flight' RETURNING 1`,
    [input.scope, input.key, input.claimToken, input.status, JSON.stringify(input.body)],
  );
  return stored.length > 0;
}

/** The stored answer of a key, if one was committed (for a run that lost its claim to another). */
export async function findIdempotentAnswer(db: Queryable, input: { scope: string; key: string }): Promise<{ status: number; body: unknown } | null> {
  const [row] = await db.query<{ response_status: number; response_body: unknown }>(
    `SELECT response_status, response_body FROM idempotency_requests WHERE scope = $1 AND idem_key = $2 AND status = 'done'`,
    [input.scope, input.key],
  );
  return row ? { status: row.response_status, body: row.response_body } : null;
}

/** Frees this run's claim after an unexpected failure, so the client's retry can run; a claim taken over, or answered, stays. */
export async function releaseIdempotencyKey(db: Queryable, input: ClaimedKey) {
  await db.query(`DELETE FROM idempotency_requests WHERE scope = $1 AND idem_key = $2 AND claim_token = $3 AND status = 'in_flight'`, [
    input.scope,
    input.key,
    input.claimToken,
  ]);
}
