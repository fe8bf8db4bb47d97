import { AppError } from '@keel/contracts';
import { canUseAccount } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { hashToken } from '../../security/tokens.ts';

/** Reads the token from an Authorization header value: "Bearer <token>" or the bare token. */
export function tokenFromHeader(header: string | undefined): string {
  const text = (header ?? '').trim();
  return /^bearer(\s|$)/i.test(text) ? text.slice(6).trim() : text;
}

export interface UserSession {
  user: UserRow;
  tokenHash: string;
  /** When the session stops working by itself (a live connection is ended then). */
  expiresAt: Date;
}

/**
 * The user behind a token, or the catalogue error spec section 4 names for each failure. With
 * `fromCache` (reads only) a session this node checked within the last second is taken from
 * `deps.sessionCache` without asking the database (issue 15; session-cache.ts).
 */
export async function resolveUserSession(deps: Deps, token: string, options: { fromCache?: boolean } = {}): Promise<UserSession> {
  if (!token) throw new AppError('TOKEN_EMPTY');
  const tokenHash = hashToken(token);
  const cache = options.fromCache ? deps.sessionCache : undefined;
  const cached = cache?.get(tokenHash, deps.now());
  if (cached) return cached;
  const readStartedAtMs = cache?.clockMs() ?? 0;
  const [row] = await deps.db.query<UserRow & { session_expires_at: Date }>(
    `SELECT u.*, s.expires_at AS session_expires_at FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.ended_at IS NULL AND s.expires_at > $2`,
    [tokenHash, deps.now()],
  );
  if (!row) throw new AppError('TOKEN_NOT_FOUND');
  const { session_expires_at: expiresAt, ...user } = row;
  if (!canUseAccount(user.status)) throw new AppError('USER_STATUS_INCORRECT');
  const session = { user, tokenHash, expiresAt };
  cache?.store(session, readStartedAtMs);
  return session;
}

/**
 * Of these sessions (by token hash), those that can no longer be used, each with the error
 * `resolveUserSession` would answer for it: ended or expired, "token does not exist"; the user
 * suspended or banned, "user status incorrect". One query for all of a node's sockets.
 */
export async function endedUserSessions(db: Queryable, tokenHashes: readonly string[], now: Date): Promise<Map<string, AppError>> {
  const ended = new Map<string, AppError>();
  if (tokenHashes.length === 0) return ended;
  const live = await db.query<{ token_hash: string; status: UserRow['status'] }>(
    `SELECT s.token_hash, u.status FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = ANY($1::text[]) AND s.ended_at IS NULL AND s.expires_at > $2`,
    [tokenHashes, now],
  );
  const statusOf = new Map(live.map((row) => [row.token_hash, row.status]));
  for (const tokenHash of new Set(tokenHashes)) {
    const status = statusOf.get(tokenHash);
    if (status === undefined) ended.set(tokenHash, new AppError('TOKEN_NOT_FOUND'));
    else if (!canUseAccount(status)) ended.set(tokenHash, new AppError('USER_STATUS_INCORRECT'));
  }
  return ended;
}

export async function endSession(deps: Deps, table: 'sessions' | 'staff_sessions', tokenHash: string): Promise<void> {
  await deps.db.query(`UPDATE ${table} SET ended_at = $2 WHERE token_hash = $1 AND ended_at IS NULL`, [tokenHash, deps.now()]);
}
