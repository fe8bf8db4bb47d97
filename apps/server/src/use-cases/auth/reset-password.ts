import { AppError } from '@keel/contracts';
import type { CodeChannel } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { announceSessionsEnded } from '../../realtime/publish.ts';
import { clearLoginFailures } from '../../persistence/login-failures.store.ts';
import { checkCode, consumeCode } from '../../persistence/verification-codes.store.ts';
import { hashPassword } from '../../security/passwords.ts';
import { findUserByContact, normalizeTarget } from './contact-target.ts';

/**
 * Password recovery (`/forget`): a code sent to the account's e-mail or phone sets a new login
 * password. Every session of the account ends (whoever had the old password is logged out), the
 * login-failure count is cleared, and the change time is kept: withdrawals stay locked for 24 h
 * after it, a published rule the user is shown.
 */
export async function resetPassword(
  deps: Deps,
  input: { channel: CodeChannel; target: string; code: string; password: string; confirmPassword: string },
): Promise<void> {
  if (input.password !== input.confirmPassword) throw new AppError('PASSWORDS_INCONSISTENT');
  const target = normalizeTarget(input.channel, input.target);
  const now = deps.now();
  const check = await checkCode(deps.db, { purpose: 'reset_password', target, code: input.code, now });
  if (!check.ok) throw new AppError('WRONG_VERIFICATION_CODE');
  const passwordHash = await hashPassword(input.password);
  const userId = await deps.db.transaction(async (tx) => {
    const user = await findUserByContact(tx, input.channel, target);
    // No account has the address: the code was never sent, so this is a wrong code too.
    if (!user || !(await consumeCode(tx, check.codeId, now))) throw new AppError('WRONG_VERIFICATION_CODE');
    await tx.query('UPDATE users SET password_hash = $2, login_password_changed_at = $3 WHERE id = $1', [user.id, passwordHash, now]);
    await tx.query('UPDATE sessions SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL', [user.id, now]);
    for (const identifier of [`${input.channel === 'email' ? 'email' : 'phone'}:${target}`, user.username ? `username:${user.username.toLowerCase()}` : null]) {
      if (identifier) await clearLoginFailures(tx, identifier);
    }
    return user.id;
  });
  // Whoever was connected with an old session stops hearing the account's events.
  await announceSessionsEnded(deps, userId);
}
