import type { WalletChannelId } from '@keel/contracts';
import { formatAmount, type WalletNetwork } from '@keel/domain';
import type { Queryable } from './db.ts';
import { toMinor } from './ledger.store.ts';
import type { StoredTwoPersonReason } from './staff-money-decisions.repository.ts';

export interface DepositRow {
  id: bigint;
  user_id: bigint;
  channel: WalletChannelId;
  asset: 'USDT' | 'BTC' | 'ETH';
  network: WalletNetwork;
  address: string;
  amount_minor: string;
  usdt_value_minor: string;
  tx_hash: string;
  proof_upload_id: bigint | null;
  status: 'pending' | 'approved' | 'rejected';
  review: 'staff' | 'chain';
  approvals_required: 1 | 2;
  /** Why two approvals, when the two-person rule raised them at the first approval (ADR 0022). */
  two_person_reason: StoredTwoPersonReason | null;
  first_approved_by: bigint | null;
  first_approved_at: Date | null;
  decided_by: bigint | null;
  decided_at: Date | null;
  reject_reason: string | null;
  confirmations_seen: number | null;
  confirmations_required: number | null;
  chain_checked_at: Date | null;
  entry_id: bigint | null;
  created_at: Date;
}

const scales = { USDT: 6, BTC: 8, ETH: 18 } as const;

/** What the user sees of a deposit request. */
export function depositView(row: DepositRow) {
  return {
    id: row.id.toString(),
    channel: row.channel,
    asset: row.asset,
    network: row.network,
    address: row.address,
    amount: formatAmount(toMinor(row.amount_minor), scales[row.asset]),
    txHash: row.tx_hash,
    proofUploadId: row.proof_upload_id?.toString() ?? null,
    status: row.status,
    review: row.review,
    confirmations: row.review === 'chain' ? { seen: row.confirmations_seen ?? 0, required: row.confirmations_required ?? 0 } : null,
    rejectReason: row.reject_reason,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
    entryId: row.entry_id?.toString() ?? null,
  };
}

export async function findDepositOfUser(db: Queryable, depositId: bigint, userId: bigint): Promise<DepositRow | undefined> {
  const [row] = await db.query<DepositRow>('SELECT * FROM deposits WHERE id = $1 AND user_id = $2', [depositId, userId]);
  return row;
}

export async function lockDeposit(tx: Queryable, depositId: bigint): Promise<DepositRow | undefined> {
  const [row] = await tx.query<DepositRow>('SELECT * FROM deposits WHERE id = $1 FOR UPDATE', [depositId]);
  return row;
}

export async function listDepositsOfUser(db: Queryable, input: { userId: bigint; status?: DepositRow['status']; page: number; pageSize: number }) {
  const filter = input.status ? 'AND status = $2' : 'AND $2::text IS NULL';
  const params = [input.userId, input.status ?? null];
  const rows = await db.query<DepositRow>(`SELECT * FROM deposits WHERE user_id = $1 ${filter} ORDER BY id DESC LIMIT $3 OFFSET $4`, [
    ...params,
    input.pageSize,
    (input.page - 1) * input.pageSize,
  ]);
  const [count] = await db.query<{ total: bigint }>(`SELECT count(*)::bigint AS total FROM deposits WHERE user_id = $1 ${filter}`, params);
  return { items: rows.map(depositView), total: Number(count!.total) };
}
