import { AppError } from '@keel/contracts';
import { canUseAccount } from '@keel/domain';
import type { Deps } from '../../deps.ts';
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
}

/** The user behind a token, or the catalogue error spec section 4 names for each failure. */
export async function resolveUserSession(deps: Deps, token: string): Promise<UserSession> {
  if (!token) throw new AppError('TOKEN_EMPTY');
  const tokenHash = hashToken(token);
  const [user] = await deps.db.query<UserRow>(
    `SELECT u.* FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.ended_at IS NULL AND s.expires_at > $2`,
    [tokenHash, deps.now()],
  );
  if (!user) throw new AppError('TOKEN_NOT_FOUND');
  if (!canUseAccount(user.status)) throw new AppError('USER_STATUS_INCORRECT');
  return { user, tokenHash };
}

export async function endSession(deps: Deps, table: 'sessions' | 'staff_sessions', tokenHash: string): Promise<void> {
  await deps.db.query(`UPDATE ${table} SET ended_at = $2 WHERE token_hash = $1 AND ended_at IS NULL`, [tokenHash, deps.now()]);
}
