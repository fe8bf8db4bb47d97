import { AppError } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import { endStaffSessions, type StaffRow } from '../../persistence/staff.repository.ts';
import { hashPassword, verifyPassword } from '../../security/passwords.ts';
import { matchTotp, newTotpSecret, otpauthUri } from '../../security/totp.ts';
import type { StaffSession } from './staff-auth.ts';

// The first-login steps of a staff member (ADR 0020): set their own password in place of the
// one-time password an admin issued, then enrol an authenticator. Until both are done every other
// staff call is refused (assertStaffSetUp). The TOTP arithmetic is security/totp.ts, shared with
// users' two-step login.

type AuditContext = { clientIp?: string; requestId?: string };

/** Is this one-time password past its published lifetime? */
export function oneTimePasswordExpired(staff: StaffRow, now: Date): boolean {
  return staff.password_one_time && staff.password_expires_at !== null && staff.password_expires_at.getTime() <= now.getTime();
}

/**
 * Accepts a code for `secret` once, as users' two-step login does: its step must come after the
 * last accepted one, recorded under the member's row lock, so a code read over a shoulder cannot be
 * used again.
 */
export async function acceptStaffTotpCode(tx: Queryable, staffId: bigint, secret: string, code: string, nowMs: number): Promise<boolean> {
  const [row] = await tx.query<{ totp_last_step: bigint | null }>('SELECT totp_last_step FROM staff WHERE id = $1 FOR UPDATE', [staffId]);
  const step = matchTotp(secret, code.trim(), nowMs);
  const lastStep = row?.totp_last_step ?? null;
  if (step === undefined || (lastStep !== null && step <= lastStep)) return false;
  await tx.query('UPDATE staff SET totp_last_step = $2 WHERE id = $1', [staffId, step]);
  return true;
}

/**
 * Sets the member's own password, proven by the current one (the one-time password on first
 * login). Their other sessions end: whoever else held the old password is logged out.
 */
export async function setOwnStaffPassword(
  deps: Deps,
  session: StaffSession,
  input: { currentPassword: string; newPassword: string } & AuditContext,
): Promise<void> {
  const now = deps.now();
  const [current] = await deps.db.query<StaffRow>('SELECT * FROM staff WHERE id = $1', [session.staff.id]);
  if (!current || !(await verifyPassword(current.password_hash, input.currentPassword))) throw new AppError('WRONG_ORIGINAL_PASSWORD');
  if (oneTimePasswordExpired(current, now)) throw new AppError('ONE_TIME_PASSWORD_EXPIRED');
  if (input.newPassword === input.currentPassword) throw new AppError('NEW_PASSWORD_SAME_AS_OLD');
  const passwordHash = await hashPassword(input.newPassword);
  await deps.db.transaction(async (tx) => {
    // Only if the password is still the one just checked: two concurrent changes cannot both pass.
    const changed = await tx.query(
      `UPDATE staff SET password_hash = $2, password_one_time = false, password_expires_at = NULL, updated_at = $4
       WHERE id = $1 AND password_hash = $3 RETURNING id`,
      [current.id, passwordHash, current.password_hash, now],
    );
    if (changed.length === 0) throw new AppError('WRONG_ORIGINAL_PASSWORD');
    const ended = await endStaffSessions(tx, current.id, now, session.tokenHash);
    await appendAudit(tx, {
      staffId: current.id,
      action: 'staff.password.set',
      targetType: 'staff',
      targetId: current.id.toString(),
      detail: { wasOneTime: current.password_one_time, otherSessionsEnded: ended },
      clientIp: input.clientIp,
      requestId: input.requestId,
      at: now,
    });
  });
}

/** Starts (or restarts) enrolling an authenticator: a pending secret until a code confirms it. */
export async function startStaffTotp(deps: Deps, session: StaffSession): Promise<{ secret: string; otpauthUri: string }> {
  const staff = session.staff;
  if (staff.password_one_time) throw new AppError('STAFF_PASSWORD_CHANGE_REQUIRED');
  const secret = newTotpSecret();
  const rows = await deps.db.query('UPDATE staff SET totp_pending_secret = $2 WHERE id = $1 AND totp_secret IS NULL RETURNING id', [staff.id, secret]);
  if (rows.length === 0) throw new AppError('STAFF_TOTP_ALREADY_ENROLLED');
  return { secret, otpauthUri: otpauthUri(secret, staff.username, 'Keel staff') };
}

/** Confirms the pending authenticator with a current code; from then on login asks for a code. */
export async function enableStaffTotp(deps: Deps, session: StaffSession, input: { code: string } & AuditContext): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const [row] = await tx.query<Pick<StaffRow, 'totp_pending_secret' | 'totp_secret' | 'password_one_time'>>(
      'SELECT totp_pending_secret, totp_secret, password_one_time FROM staff WHERE id = $1 FOR UPDATE',
      [session.staff.id],
    );
    if (row?.password_one_time) throw new AppError('STAFF_PASSWORD_CHANGE_REQUIRED');
    if (row?.totp_secret) throw new AppError('STAFF_TOTP_ALREADY_ENROLLED');
    const pending = row?.totp_pending_secret;
    if (!pending || !(await acceptStaffTotpCode(tx, session.staff.id, pending, input.code, now.getTime()))) {
      throw new AppError('WRONG_VERIFICATION_CODE');
    }
    await tx.query('UPDATE staff SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, updated_at = $2 WHERE id = $1', [
      session.staff.id,
      now,
    ]);
    await appendAudit(tx, {
      staffId: session.staff.id,
      action: 'staff.totp.enrolled',
      targetType: 'staff',
      targetId: session.staff.id.toString(),
      clientIp: input.clientIp,
      requestId: input.requestId,
      at: now,
    });
  });
}
