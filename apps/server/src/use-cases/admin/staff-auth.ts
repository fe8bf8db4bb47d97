import { AppError, type StaffRole } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import { createStaffSession, type NewSession } from '../../persistence/sessions.repository.ts';
import { findStaffByUsername, setupStepOf, type StaffRow } from '../../persistence/staff.repository.ts';
import { verifyAgainstDummy, verifyPassword } from '../../security/passwords.ts';
import { hashToken } from '../../security/tokens.ts';
import { beginLoginAttempt } from '../auth/login-attempts.ts';
import { acceptStaffTotpCode, oneTimePasswordExpired } from './staff-first-login.ts';

export async function loginStaff(
  deps: Deps,
  input: { username: string; password: string; totpCode?: string; clientIp?: string; userAgent?: string; requestId?: string },
): Promise<{ staff: StaffRow; session: NewSession }> {
  if (!input.username || !input.password) throw new AppError('ACCOUNT_AND_PASSWORD_EMPTY');
  // The same lock as users' (ADR 0018): counted per name as typed and per source address before
  // the password is checked; every refusal below stays counted unless the attempt is settled.
  const attempt = await beginLoginAttempt(deps, { identifier: `staff:${input.username.toLowerCase()}`, clientIp: input.clientIp });
  const staff = await findStaffByUsername(deps.db, input.username);
  const passwordOk = staff ? await verifyPassword(staff.password_hash, input.password) : await verifyAgainstDummy(input.password);
  if (!staff || !passwordOk || !staff.active) throw new AppError('ACCOUNT_OR_PASSWORD_INCORRECT');
  const now = deps.now();
  // Staff steps after the password check (ADR 0020); the password was right, so these answers
  // tell nothing to someone without it.
  if (oneTimePasswordExpired(staff, now)) {
    await attempt.settle();
    throw new AppError('ONE_TIME_PASSWORD_EXPIRED');
  }
  if (staff.totp_secret) {
    if (!input.totpCode) {
      // Asking for the code is no guess: the attempt is taken back out.
      await attempt.settle();
      throw new AppError('TWO_STEP_CODE_REQUIRED');
    }
    const secret = staff.totp_secret;
    const accepted = await deps.db.transaction((tx) => acceptStaffTotpCode(tx, staff.id, secret, input.totpCode!, now.getTime()));
    if (!accepted) {
      // A wrong authenticator code counts as a failed login (ADR 0020): the attempt, counted
      // before the password was checked, stays counted (ADR 0018).
      throw new AppError('WRONG_VERIFICATION_CODE');
    }
  }
  await attempt.succeeded();
  // A member with a one-time password or without an authenticator gets a session that only
  // reaches the first-login steps (assertStaffSetUp).
  return deps.db.transaction(async (tx) => {
    const session = await createStaffSession(tx, {
      staffId: staff.id,
      now,
      ttlHours: deps.config.STAFF_SESSION_TTL_HOURS,
      clientIp: input.clientIp,
      userAgent: input.userAgent,
    });
    await appendAudit(tx, { staffId: staff.id, action: 'staff.login', clientIp: input.clientIp, requestId: input.requestId, at: now });
    return { staff, session };
  });
}

export interface StaffSession {
  staff: StaffRow;
  tokenHash: string;
}

/** A session's "last seen" is written at most this often, so a busy back-office does not write on every call. */
export const STAFF_LAST_SEEN_RESOLUTION_MS = 60_000;

export async function resolveStaffSession(deps: Deps, token: string): Promise<StaffSession> {
  if (!token) throw new AppError('TOKEN_EMPTY');
  const tokenHash = hashToken(token);
  const now = deps.now();
  const [row] = await deps.db.query<StaffRow & { session_last_seen_at: Date | null }>(
    `SELECT st.*, s.last_seen_at AS session_last_seen_at FROM staff_sessions s JOIN staff st ON st.id = s.staff_id
     WHERE s.token_hash = $1 AND s.ended_at IS NULL AND s.expires_at > $2 AND st.active`,
    [tokenHash, now],
  );
  if (!row) throw new AppError('TOKEN_NOT_FOUND');
  const { session_last_seen_at: lastSeenAt, ...staff } = row;
  if (!lastSeenAt || now.getTime() - lastSeenAt.getTime() >= STAFF_LAST_SEEN_RESOLUTION_MS) {
    await deps.db.query('UPDATE staff_sessions SET last_seen_at = $2 WHERE token_hash = $1', [tokenHash, now]);
  }
  return { staff, tokenHash };
}

/**
 * Refuses every staff call but the first-login steps (contracts marked `staffSetupStep`) until the
 * member has set their own password and enrolled an authenticator, naming the step that is
 * missing (ADR 0020).
 */
export function assertStaffSetUp(staff: StaffRow, contract: { staffSetupStep?: boolean }): void {
  if (contract.staffSetupStep) return;
  const step = setupStepOf(staff);
  if (step === 'set_password') throw new AppError('STAFF_PASSWORD_CHANGE_REQUIRED');
  if (step === 'enrol_totp') throw new AppError('STAFF_TOTP_ENROLMENT_REQUIRED');
}

export function assertStaffRole(staff: StaffRow, allowed: readonly string[] | undefined): void {
  if (!allowed || allowed.length === 0) return;
  if (!staff.roles.some((role: StaffRole) => allowed.includes(role))) throw new AppError('PERMISSION_DENIED');
}
