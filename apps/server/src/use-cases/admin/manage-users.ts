import { AppError, type PublicUser, readsFullContacts, type UserStatus } from '@keel/contracts';
import { canUseAccount, maskEmail, maskPhone, normalizeEmail, normalizePhone } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { StaffRow } from '../../persistence/staff.repository.ts';
import { toPublicUser, type UserRow } from '../../persistence/users.repository.ts';
import { announceSessionsEnded, forgetCachedSessions } from '../../realtime/publish.ts';

/**
 * A user as staff with `roles` may read them (ADR 0023): admin and compliance read e-mail and phone
 * in full, every other role masked — enough to tell users apart and to confirm a contact a user
 * gave them, not to reach the user outside Keel.
 */
export function userForStaff(row: UserRow, roles: readonly string[]): PublicUser {
  const user = toPublicUser(row);
  if (readsFullContacts(roles)) return user;
  return { ...user, email: user.email === null ? null : maskEmail(user.email), phone: user.phone === null ? null : maskPhone(user.phone) };
}

/**
 * Users, newest first. `q` matches a fragment of the username, or a whole e-mail address or phone
 * number as typed (normalised as at login); a fragment of a contact matches only for roles that
 * read contacts in full, else searching letter by letter would spell out what the list masks.
 */
export async function listUsers(
  deps: Deps,
  input: { page: number; pageSize: number; q?: string; roles: readonly string[] },
): Promise<{ items: PublicUser[]; total: number; contactsMasked: boolean }> {
  const full = readsFullContacts(input.roles);
  const fragment = input.q ? `%${input.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = `WHERE ($1::text IS NULL OR username ILIKE $1 OR email = $2 OR phone = $3${full ? ' OR email ILIKE $1 OR phone ILIKE $1' : ''})`;
  const params = [fragment, input.q ? (normalizeEmail(input.q) ?? null) : null, input.q ? (normalizePhone(input.q) ?? null) : null];
  const rows = await deps.db.query<UserRow>(`SELECT * FROM users ${where} ORDER BY id DESC LIMIT $4 OFFSET $5`, [
    ...params,
    input.pageSize,
    (input.page - 1) * input.pageSize,
  ]);
  const [count] = await deps.db.query<{ total: bigint }>(`SELECT count(*)::bigint AS total FROM users ${where}`, params);
  return { items: rows.map((row) => userForStaff(row, input.roles)), total: Number(count!.total), contactsMasked: !full };
}

/**
 * Changes a user's status. The user's open sessions stay, but every call of a suspended or banned
 * user answers "user status incorrect", which logs the client out.
 */
export async function setUserStatus(
  deps: Deps,
  input: { staff: StaffRow; userId: bigint; status: UserStatus; reason: string; clientIp?: string; requestId?: string },
): Promise<UserRow> {
  const now = deps.now();
  const user = await deps.db.transaction(async (tx) => {
    const [before] = await tx.query<UserRow>('SELECT * FROM users WHERE id = $1 FOR UPDATE', [input.userId]);
    if (!before) throw new AppError('RECORD_NOT_FOUND');
    const [after] = await tx.query<UserRow>('UPDATE users SET status = $2 WHERE id = $1 RETURNING *', [input.userId, input.status]);
    await appendAudit(tx, {
      staffId: input.staff.id,
      action: 'user.status.set',
      targetType: 'user',
      targetId: input.userId.toString(),
      detail: { from: before.status, to: input.status, reason: input.reason },
      clientIp: input.clientIp,
      requestId: input.requestId,
      at: now,
    });
    return after!;
  });
  // Sessions stay, but a suspended or banned user may not use them: their live connections stop
  // now. Whatever the new status, every node forgets the user's cached sessions (ADR 0030).
  if (!canUseAccount(user.status)) await announceSessionsEnded(deps, user.id);
  else await forgetCachedSessions(deps, user.id);
  return user;
}

export interface AuditRow {
  id: bigint;
  staff_id: bigint | null;
  staff_username: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
}

export async function listAudit(deps: Deps, input: { page: number; pageSize: number }) {
  const items = await deps.db.query<AuditRow>(
    `SELECT a.*, s.username AS staff_username FROM audit_log a LEFT JOIN staff s ON s.id = a.staff_id
     ORDER BY a.id DESC LIMIT $1 OFFSET $2`,
    [input.pageSize, (input.page - 1) * input.pageSize],
  );
  const [count] = await deps.db.query<{ total: bigint }>('SELECT count(*)::bigint AS total FROM audit_log');
  return {
    items: items.map((row) => ({
      id: row.id.toString(),
      staffId: row.staff_id?.toString() ?? null,
      staffUsername: row.staff_username,
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      detail: row.detail,
      createdAt: row.created_at.toISOString(),
    })),
    total: Number(count!.total),
  };
}
