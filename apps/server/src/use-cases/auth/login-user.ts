import { AppError } from '@keel/contracts';
import { canUseAccount } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { findUserByUsername, type UserRow } from '../../persistence/users.repository.ts';
import { createUserSession, type NewSession } from '../../persistence/sessions.repository.ts';
import { verifyAgainstDummy, verifyPassword } from '../../security/passwords.ts';

export async function loginUser(
  deps: Deps,
  input: { account: string; password: string; clientIp?: string; userAgent?: string },
): Promise<{ user: UserRow; session: NewSession }> {
  if (!input.account.trim() || !input.password) throw new AppError('ACCOUNT_AND_PASSWORD_EMPTY');
  const user = await findUserByUsername(deps.db, input.account.trim());
  const passwordOk = user ? await verifyPassword(user.password_hash, input.password) : await verifyAgainstDummy(input.password);
  // One answer for "no such account" and "wrong password", so logins cannot probe for accounts.
  if (!user || !passwordOk) throw new AppError('ACCOUNT_OR_PASSWORD_INCORRECT');
  if (!canUseAccount(user.status)) throw new AppError('ACCOUNT_BANNED');
  const session = await createUserSession(deps.db, {
    userId: user.id,
    now: deps.now(),
    ttlHours: deps.config.SESSION_TTL_HOURS,
    clientIp: input.clientIp,
    userAgent: input.userAgent,
  });
  return { user, session };
}
