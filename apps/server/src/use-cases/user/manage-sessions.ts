import { AppError } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import { announceSessionsEnded } from '../../realtime/publish.ts';
import type { UserSession } from '../auth/resolve-session.ts';

export async function listSessions(deps: Deps, session: UserSession) {
  const rows = await deps.db.query<{
    id: bigint;
    token_hash: string;
    created_at: Date;
    expires_at: Date;
    client_ip: string | null;
    user_agent: string | null;
  }>(
    `SELECT id, token_hash, created_at, expires_at, client_ip, user_agent FROM sessions
     WHERE user_id = $1 AND ended_at IS NULL AND expires_at > $2 ORDER BY created_at DESC, id DESC LIMIT 100`,
    [session.user.id, deps.now()],
  );
  return {
    items: rows.map((row) => ({
      id: row.id.toString(),
      createdAt: row.created_at.toISOString(),
      expiresAt: row.expires_at.toISOString(),
      clientIp: row.client_ip,
      userAgent: row.user_agent,
      current: row.token_hash === session.tokenHash,
    })),
  };
}

/**
 * Ends one of the user's own sessions; another user's session id is "not found", never ended. A
 * device connected with it stops hearing the user's events, on whichever node it is.
 */
export async function endOwnSession(deps: Deps, session: UserSession, sessionId: bigint): Promise<void> {
  const rows = await deps.db.query('UPDATE sessions SET ended_at = $3 WHERE id = $1 AND user_id = $2 AND ended_at IS NULL RETURNING id', [
    sessionId,
    session.user.id,
    deps.now(),
  ]);
  if (rows.length === 0) throw new AppError('RECORD_NOT_FOUND');
  await announceSessionsEnded(deps, session.user.id);
}
