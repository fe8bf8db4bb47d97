import { AppError } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { hashPassword, verifyPassword } from '../../security/passwords.ts';
import { checkPaymentPassword } from './check-payment-password.ts';

/**
 * Sets the payment password the first time (proved by the login password) or changes it (proved
 * by the current payment password). It is hashed like the login password and never equal to it
 * in storage terms: a separate secret for moving money.
 */
export async function setPaymentPassword(
  deps: Deps,
  user: UserRow,
  input: { loginPassword?: string; oldPaymentPassword?: string; paymentPassword: string; confirmPaymentPassword: string },
): Promise<void> {
  if (input.paymentPassword !== input.confirmPaymentPassword) throw new AppError('PASSWORDS_INCONSISTENT');
  if (user.payment_password_hash === null) {
    if (!(await verifyPassword(user.password_hash, input.loginPassword ?? ''))) throw new AppError('WRONG_LOGIN_PASSWORD');
  } else {
    // The same counted check as every payment: changing it must not be a way round the lock.
    await checkPaymentPassword(deps, user, input.oldPaymentPassword ?? '');
  }
  const paymentPasswordHash = await hashPassword(input.paymentPassword);
  await deps.db.query('UPDATE users SET payment_password_hash = $2 WHERE id = $1', [user.id, paymentPasswordHash]);
}
