import { AppError } from '@keel/contracts';
import { canUseAccount, normalizeEmail, normalizePhone } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { acceptTotpCode } from '../user/two-step-login.ts';
import { createUserSession, type NewSession } from '../../persistence/sessions.repository.ts';
import { verifyAgainstDummy, verifyPassword } from '../../security/passwords.ts';
import { beginLoginAttempt } from './login-attempts.ts';

export async function loginUser(
  deps: Deps,
  input: { account: string; password: string; totp?: string; clientIp?: string; userAgent?: string },
): Promise<{ user: UserRow; session: NewSession }> {
  if (!input.account.trim() || !input.password) throw new AppError('ACCOUNT_AND_PASSWORD_EMPTY');
  const account = loginAccountOf(input.account);
  const now = deps.now();
  // Counted before the password is checked (429 when the name may not be tried from this address
  // yet), so concurrent guesses cannot all pass the gate; failures count per name as typed, whether
  // or not an account has it (ADR 0018).
  const attempt = await beginLoginAttempt(deps, { identifier: account.identifier, clientIp: input.clientIp });
  const user = await findUserByLoginAccount(deps.db, account);
  const passwordOk = user ? await verifyPassword(user.password_hash, input.password) : await verifyAgainstDummy(input.password);
  // One answer for "no such account" and "wrong password", so logins cannot probe for accounts.
  // The attempt stays counted as a failure.
  if (!user || !passwordOk) throw new AppError('ACCOUNT_OR_PASSWORD_INCORRECT');
  if (user.totp_secret) {
    // The password was right; the second step is asked for only now, so its prompt reveals
    // nothing to someone without the password. Asking for it is no guess (the attempt is taken
    // back out); a wrong code stays counted as a failed login.
    if (!input.totp) {
      await attempt.settle();
      throw new AppError('TWO_STEP_CODE_REQUIRED');
    }
    const secret = user.totp_secret;
    const accepted = await deps.db.transaction((tx) => acceptTotpCode(tx, user.id, secret, input.totp!, now.getTime()));
    if (!accepted) throw new AppError('WRONG_VERIFICATION_CODE');
  }
  await attempt.succeeded();
  if (!canUseAccount(user.status)) throw new AppError('ACCOUNT_BANNED');
  const session = await createUserSession(deps.db, {
    userId: user.id,
    now,
    ttlHours: deps.config.SESSION_TTL_HOURS,
    clientIp: input.clientIp,
    userAgent: input.userAgent,
  });
  return { user, session };
}

type LoginAccount = { kind: 'email' | 'phone' | 'username'; value: string; identifier: string };

/**
 * What the user typed in the account field: an e-mail address (has @), a phone number (starts
 * with + or 00; usernames are letters and digits only, so they never do), or a username.
 */
export function loginAccountOf(typed: string): LoginAccount {
  const text = typed.trim();
  if (text.includes('@')) {
    const value = normalizeEmail(text) ?? text.toLowerCase();
    return { kind: 'email', value, identifier: `email:${value}` };
  }
  if (/^(\+|00)/.test(text)) {
    const value = normalizePhone(text) ?? text;
    return { kind: 'phone', value, identifier: `phone:${value}` };
  }
  return { kind: 'username', value: text, identifier: `username:${text.toLowerCase()}` };
}

async function findUserByLoginAccount(db: Queryable, account: LoginAccount): Promise<UserRow | undefined> {
  const sql = {
    email: 'SELECT * FROM users WHERE email = $1',
    phone: 'SELECT * FROM users WHERE phone = $1',
    username: 'SELECT * FROM users WHERE lower(username) = lower($1)',
  }[account.kind];
  const [row] = await db.query<UserRow>(sql, [account.value]);
  return row;
}
