import { AppError } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import { announceSessionsEnded } from '../../realtime/publish.ts';
import type { UserSession } from '../auth/resolve-session.ts';
import { hashPassword, verifyPassword } from '../../security/passwords.ts';

/**
 * Changes the login password: the original must be right, the two new ones equal. Every other
 * session ends (this device stays logged in; the others' live connections are told), and the
 * change time starts the published 24 h withdrawal lock.
 */
export async function changeLoginPassword(
  deps: Deps,
  session: UserSession,
  input: { oldPassword: string; password: string; confirmPassword: string },
): Promise<void> {
  if (input.password !== input.confirmPassword) throw new AppError('PASSWORDS_INCONSISTENT');
  if (!(await verifyPassword(session.user.password_hash, input.oldPassword))) throw new AppError('WRONG_ORIGINAL_PASSWORD');
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await tx.query('UPDATE users SET password_hash = $2, login_password_changed_at = $3 WHERE id = $1', [session.user.id, passwordHash, now]);
    await tx.query('UPDATE sessions SET ended_at = $3 WHERE user_id = $1 AND token_hash <> $2 AND ended_at IS NULL', [
      session.user.id,
      session.tokenHash,
      now,
    ]);
  });
  await announceSessionsEnded(deps, session.user.id);
}
