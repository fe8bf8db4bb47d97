import { userDisplayName, type WalletChannelId } from '@keel/contracts';
import type { Queryable } from '../../persistence/db.ts';

/**
 * What the two finance queues (deposits, withdrawals) share: the filters, the paging, and the
 * staff-side fields of a row (who the user is, the approvals, who decided).
 */

export interface QueueQuery<Status extends string> {
  status: Status;
  channel?: WalletChannelId;
  /** A user id, or a fragment of the username, e-mail or phone. */
  user?: string;
  page: number;
  pageSize: number;
}

/** Columns the queue SELECTs join in from users and staff. */
export interface StaffQueueColumns {
  user_id: bigint;
  username: string | null;
  email: string | null;
  phone: string | null;
  nickname: string | null;
  approvals_required: 1 | 2;
  first_approved_at: Date | null;
  first_approver: string | null;
  decider: string | null;
}

export function staffQueueFields(row: StaffQueueColumns) {
  return {
    userId: row.user_id.toString(),
    userName: userDisplayName({ id: row.user_id.toString(), nickname: row.nickname, username: row.username, email: row.email, phone: row.phone }),
    approvalsRequired: row.approvals_required,
    firstApproval: row.first_approver && row.first_approved_at ? { staff: row.first_approver, at: row.first_approved_at.toISOString() } : null,
    decidedBy: row.decider,
  };
}

/**
 * One page of a queue. `select` names the record `q` (joined with users `u`), `table` is its
 * table for the count. Open records come first in, first out; ended ones newest first.
 */
export async function queuePage<Row>(
  db: Queryable,
  input: { select: string; table: 'deposits' | 'withdrawals'; open: boolean; query: QueueQuery<string> },
): Promise<{ rows: Row[]; total: number }> {
  const { query } = input;
  const where = `WHERE q.status = $1 AND ($2::text IS NULL OR q.channel = $2)
    AND ($3::text IS NULL OR q.user_id::text = $3 OR u.username ILIKE '%' || $3 || '%' OR u.email ILIKE '%' || $3 || '%' OR u.phone LIKE '%' || $3 || '%')`;
  const params = [query.status, query.channel ?? null, query.user || null];
  const rows = await db.query<Row>(`${input.select} ${where} ORDER BY q.id ${input.open ? '' : 'DESC'} LIMIT $4 OFFSET $5`, [
    ...params,
    query.pageSize,
    (query.page - 1) * query.pageSize,
  ]);
  const [count] = await db.query<{ total: bigint }>(`SELECT count(*)::bigint AS total FROM ${input.table} q JOIN users u ON u.id = q.user_id ${where}`, params);
  return { rows, total: Number(count!.total) };
}
