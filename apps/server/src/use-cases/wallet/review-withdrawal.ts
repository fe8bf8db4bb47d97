import { AppError } from '@keel/contracts';
import { normaliseTxHash, type WithdrawalCommand, withdrawalTransition } from '@keel/domain';
import type { Config } from '../../config/env.ts';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { captureHoldSplit, releaseHold } from '../../persistence/ledger-holds.store.ts';
import { ensurePlatformAccount, toMinor } from '../../persistence/ledger.store.ts';
import { lockDecisionMakers, recordMoneyDecision } from '../../persistence/staff-money-decisions.repository.ts';
import {
  findWithdrawalView,
  lockWithdrawal,
  WITHDRAWAL_SELECT,
  type WithdrawalListRow,
  type WithdrawalRow,
  withdrawalView,
} from '../../persistence/withdrawals.repository.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { secondPersonNeeded, storedTwoPersonReason, twoPersonLimits } from '../admin/two-person-rule.ts';
import { queuePage, type QueueQuery, type StaffQueueColumns, staffQueueFields } from './finance-queue.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { hotWalletAccount, isUniqueViolation, messageUser } from './wallet-support.ts';

interface StaffWithdrawalRow extends WithdrawalListRow, StaffQueueColumns {
  completer: string | null;
}

const STAFF_SELECT = `SELECT q.*, u.username, u.email, u.phone, u.nickname, f.username AS first_approver, s.username AS decider, c.username AS completer
  FROM (${WITHDRAWAL_SELECT}) q JOIN users u ON u.id = q.user_id
  LEFT JOIN staff f ON f.id = q.first_approved_by LEFT JOIN staff s ON s.id = q.decided_by LEFT JOIN staff c ON c.id = q.completed_by`;

function staffWithdrawalView(row: StaffWithdrawalRow, config: Config) {
  return { ...withdrawalView(row), ...staffQueueFields(row, config), completedBy: row.completer };
}

export async function listStaffWithdrawals(deps: Deps, query: QueueQuery<WithdrawalRow['status']>) {
  const open = query.status === 'pending' || query.status === 'approved';
  const { rows, total } = await queuePage<StaffWithdrawalRow>(deps.db, { select: STAFF_SELECT, table: 'withdrawals', open, query });
  return { items: rows.map((row) => staffWithdrawalView(row, deps.config)), total };
}

type StaffWithdrawalView = ReturnType<typeof staffWithdrawalView>;

/** The staff view after a step, read in the step's transaction; through the API also its answer (ADR 0019). */
const staffAnswer =
  (config: Config, idempotency: IdempotentRequest<StaffWithdrawalView> | undefined) =>
  async (tx: Queryable, withdrawalId: bigint): Promise<StaffWithdrawalView> => {
    const view = await staffWithdrawal(tx, withdrawalId, config);
    await idempotency?.answerInTransaction(tx, view);
    return view;
  };

/** After the step committed: the user hears of a step that sent them a message (any but a first approval). */
async function afterStaffStep(deps: Deps, view: StaffWithdrawalView) {
  if (view.status !== 'pending') await publishToUser(deps, BigInt(view.userId), { kind: 'message', unread: true });
  return view;
}

async function staffWithdrawal(db: Queryable, withdrawalId: bigint, config: Config) {
  const [row] = await db.query<StaffWithdrawalRow>(`${STAFF_SELECT} WHERE q.id = $1`, [withdrawalId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return staffWithdrawalView(row, config);
}

export function getStaffWithdrawal(deps: Deps, withdrawalId: bigint) {
  return staffWithdrawal(deps.db, withdrawalId, deps.config);
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
 * state, the audit entry (staff steps) and the user's message; last, `answer` reads the view the
 * step answers (and commits it as the request's answer, ADR 0019). Locks: the withdrawal row, then
 * the hold and the ledger accounts (in id order, inside the hold functions); an approval first locks
 * the deciding staff member and the user (ADR 0022), then decides under those locks whether the
 * two-person rule asks for a second approver — raising the withdrawal to two approvals if so — and
 * records the money decision when it is approved.
 */
async function applyStep<View>(
  deps: Deps,
  withdrawalId: bigint,
  actor: { staff?: StaffSession; userId?: bigint },
  step: Step,
  requestId: string,
  answer: (tx: Queryable, withdrawalId: bigint) => Promise<View>,
): Promise<View> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const approverId = step.kind === 'approve' ? actor.staff!.staff.id : null;
    if (approverId !== null) {
      // The user of a withdrawal never changes, so it is read before the locks that need it.
      const [owner] = await tx.query<{ user_id: bigint }>('SELECT user_id FROM withdrawals WHERE id = $1', [withdrawalId]);
      if (!owner) throw new AppError('RECORD_NOT_FOUND');
      await lockDecisionMakers(tx, { staffId: approverId, userId: owner.user_id });
    }
    const withdrawal = await lockWithdrawal(tx, withdrawalId);
    // A user acts only on their own withdrawals; someone else's is "not found".
    if (!withdrawal || (actor.userId !== undefined && withdrawal.user_id !== actor.userId)) throw new AppError('RECORD_NOT_FOUND');
    const valueUsdtMinor = toMinor(withdrawal.usdt_value_minor);
    // Decided now, under the locks: a withdrawal one person could approve when requested may need two today.
    const raisedBy =
      approverId !== null && withdrawal.status === 'pending' && withdrawal.approvals_required === 1
        ? await secondPersonNeeded(tx, twoPersonLimits(deps.config, 'wallet'), { staffId: approverId, userId: withdrawal.user_id, valueUsdtMinor, at: now })
        : null;
    const approvalsRequired = raisedBy ? 2 : withdrawal.approvals_required;
    const command: WithdrawalCommand = step.kind === 'approve' ? { kind: 'approve', staffId: approverId! } : { kind: step.kind };
    const outcome = withdrawalTransition({ status: withdrawal.status, approvalsRequired, firstApprovedBy: withdrawal.first_approved_by }, command);
    if (!outcome.ok) throw new AppError(outcome.problem === 'same_approver' ? 'SECOND_APPROVER_REQUIRED' : 'NOT_PENDING_REVIEW');
    if (raisedBy) {
      await tx.query('UPDATE withdrawals SET approvals_required = 2, two_person_reason = $2::jsonb WHERE id = $1', [
        withdrawal.id,
        JSON.stringify(storedTwoPersonReason(raisedBy)),
      ]);
    }
    if (approverId !== null && outcome.status === 'approved') {
      const firstStaffId = approvalsRequired === 2 ? outcome.firstApprovedBy : null;
      await recordMoneyDecision(tx, {
        kind: 'withdrawal.approve',
        recordId: withdrawal.id,
        userId: withdrawal.user_id,
        staffId: approverId,
        firstStaffId,
        valueUsdtMinor,
        at: now,
      });
    }

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
          ...(approverId !== null && outcome.status === 'approved' ? { people: approvalsRequired } : {}),
          ...(raisedBy ? { twoPersonReason: storedTwoPersonReason(raisedBy) } : {}),
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
    return answer(tx, withdrawal.id);
  });
}

export async function decideWithdrawal(
  deps: Deps,
  staff: StaffSession,
  input: { withdrawalId: bigint; decision: 'approve' | 'reject'; reason?: string; requestId: string },
  idempotency?: IdempotentRequest<StaffWithdrawalView>,
) {
  const step: Step = input.decision === 'approve' ? { kind: 'approve' } : { kind: 'reject', reason: input.reason ?? '' };
  return afterStaffStep(deps, await applyStep(deps, input.withdrawalId, { staff }, step, input.requestId, staffAnswer(deps.config, idempotency)));
}

export async function completeWithdrawal(
  deps: Deps,
  staff: StaffSession,
  input: { withdrawalId: bigint; txHash: string; requestId: string },
  idempotency?: IdempotentRequest<StaffWithdrawalView>,
) {
  const step: Step = { kind: 'complete', txHash: input.txHash };
  return afterStaffStep(deps, await applyStep(deps, input.withdrawalId, { staff }, step, input.requestId, staffAnswer(deps.config, idempotency)));
}

export async function failWithdrawal(
  deps: Deps,
  staff: StaffSession,
  input: { withdrawalId: bigint; reason: string; requestId: string },
  idempotency?: IdempotentRequest<StaffWithdrawalView>,
) {
  const step: Step = { kind: 'fail', reason: input.reason };
  return afterStaffStep(deps, await applyStep(deps, input.withdrawalId, { staff }, step, input.requestId, staffAnswer(deps.config, idempotency)));
}

/** The user cancels their own withdrawal while no staff member has approved it; the hold returns at once. */
export async function cancelWithdrawal(
  deps: Deps,
  input: { userId: bigint; withdrawalId: bigint; requestId: string },
  idempotency?: IdempotentRequest<ReturnType<typeof withdrawalView>>,
) {
  return applyStep(deps, input.withdrawalId, { userId: input.userId }, { kind: 'cancel' }, input.requestId, async (tx, withdrawalId) => {
    const view = withdrawalView((await findWithdrawalView(tx, withdrawalId, input.userId))!);
    await idempotency?.answerInTransaction(tx, view);
    return view;
  });
}
