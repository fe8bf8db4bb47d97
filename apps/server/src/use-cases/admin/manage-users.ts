import { AppError, type UserStatus } from '@keel/contracts';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { StaffRow } from '../../persistence/staff.repository.ts';
import type { UserRow } from '../../persistence/users.repository.ts';

export async function listUsers(
  deps: Deps,
  input: { page: number; pageSize: number; q?: string },
): Promise<{ items: UserRow[]; total: number }> {
  const filter = input.q ? `%${input.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const items = await deps.db.query<UserRow>(
    `SELECT * FROM users WHERE ($1::text IS NULL OR username ILIKE $1 OR email ILIKE $1 OR phone ILIKE $1)
     ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [filter, input.pageSize, (input.page - 1) * input.pageSize],
  );
  const [count] = await deps.db.query<{ total: bigint }>(
    'SELECT count(*)::bigint AS total FROM users WHERE ($1::text IS NULL OR username ILIKE $1 OR email ILIKE $1 OR phone ILIKE $1)',
    [filter],
  );
  return { items, total: Number(count!.total) };
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
  return deps.db.transaction(async (tx) => {
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
