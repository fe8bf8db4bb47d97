import { AppError, userDisplayName } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { toPublicUser, type UserRow } from '../../persistence/users.repository.ts';
import { verifyPassword } from '../../security/passwords.ts';
import { matchTotp, newTotpSecret, otpauthUri } from '../../security/totp.ts';

/** Starts (or restarts) setting up an authenticator: a pending secret until a code confirms it. */
export async function startTotpSetup(deps: Deps, user: UserRow): Promise<{ secret: string; otpauthUri: string }> {
  const secret = newTotpSecret();
  await deps.db.query('UPDATE users SET totp_pending_secret = $2 WHERE id = $1', [user.id, secret]);
  return { secret, otpauthUri: otpauthUri(secret, userDisplayName(toPublicUser(user))) };
}

/**
 * Accepts a code for `secret` once: the step it belongs to must be after the last accepted one,
 * recorded under a row lock, so a code seen over someone's shoulder cannot be used again.
 */
export async function acceptTotpCode(tx: Queryable, userId: bigint, secret: string, code: string, nowMs: number): Promise<boolean> {
  const [row] = await tx.query<{ totp_last_step: bigint | null }>('SELECT totp_last_step FROM users WHERE id = $1 FOR UPDATE', [userId]);
  const step = matchTotp(secret, code, nowMs);
  const lastStep = row?.totp_last_step ?? null;
  if (step === undefined || (lastStep !== null && step <= lastStep)) return false;
  await tx.query('UPDATE users SET totp_last_step = $2 WHERE id = $1', [userId, step]);
  return true;
}

export async function enableTotp(deps: Deps, user: UserRow, code: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx.query<{ totp_pending_secret: string | null }>('SELECT totp_pending_secret FROM users WHERE id = $1 FOR UPDATE', [user.id]);
    const pending = row?.totp_pending_secret;
    if (!pending || !(await acceptTotpCode(tx, user.id, pending, code, deps.now().getTime()))) throw new AppError('WRONG_VERIFICATION_CODE');
    await tx.query('UPDATE users SET totp_secret = totp_pending_secret, totp_pending_secret = NULL WHERE id = $1', [user.id]);
  });
}

export async function disableTotp(deps: Deps, user: UserRow, input: { password: string; code: string }): Promise<void> {
  if (!(await verifyPassword(user.password_hash, input.password))) throw new AppError('WRONG_LOGIN_PASSWORD');
  await deps.db.transaction(async (tx) => {
    if (!user.totp_secret || !(await acceptTotpCode(tx, user.id, user.totp_secret, input.code, deps.now().getTime()))) {
      throw new AppError('WRONG_VERIFICATION_CODE');
    }
    await tx.query('UPDATE users SET totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = NULL WHERE id = $1', [user.id]);
  });
}
