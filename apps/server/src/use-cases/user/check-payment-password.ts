import { AppError } from '@keel/contracts';
import { loginGate } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { clearLoginFailures, readLoginFailures, recordLoginFailure } from '../../persistence/login-failures.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { verifyPassword } from '../../security/passwords.ts';

/**
 * The payment password of a money-moving step (a withdrawal, an escrow release): "no payment
 * password set, confirm to set" when there is none. Wrong ones are counted like failed logins:
 * after three each try waits longer, at ten it locks, so six digits cannot be guessed.
 */
export async function checkPaymentPassword(deps: Deps, user: UserRow, paymentPassword: string): Promise<void> {
  if (user.payment_password_hash === null) throw new AppError('PAYMENT_PASSWORD_NOT_SET');
  const identifier = `payment-password:${user.id}`;
  const now = deps.now();
  const gate = loginGate(await readLoginFailures(deps.db, identifier), now.getTime());
  if (!gate.allowed) throw new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: Math.ceil(gate.retryAfterMs / 1000) });
  if (await verifyPassword(user.payment_password_hash, paymentPassword)) {
    await clearLoginFailures(deps.db, identifier);
    return;
  }
  await deps.db.transaction((tx) => recordLoginFailure(tx, identifier, now));
  throw new AppError('WRONG_PAYMENT_PASSWORD');
}
