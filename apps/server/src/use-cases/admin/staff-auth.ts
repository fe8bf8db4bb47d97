import { AppError, type StaffRole } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import { createStaffSession, type NewSession } from '../../persistence/sessions.repository.ts';
import { findStaffByUsername, type StaffRow } from '../../persistence/staff.repository.ts';
import { verifyAgainstDummy, verifyPassword } from '../../security/passwords.ts';
import { hashToken } from '../../security/tokens.ts';

export async function loginStaff(
  deps: Deps,
  input: { username: string; password: string; clientIp?: string; requestId?: string },
): Promise<{ staff: StaffRow; session: NewSession }> {
  if (!input.username || !input.password) throw new AppError('ACCOUNT_AND_PASSWORD_EMPTY');
  const staff = await findStaffByUsername(deps.db, input.username);
  const passwordOk = staff ? await verifyPassword(staff.password_hash, input.password) : await verifyAgainstDummy(input.password);
  if (!staff || !passwordOk || !staff.active) throw new AppError('ACCOUNT_OR_PASSWORD_INCORRECT');
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const session = await createStaffSession(tx, {
      staffId: staff.id,
      now,
      ttlHours: deps.config.STAFF_SESSION_TTL_HOURS,
      clientIp: input.clientIp,
    });
    await appendAudit(tx, { staffId: staff.id, action: 'staff.login', clientIp: input.clientIp, requestId: input.requestId, at: now });
    return { staff, session };
  });
}

export interface StaffSession {
  staff: StaffRow;
  tokenHash: string;
}

export async function resolveStaffSession(deps: Deps, token: string): Promise<StaffSession> {
  if (!token) throw new AppError('TOKEN_EMPTY');
  const tokenHash = hashToken(token);
  const [staff] = await deps.db.query<StaffRow>(
    `SELECT st.* FROM staff_sessions s JOIN staff st ON st.id = s.staff_id
     WHERE s.token_hash = $1 AND s.ended_at IS NULL AND s.expires_at > $2 AND st.active`,
    [tokenHash, deps.now()],
  );
  if (!staff) throw new AppError('TOKEN_NOT_FOUND');
  return { staff, tokenHash };
}

export function assertStaffRole(staff: StaffRow, allowed: readonly string[] | undefined): void {
  if (!allowed || allowed.length === 0) return;
  if (!staff.roles.some((role: StaffRole) => allowed.includes(role))) throw new AppError('PERMISSION_DENIED');
}
