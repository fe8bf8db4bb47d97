import { AppError } from '@keel/contracts';
import { depositTransition, formatAmount, transferPostings, USDT_SCALE } from '@keel/domain';
import type { Config } from '../../config/env.ts';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { type DepositRow, depositView, lockDeposit } from '../../persistence/deposits.repository.ts';
import { ensureUserAccount, postEntry, toMinor } from '../../persistence/ledger.store.ts';
import { lockDecisionMakers, recordMoneyDecision } from '../../persistence/staff-money-decisions.repository.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { secondPersonNeeded, storedTwoPersonReason, twoPersonLimits } from '../admin/two-person-rule.ts';
import { readUpload } from '../verification/upload-image.ts';
import { queuePage, type QueueQuery, type StaffQueueColumns, staffQueueFields } from './finance-queue.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { hotWalletAccount, messageUser } from './wallet-support.ts';

interface StaffDepositRow extends DepositRow, StaffQueueColumns {}

const STAFF_SELECT = `SELECT q.*, u.username, u.email, u.phone, u.nickname, f.username AS first_approver, s.username AS decider
  FROM deposits q JOIN users u ON u.id = q.user_id
  LEFT JOIN staff f ON f.id = q.first_approved_by LEFT JOIN staff s ON s.id = q.decided_by`;

function staffDepositView(row: StaffDepositRow, config: Config) {
  return { ...depositView(row), ...staffQueueFields(row, config), usdtValue: formatAmount(toMinor(row.usdt_value_minor), USDT_SCALE) };
}

export async function listStaffDeposits(deps: Deps, query: QueueQuery<DepositRow['status']>) {
  const { rows, total } = await queuePage<StaffDepositRow>(deps.db, { select: STAFF_SELECT, table: 'deposits', open: query.status === 'pending', query });
  return { items: rows.map((row) => staffDepositView(row, deps.config)), total };
}

type StaffDepositView = ReturnType<typeof staffDepositView>;

async function staffDeposit(db: Queryable, depositId: bigint, config: Config) {
  const [row] = await db.query<StaffDepositRow>(`${STAFF_SELECT} WHERE q.id = $1`, [depositId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return staffDepositView(row, config);
}

export function getStaffDeposit(deps: Deps, depositId: bigint) {
  return staffDeposit(deps.db, depositId, deps.config);
}

/** The screenshot of a deposit, for finance staff; the view is an audited act. */
export async function readDepositProof(deps: Deps, staff: StaffSession, depositId: bigint, requestId: string) {
  const [deposit] = await deps.db.query<{ user_id: bigint; proof_upload_id: bigint | null }>('SELECT user_id, proof_upload_id FROM deposits WHERE id = $1', [
    depositId,
  ]);
  if (!deposit?.proof_upload_id) throw new AppError('RECORD_NOT_FOUND');
  const file = await readUpload(deps, deposit.proof_upload_id, deposit.user_id, 'deposit_proof');
  await appendAudit(deps.db, {
    staffId: staff.staff.id,
    action: 'deposit.proof.view',
    targetType: 'deposit',
    targetId: depositId.toString(),
    detail: { userId: deposit.user_id.toString(), uploadId: deposit.proof_upload_id.toString() },
    requestId,
    at: deps.now(),
  });
  return file;
}

/**
 * Credits an approved deposit: one entry from the channel's hot-wallet account to the user's coin
 * account, of exactly the amount reported. Its key is the deposit's id, so it posts once whoever
 * asks (staff, or the on-chain check on any node).
 */
export async function creditDeposit(tx: Queryable, deposit: DepositRow, at: Date): Promise<bigint> {
  const hotWallet = await hotWalletAccount(tx, { id: deposit.channel, asset: deposit.asset });
  const coin = await ensureUserAccount(tx, deposit.user_id, 'coin', deposit.asset);
  const { entryId } = await postEntry(tx, {
    reason: 'deposit',
    referenceType: 'deposit',
    referenceId: deposit.id.toString(),
    idempotencyKey: `deposit:${deposit.id}`,
    memo: `${deposit.channel} deposit, transaction ${deposit.tx_hash}`,
    postings: transferPostings(hotWallet, coin, deposit.asset, toMinor(deposit.amount_minor)),
    at,
  });
  return entryId;
}

export async function tellUserOfDeposit(tx: Queryable, deposit: DepositRow, approved: boolean, reason: string | null, at: Date) {
  const amount = depositView(deposit).amount;
  const vars = { amount, asset: deposit.asset, channel: deposit.channel, reason: reason ?? '' };
  await messageUser(
    tx,
    deposit.user_id,
    approved
      ? { title: 'notify.deposit.approved.title', body: 'notify.deposit.approved.body' }
      : { title: 'notify.deposit.rejected.title', body: 'notify.deposit.rejected.body' },
    vars,
    at,
  );
}

/**
 * Finance staff approve or reject a deposit waiting for staff review. Approval credits what the
 * user reported (staff never type an amount). When the two-person rule applies (ADR 0022: worth
 * more than the threshold, or past this member's or this user's one-person limit within the
 * window) the first approval is only recorded — with the reason, raising the record to two
 * approvals — and a different staff member's approval credits it. An approval locks the member,
 * then the user, then the deposit (then the ledger accounts). Decision, ledger entry, the record of
 * the money decision, audit entry and the user's message commit together — and, through the API,
 * the answer (ADR 0019).
 */
export async function decideDeposit(
  deps: Deps,
  staff: StaffSession,
  input: { depositId: bigint; decision: 'approve' | 'reject'; reason?: string; requestId: string },
  idempotency?: IdempotentRequest<StaffDepositView>,
) {
  const now = deps.now();
  const staffId = staff.staff.id;
  const view = await deps.db.transaction(async (tx) => {
    if (input.decision === 'approve') {
      // The user of a deposit never changes, so it is read before the locks that need it.
      const [owner] = await tx.query<{ user_id: bigint }>('SELECT user_id FROM deposits WHERE id = $1', [input.depositId]);
      if (!owner) throw new AppError('RECORD_NOT_FOUND');
      await lockDecisionMakers(tx, { staffId, userId: owner.user_id });
    }
    const deposit = await lockDeposit(tx, input.depositId);
    if (!deposit) throw new AppError('RECORD_NOT_FOUND');
    // An on-chain-checked deposit is decided by the chain, not by a person.
    if (deposit.review === 'chain') throw new AppError('NOT_PENDING_REVIEW', { review: 'chain' });
    const valueUsdtMinor = toMinor(deposit.usdt_value_minor);
    // Decided now, under the locks: a record that one person could approve when it was reported may need two today.
    const raisedBy =
      input.decision === 'approve' && deposit.status === 'pending' && deposit.approvals_required === 1
        ? await secondPersonNeeded(tx, twoPersonLimits(deps.config, 'wallet'), { staffId, userId: deposit.user_id, valueUsdtMinor, at: now })
        : null;
    const approvalsRequired = raisedBy ? 2 : deposit.approvals_required;
    const outcome = depositTransition(
      { status: deposit.status, approvalsRequired, firstApprovedBy: deposit.first_approved_by },
      input.decision === 'approve' ? { kind: 'approve', staffId } : { kind: 'reject' },
    );
    if (!outcome.ok) throw new AppError(outcome.problem === 'same_approver' ? 'SECOND_APPROVER_REQUIRED' : 'NOT_PENDING_REVIEW');
    const firstApprovalNow = outcome.firstApprovedBy !== deposit.first_approved_by;
    if (raisedBy) {
      await tx.query('UPDATE deposits SET approvals_required = 2, two_person_reason = $2::jsonb WHERE id = $1', [
        deposit.id,
        JSON.stringify(storedTwoPersonReason(raisedBy)),
      ]);
    }
    const entryId = outcome.effect === 'credit' ? await creditDeposit(tx, deposit, now) : null;
    if (entryId !== null) {
      const firstStaffId = approvalsRequired === 2 ? outcome.firstApprovedBy : null;
      await recordMoneyDecision(tx, { kind: 'deposit.credit', recordId: deposit.id, userId: deposit.user_id, staffId, firstStaffId, valueUsdtMinor, at: now });
    }
    const ended = outcome.status !== 'pending';
    await tx.query(
      `UPDATE deposits SET status = $2, first_approved_by = $3, first_approved_at = COALESCE(first_approved_at, $4),
         decided_by = $5, decided_at = $6, reject_reason = $7, entry_id = $8 WHERE id = $1`,
      [
        deposit.id,
        outcome.status,
        outcome.firstApprovedBy,
        firstApprovalNow ? now : null,
        ended ? staff.staff.id : null,
        ended ? now : null,
        outcome.status === 'rejected' ? input.reason : null,
        entryId,
      ],
    );
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: outcome.status === 'rejected' ? 'deposit.reject' : firstApprovalNow ? 'deposit.first_approval' : 'deposit.approve',
      targetType: 'deposit',
      targetId: deposit.id.toString(),
      detail: {
        userId: deposit.user_id.toString(),
        channel: deposit.channel,
        amount: depositView(deposit).amount,
        ...(entryId ? { entryId: entryId.toString(), people: approvalsRequired } : {}),
        ...(raisedBy ? { twoPersonReason: storedTwoPersonReason(raisedBy) } : {}),
        ...(outcome.status === 'rejected' ? { reason: input.reason } : {}),
      },
      requestId: input.requestId,
      at: now,
    });
    if (ended) await tellUserOfDeposit(tx, deposit, outcome.status === 'approved', input.reason ?? null, now);
    const decided = await staffDeposit(tx, deposit.id, deps.config);
    await idempotency?.answerInTransaction(tx, decided);
    return decided;
  });
  if (view.status !== 'pending') await publishToUser(deps, BigInt(view.userId), { kind: 'message', unread: true });
  return view;
}
