import type { WalletChannelId } from '@keel/contracts';
import { formatAmount, USDT_SCALE, type WalletNetwork, type WithdrawalStatus } from '@keel/domain';
import type { Queryable } from './db.ts';
import { toMinor } from './ledger.store.ts';
import type { StoredTwoPersonReason } from './staff-money-decisions.repository.ts';

export interface WithdrawalRow {
  id: bigint;
  user_id: bigint;
  channel: WalletChannelId;
  asset: 'USDT' | 'BTC' | 'ETH';
  network: WalletNetwork;
  address_id: bigint;
  address: string;
  amount_minor: string;
  fee_minor: string;
  usdt_value_minor: string;
  price_tick_id: bigint | null;
  hold_id: bigint;
  status: WithdrawalStatus;
  approvals_required: 1 | 2;
  /** Why two approvals, when the two-person rule raised them at the first approval (ADR 0022). */
  two_person_reason: StoredTwoPersonReason | null;
  first_approved_by: bigint | null;
  first_approved_at: Date | null;
  decided_by: bigint | null;
  decided_at: Date | null;
  reject_reason: string | null;
  tx_hash: string | null;
  completed_by: bigint | null;
  completed_at: Date | null;
  closing_entry_id: bigint | null;
  created_at: Date;
}

/** A withdrawal with what its view needs from other tables: the address label, the hold's entry and the queue position. */
export interface WithdrawalListRow extends WithdrawalRow {
  address_label: string;
  hold_entry_id: bigint;
  queue_position: bigint | null;
}

const scales = { USDT: 6, BTC: 8, ETH: 18 } as const;

/**
 * The queue position is counted, not stored: the open withdrawals (pending or approved) up to and
 * including this one, oldest first. It moves as earlier ones end, with nothing to keep in step.
 */
export const WITHDRAWAL_SELECT = `SELECT w.*, a.label AS address_label, h.placed_entry_id AS hold_entry_id,
    CASE WHEN w.status IN ('pending', 'approved')
      THEN (SELECT count(*) FROM withdrawals o WHERE o.status IN ('pending', 'approved') AND o.id <= w.id)
    END AS queue_position
  FROM withdrawals w
  JOIN withdrawal_addresses a ON a.id = w.address_id
  JOIN ledger_holds h ON h.id = w.hold_id`;

export function withdrawalView(row: WithdrawalListRow) {
  const scale = scales[row.asset];
  const amountMinor = toMinor(row.amount_minor);
  const feeMinor = toMinor(row.fee_minor);
  // Approved, completed and failed ones had all their approvals; the others have the first, or none.
  const fullyApproved = row.status === 'approved' || row.status === 'completed' || row.status === 'failed';
  const approvals = fullyApproved ? row.approvals_required : row.first_approved_by === null ? 0 : 1;
  return {
    id: row.id.toString(),
    channel: row.channel,
    asset: row.asset,
    network: row.network,
    address: row.address,
    addressLabel: row.address_label,
    amount: formatAmount(amountMinor, scale),
    fee: formatAmount(feeMinor, scale),
    totalFrozen: formatAmount(amountMinor + feeMinor, scale),
    usdtValue: formatAmount(toMinor(row.usdt_value_minor), USDT_SCALE),
    status: row.status,
    queuePosition: row.queue_position === null ? null : Number(row.queue_position),
    approvalsRequired: row.approvals_required,
    approvals,
    txHash: row.tx_hash,
    rejectReason: row.reject_reason,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
    completedAt: row.completed_at?.toISOString() ?? null,
    holdEntryId: row.hold_entry_id.toString(),
    closingEntryId: row.closing_entry_id?.toString() ?? null,
  };
}

export async function findWithdrawalView(db: Queryable, withdrawalId: bigint, userId?: bigint) {
  const [row] = await db.query<WithdrawalListRow>(
    `${WITHDRAWAL_SELECT} WHERE w.id = $1 AND ($2::bigint IS NULL OR w.user_id = $2)`,
    [withdrawalId, userId ?? null],
  );
  return row;
}

export async function lockWithdrawal(tx: Queryable, withdrawalId: bigint): Promise<WithdrawalRow | undefined> {
  const [row] = await tx.query<WithdrawalRow>('SELECT * FROM withdrawals WHERE id = $1 FOR UPDATE', [withdrawalId]);
  return row;
}

export async function listWithdrawalsOfUser(db: Queryable, input: { userId: bigint; scope: 'all' | 'open'; page: number; pageSize: number }) {
  const filter = input.scope === 'open' ? `AND w.status IN ('pending', 'approved')` : '';
  const rows = await db.query<WithdrawalListRow>(`${WITHDRAWAL_SELECT} WHERE w.user_id = $1 ${filter} ORDER BY w.id DESC LIMIT $2 OFFSET $3`, [
    input.userId,
    input.pageSize,
    (input.page - 1) * input.pageSize,
  ]);
  const [count] = await db.query<{ total: bigint }>(`SELECT count(*)::bigint AS total FROM withdrawals w WHERE w.user_id = $1 ${filter}`, [input.userId]);
  return { items: rows.map(withdrawalView), total: Number(count!.total) };
}
