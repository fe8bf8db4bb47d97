import type { WalletChannelId } from '@keel/contracts';
import { normalizeEmail, normalizePhone, publicUserName } from '@keel/domain';
import type { Config } from '../../config/env.ts';
import type { Queryable } from '../../persistence/db.ts';
import { recordTwoPersonReason, type StoredTwoPersonReason } from '../admin/two-person-rule.ts';

/**
 * What the two finance queues (deposits, withdrawals) share: the filters, the paging, and the
 * staff-side fields of a row (who the user is, the approvals and why two are needed, who decided).
 */

export interface QueueQuery<Status extends string> {
  status: Status;
  channel?: WalletChannelId;
  /** A user id, a fragment of the username, or a whole e-mail address or phone number. */
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
  usdt_value_minor: string;
  two_person_reason: StoredTwoPersonReason | null;
  first_approved_at: Date | null;
  first_approver: string | null;
  decider: string | null;
}

/** `config` gives the published two-person threshold, which explains a record that needed two approvals from its creation. */
export function staffQueueFields(row: StaffQueueColumns, config: Config) {
  return {
    userId: row.user_id.toString(),
    // A queue names users without their contacts, whoever reads it (ADR 0023).
    userName: publicUserName({ id: row.user_id, nickname: row.nickname, username: row.username, email: row.email, phone: row.phone }),
    approvalsRequired: row.approvals_required,
    firstApproval: row.first_approver && row.first_approved_at ? { staff: row.first_approver, at: row.first_approved_at.toISOString() } : null,
    twoPersonReason: recordTwoPersonReason(row, config),
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
  // Contacts match only in whole: a fragment that matched them would let anyone who reads the
  // queue spell a user's e-mail or phone out letter by letter (ADR 0023).
  const where = `WHERE q.status = $1 AND ($2::text IS NULL OR q.channel = $2)
    AND ($3::text IS NULL OR q.user_id::text = $3 OR u.username ILIKE '%' || $3 || '%' OR u.email = $4 OR u.phone = $5)`;
  const user = query.user || null;
  const params = [query.status, query.channel ?? null, user, user && (normalizeEmail(user) ?? null), user && (normalizePhone(user) ?? null)];
  const rows = await db.query<Row>(`${input.select} ${where} ORDER BY q.id ${input.open ? '' : 'DESC'} LIMIT $6 OFFSET $7`, [
    ...params,
    query.pageSize,
    (query.page - 1) * query.pageSize,
  ]);
  const [count] = await db.query<{ total: bigint }>(`SELECT count(*)::bigint AS total FROM ${input.table} q JOIN users u ON u.id = q.user_id ${where}`, params);
  return { rows, total: Number(count!.total) };
}
