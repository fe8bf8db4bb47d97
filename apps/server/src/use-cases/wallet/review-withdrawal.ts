import { AppError } from '@keel/contracts';
import { normaliseTxHash, type WithdrawalCommand, withdrawalTransition } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import { captureHoldSplit, releaseHold } from '../../persistence/ledger-holds.store.ts';
import { ensurePlatformAccount, toMinor } from '../../persistence/ledger.store.ts';
import {
  findWithdrawalView,
  lockWithdrawal,
  WITHDRAWAL_SELECT,
  type WithdrawalListRow,
  type WithdrawalRow,
  withdrawalView,
} from '../../persistence/withdrawals.repository.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { queuePage, type QueueQuery, type StaffQueueColumns, staffQueueFields } from './finance-queue.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { hotWalletAccount, isUniqueViolation, messageUser } from './wallet-support.ts';

interface StaffWithdrawalRow extends WithdrawalListRow, StaffQueueColumns {
  completer: string | null;
}

const STAFF_SELECT = `SELECT q.*, u.username, u.email, u.phone, u.nickname, f.username AS first_approver, s.username AS decider, c.username AS completer
  FROM (${WITHDRAWAL_SELECT}) q JOIN users u ON u.id = q.user_id
  LEFT JOIN staff f ON f.id = q.first_approved_by LEFT JOIN staff s ON s.id = q.decided_by LEFT JOIN staff c ON c.id = q.completed_by`;

function staffWithdrawalView(row: StaffWithdrawalRow) {
  return { ...withdrawalView(row), ...staffQueueFields(row), completedBy: row.completer };
}

export async function listStaffWithdrawals(deps: Deps, query: QueueQuery<WithdrawalRow['status']>) {
  const open = query.status === 'pending' || query.status === 'approved';
  const { rows, total } = await queuePage<StaffWithdrawalRow>(deps.db, { select: STAFF_SELECT, table: 'withdrawals', open, query });
  return { items: rows.map(staffWithdrawalView), total };
}

/** The staff view after a step; the user hears of a step that sent them a message (any but a first approval). */
async function afterStaffStep(deps: Deps, withdrawalId: bigint) {
  const view = await staffWithdrawal(deps.db, withdrawalId);
  if (view.status !== 'pending') await publishToUser(deps, BigInt(view.userId), { kind: 'message', unread: true });
  return view;
}

async function staffWithdrawal(db: Queryable, withdrawalId: bigint) {
  const [row] = await db.query<StaffWithdrawalRow>(`${STAFF_SELECT} WHERE q.id = $1`, [withdrawalId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return staffWithdrawalView(row);
}

export function getStaffWithdrawal(deps: Deps, withdrawalId: bigint) {
  return staffWithdrawal(deps.db, withdrawalId);
}

type Step =
  | { kind: 'approve' }
  | { kind: 'reject'; reason: string }
  | { kind: 'complete'; txHash: string }
  | { kind: 'fail'; reason: string }
  | { kind: 'cancel' };

const messageKeys = {
  rejected: { title: 'notify.withdrawal.rejected.title', body: 'notify.withdrawal.rejected.body' },
  failed: { title: 'notify.withdrawal.failed.title', body: 'notify.withdrawal.failed.body' },
  completed: { title: 'notify.withdrawal.completed.title', body: 'notify.withdrawal.completed.body' },
  approved: { title: 'notify.withdrawal.approved.title', body: 'notify.withdrawal.approved.body' },
} as const;

/**
 * One step of a withdrawal's review, in one transaction: lock the withdrawal, ask the domain what
 * the step does, then its ledger effect — return the hold (reject, fail, cancel) or pay it out
 * (complete: the amount to the channel's hot-wallet account, the fee to the fee account) — the new
 * state, the audit entry (staff steps) and the user's message. Locks: the withdrawal row, then the
 * hold and the ledger accounts (in id order, inside the hold functions).
 */
async function applyStep(deps: Deps, withdrawalId: bigint, actor: { staff?: StaffSession; userId?: bigint }, step: Step, requestId: string) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const withdrawal = await lockWithdrawal(tx, withdrawalId);
    // A user acts only on their own withdrawals; someone else's is "not found".
    if (!withdrawal || (actor.userId !== undefined && withdrawal.user_id !== actor.userId)) throw new AppError('RECORD_NOT_FOUND');
    const command: WithdrawalCommand = step.kind === 'approve' ? { kind: 'approve', staffId: actor.staff!.staff.id } : { kind: step.kind };
    const outcome = withdrawalTransition(
      { status: withdrawal.status, approvalsRequired: withdrawal.approvals_required, firstApprovedBy: withdrawal.first_approved_by },
      command,
    );
    if (!outcome.ok) throw new AppError(outcome.problem === 'same_approver' ? 'SECOND_APPROVER_REQUIRED' : 'NOT_PENDING_REVIEW');

    let closingEntryId: bigint | null = null;
    let txHash: string | null = null;
    if (outcome.effect === 'release') {
      closingEntryId = await releaseHold(tx, { holdId: withdrawal.hold_id, reason: `withdrawal.${outcome.status}`, at: now });
    } else if (outcome.effect === 'capture') {
      txHash = normaliseTxHash(withdrawal.network, step.kind === 'complete' ? step.txHash : '');
      if (txHash === null) {
        throw new AppError('PARAMETER_ERROR', { fields: [{ field: 'body.txHash', message: `not a ${withdrawal.network} transaction hash` }] });
      }
      const channel = { id: withdrawal.channel, asset: withdrawal.asset };
      const feeMinor = toMinor(withdrawal.fee_minor);
      closingEntryId = await captureHoldSplit(tx, {
        holdId: withdrawal.hold_id,
        payouts: [
          { toAccountId: await hotWalletAccount(tx, channel), amountMinor: toMinor(withdrawal.amount_minor) },
          ...(feeMinor > 0n ? [{ toAccountId: await ensurePlatformAccount(tx, 'fees', withdrawal.asset), amountMinor: feeMinor }] : []),
        ],
        reason: 'withdrawal.completed',
        memo: `${withdrawal.channel} withdrawal to ${withdrawal.address}, transaction ${txHash}`,
        at: now,
      });
    }
    const firstApprovalNow = outcome.firstApprovedBy !== withdrawal.first_approved_by;
    const decided = step.kind === 'reject' || (step.kind === 'approve' && outcome.status === 'approved');
    const reason = step.kind === 'reject' || step.kind === 'fail' ? step.reason : null;
    try {
      await tx.query(
        `UPDATE withdrawals SET status = $2, first_approved_by = $3, first_approved_at = COALESCE(first_approved_at, $4),
           decided_by = COALESCE($5, decided_by), decided_at = COALESCE($6, decided_at), reject_reason = COALESCE($7, reject_reason),
           tx_hash = $8, completed_by = $9, completed_at = $10, closing_entry_id = $11 WHERE id = $1`,
        [
          withdrawal.id,
          outcome.status,
          outcome.firstApprovedBy,
          firstApprovalNow ? now : null,
          decided ? actor.staff!.staff.id : null,
          decided ? now : null,
          reason,
          txHash,
          step.kind === 'complete' || step.kind === 'fail' ? actor.staff!.staff.id : null,
          step.kind === 'complete' || step.kind === 'fail' ? now : null,
          closingEntryId,
        ],
      );
    } catch (error) {
      if (isUniqueViolation(error, 'withdrawals_tx_hash_once')) throw new AppError('TX_HASH_ALREADY_USED');
      throw error;
    }
    if (actor.staff) {
      await appendAudit(tx, {
        staffId: actor.staff.staff.id,
        action: `withdrawal.${step.kind === 'approve' ? (outcome.status === 'approved' ? 'approve' : 'first_approval') : step.kind}`,
        targetType: 'withdrawal',
        targetId: withdrawal.id.toString(),
        detail: {
          userId: withdrawal.user_id.toString(),
          channel: withdrawal.channel,
          ...(reason ? { reason } : {}),
          ...(txHash ? { txHash } : {}),
          ...(closingEntryId ? { entryId: closingEntryId.toString() } : {}),
        },
        requestId,
        at: now,
      });
    }
    const told = outcome.status === 'pending' || outcome.status === 'cancelled' ? undefined : messageKeys[outcome.status];
    if (told) {
      const view = withdrawalView((await findWithdrawalView(tx, withdrawal.id))!);
      await messageUser(tx, withdrawal.user_id, told, { amount: view.amount, asset: view.asset, channel: view.channel, reason: reason ?? '', txHash: txHash ?? '' }, now);
    }
    return withdrawal.id;
  });
}

export async function decideWithdrawal(
  deps: Deps,
  staff: StaffSession,
  input: { withdrawalId: bigint; decision: 'approve' | 'reject'; reason?: string; requestId: string },
) {
  const step: Step = input.decision === 'approve' ? { kind: 'approve' } : { kind: 'reject', reason: input.reason ?? '' };
  return afterStaffStep(deps, await applyStep(deps, input.withdrawalId, { staff }, step, input.requestId));
}

export async function completeWithdrawal(deps: Deps, staff: StaffSession, input: { withdrawalId: bigint; txHash: string; requestId: string }) {
  return afterStaffStep(deps, await applyStep(deps, input.withdrawalId, { staff }, { kind: 'complete', txHash: input.txHash }, input.requestId));
}

export async function failWithdrawal(deps: Deps, staff: StaffSession, input: { withdrawalId: bigint; reason: string; requestId: string }) {
  return afterStaffStep(deps, await applyStep(deps, input.withdrawalId, { staff }, { kind: 'fail', reason: input.reason }, input.requestId));
}

/** The user cancels their own withdrawal while no staff member has approved it; the hold returns at once. */
export async function cancelWithdrawal(deps: Deps, input: { userId: bigint; withdrawalId: bigint; requestId: string }) {
  const id = await applyStep(deps, input.withdrawalId, { userId: input.userId }, { kind: 'cancel' }, input.requestId);
  return withdrawalView((await findWithdrawalView(deps.db, id, input.userId))!);
}
