import { AppError, type StaffLoanView } from '@keel/contracts';
import { LedgerError, loanDueAtMs, publicUserName } from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import { ensureUserAccount, postEntry, toMinor } from '../../persistence/ledger.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { lockDecisionMakers, recordMoneyDecision } from '../../persistence/staff-money-decisions.repository.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { secondPersonNeeded, storedTwoPersonReason, twoPersonLimits } from '../admin/two-person-rule.ts';
import { readUpload } from '../verification/upload-image.ts';
import { messageUser } from '../wallet/wallet-support.ts';
import { creditView, LOAN_COLUMNS, LOAN_FROM, type LoanRow, loanViews, readLoan } from './loan-views.ts';
import { borrowerCredit, changeCommitted, lendingTreasuryAccount, lockBorrower } from './loans-support.ts';

/** "2026-12-31 10:00": a time in a system message, UTC. */
export const utcMinute = (atMs: number) => new Date(atMs).toISOString().slice(0, 16).replace('T', ' ');

/** Returns a pledge to the borrower: the hold released, the collateral from the frozen part back to the available part. */
export async function releasePledge(tx: Queryable, row: Pick<LoanRow, 'id' | 'loan_no' | 'collateral_account_id' | 'collateral_asset' | 'collateral_minor' | 'hold_id'>, memo: string, at: Date) {
  const collateral = toMinor(row.collateral_minor);
  const entry = await postEntry(tx, {
    reason: 'loan.release',
    referenceType: 'loan',
    referenceId: row.id.toString(),
    idempotencyKey: `loan.close:${row.id}`,
    memo: `${row.loan_no} ${memo}`,
    postings: [
      { accountId: row.collateral_account_id, asset: row.collateral_asset, bucket: 'frozen', amountMinor: -collateral },
      { accountId: row.collateral_account_id, asset: row.collateral_asset, bucket: 'available', amountMinor: collateral },
    ],
    at,
  });
  await tx.query("UPDATE ledger_holds SET status = 'released', closed_entry_id = $2, closed_at = $3 WHERE id = $1", [row.hold_id, entry.entryId, at]);
  return entry.entryId;
}

async function staffView(deps: Pick<Deps, 'market' | 'config'>, db: Queryable, rows: readonly LoanRow[], nowMs: number): Promise<StaffLoanView[]> {
  if (rows.length === 0) return [];
  const views = await loanViews(deps, db, rows, nowMs);
  const ids = rows.map((row) => row.id.toString());
  const users = await db.query<UserRow>('SELECT id, nickname, username, email, phone FROM users WHERE id = ANY($1::bigint[])', [
    [...new Set(rows.map((row) => row.user_id.toString()))],
  ]);
  const reviews = await db.query<{ loan_id: bigint; username: string; decision: 'approve' | 'reject'; reason: string | null; decided_at: Date }>(
    `SELECT r.loan_id, s.username, r.decision, r.reason, r.decided_at FROM loan_reviews r JOIN staff s ON s.id = r.staff_id
      WHERE r.loan_id = ANY($1::bigint[]) ORDER BY r.decided_at`,
    [ids],
  );
  const credits = new Map<bigint, Awaited<ReturnType<typeof borrowerCredit>>>();
  for (const userId of new Set(rows.map((row) => row.user_id))) credits.set(userId, await borrowerCredit(db, userId));
  return rows.map((row, index) => ({
    ...views[index]!,
    userId: row.user_id.toString(),
    userName: publicUserName(users.find((user) => user.id === row.user_id)!),
    credit: creditView(credits.get(row.user_id)!),
    reviews: reviews
      .filter((review) => review.loan_id === row.id)
      .map((review) => ({ staff: review.username, decision: review.decision, reason: review.reason, atMs: review.decided_at.getTime() })),
    holdingPhotoUrl: `/home/admin/loans/${row.id}/holding-photo`,
  }));
}

export async function listStaffLoans(deps: Pick<Deps, 'db' | 'market' | 'config' | 'now'>, query: { status: LoanRow['status']; page: number; pageSize: number }) {
  const order = query.status === 'pending' ? 'l.applied_at_ms, l.id' : 'l.id DESC';
  const rows = await deps.db.query<LoanRow>(`SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.status = $1 ORDER BY ${order} LIMIT $2 OFFSET $3`, [
    query.status,
    query.pageSize,
    (query.page - 1) * query.pageSize,
  ]);
  const [count] = await deps.db.query<{ total: number }>('SELECT count(*)::int AS total FROM loans WHERE status = $1', [query.status]);
  return { items: await staffView(deps, deps.db, rows, deps.now().getTime()), total: count!.total, page: query.page, pageSize: query.pageSize };
}

async function readStaffLoan(deps: Pick<Deps, 'market' | 'config'>, db: Queryable, loanId: bigint, nowMs: number): Promise<StaffLoanView> {
  const [row] = await db.query<LoanRow>(`SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.id = $1`, [loanId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  const [view] = await staffView(deps, db, [row], nowMs);
  const detail = (await readLoan(deps, db, loanId, nowMs))!;
  return { ...view!, repayments: detail.repayments };
}

export function getStaffLoan(deps: Pick<Deps, 'db' | 'market' | 'config' | 'now'>, loanId: bigint): Promise<StaffLoanView> {
  return readStaffLoan(deps, deps.db, loanId, deps.now().getTime());
}

/** The holding-ID photo of an application, for a compliance reviewer; every view is audited. */
export async function readHoldingPhoto(deps: Deps, staff: StaffSession, loanId: bigint, requestId: string) {
  const [row] = await deps.db.query<{ holding_upload_id: bigint; user_id: bigint }>('SELECT holding_upload_id, user_id FROM loans WHERE id = $1', [loanId]);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  const file = await readUpload(deps, row.holding_upload_id, undefined, 'loan_holding');
  await appendAudit(deps.db, {
    staffId: staff.staff.id,
    action: 'upload.view',
    targetType: 'loan',
    targetId: loanId.toString(),
    detail: { uploadId: row.holding_upload_id.toString(), userId: row.user_id.toString() },
    requestId,
    at: deps.now(),
  });
  return file;
}

/**
 * A compliance decision on an application (ADR 0036), in one transaction with its audit entry.
 * Reject: the reason is stored for the borrower and the pledge returns. Approve: recorded; when it
 * is the last approval required (two different members above LOAN_TWO_PERSON_ABOVE_USDT), one entry
 * pays the principal from the lending treasury to the borrower's coin account and the loan's days
 * start. An approval the treasury cannot pay is refused whole ("the lending account cannot fund
 * this loan"): nothing of it is kept and the application stays pending. Locks: the loan, the
 * borrower's row, the ledger accounts.
 */
export async function decideLoan(
  deps: Deps,
  staff: StaffSession,
  input: { loanId: bigint; decision: 'approve' | 'reject'; reason?: string; requestId: string },
): Promise<StaffLoanView> {
  const now = deps.now();
  const nowMs = now.getTime();
  const staffId = staff.staff.id;
  const decided = await deps.db.transaction(async (tx) => {
    if (input.decision === 'approve') {
      // An approval may pay out: the member's and the borrower's rows first (ADR 0022's lock order),
      // so two payouts by one member, or to one borrower, count each other in their sums.
      const [owner] = await tx.query<{ user_id: bigint }>('SELECT user_id FROM loans WHERE id = $1', [input.loanId]);
      if (!owner) throw new AppError('RECORD_NOT_FOUND');
      await lockDecisionMakers(tx, { staffId, userId: owner.user_id });
    }
    const [row] = await tx.query<LoanRow>(`SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.id = $1 FOR UPDATE OF l`, [input.loanId]);
    if (!row) throw new AppError('RECORD_NOT_FOUND');
    if (row.status !== 'pending') throw new AppError('NOT_PENDING_REVIEW');
    const [mine] = await tx.query('SELECT 1 FROM loan_reviews WHERE loan_id = $1 AND staff_id = $2', [row.id, staffId]);
    if (mine) throw new AppError('SECOND_APPROVER_REQUIRED');
    // Decided now, under the locks: one member alone may pay out loans only while their payouts
    // (and this borrower's) decided alone within the window stay under the published limits.
    const raisedBy =
      input.decision === 'approve' && row.approvals === 0 && row.approvals_required === 1
        ? await secondPersonNeeded(tx, twoPersonLimits(deps.config, 'loan'), { staffId, userId: row.user_id, valueUsdtMinor: toMinor(row.amount_minor), at: now })
        : null;
    const approvalsRequired = raisedBy ? 2 : row.approvals_required;
    if (raisedBy) {
      await tx.query('UPDATE loans SET approvals_required = 2, two_person_reason = $2::jsonb WHERE id = $1', [row.id, JSON.stringify(storedTwoPersonReason(raisedBy))]);
    }
    await tx.query('INSERT INTO loan_reviews (loan_id, staff_id, decision, reason, decided_at) VALUES ($1, $2, $3, $4, $5)', [
      row.id,
      staffId,
      input.decision,
      input.decision === 'reject' ? (input.reason ?? null) : null,
      now,
    ]);
    const audit = (action: string, detail: Record<string, unknown>) =>
      appendAudit(tx, { staffId: staff.staff.id, action, targetType: 'loan', targetId: row.id.toString(), detail: { loanNo: row.loan_no, ...detail }, requestId: input.requestId, at: now });

    if (input.decision === 'reject') {
      await lockBorrower(tx, row.user_id);
      const entryId = await releasePledge(tx, row, 'application rejected, collateral returned', now);
      await tx.query(`UPDATE loans SET status = 'rejected', decided_at_ms = $2, reject_reason = $3, closed_at_ms = $2, close_entry_id = $4 WHERE id = $1`, [
        row.id,
        nowMs,
        input.reason ?? null,
        entryId,
      ]);
      await changeCommitted(tx, row.user_id, -toMinor(row.amount_minor));
      await messageUser(tx, row.user_id, { title: 'notify.loan.rejected.title', body: 'notify.loan.rejected.body' }, { loanNo: row.loan_no, reason: input.reason ?? '' }, now);
      await audit('loan.reject', { reason: input.reason });
      return { view: await readStaffLoan(deps, tx, row.id, nowMs), userId: row.user_id, status: 'rejected' };
    }

    const approvals = row.approvals + 1;
    if (approvals < approvalsRequired) {
      await audit('loan.approve.first', { approvalsRequired, ...(raisedBy ? { twoPersonReason: storedTwoPersonReason(raisedBy) } : {}) });
      return { view: await readStaffLoan(deps, tx, row.id, nowMs), userId: row.user_id, status: 'pending' };
    }
    await lockBorrower(tx, row.user_id);
    const lender = await lendingTreasuryAccount(tx);
    const coin = await ensureUserAccount(tx, row.user_id, 'coin', 'USDT');
    const amount = toMinor(row.amount_minor);
    let entryId: bigint;
    try {
      ({ entryId } = await postEntry(tx, {
        reason: 'loan.disburse',
        referenceType: 'loan',
        referenceId: row.id.toString(),
        idempotencyKey: `loan.disburse:${row.id}`,
        memo: `${row.loan_no} paid out, ${row.cycle_days} days`,
        postings: [
          { accountId: lender, asset: 'USDT', bucket: 'available', amountMinor: -amount },
          { accountId: coin, asset: 'USDT', bucket: 'available', amountMinor: amount },
        ],
        at: now,
      }));
    } catch (error) {
      if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('LENDING_FUNDS_UNAVAILABLE');
      throw error;
    }
    await tx.query(
      `UPDATE loans SET status = 'passed', decided_at_ms = $2, disburse_entry_id = $3, started_at_ms = $2, due_at_ms = $4, principal_outstanding_minor = amount_minor
        WHERE id = $1`,
      [row.id, nowMs, entryId, loanDueAtMs(nowMs, row.cycle_days)],
    );
    const [first] =
      approvalsRequired === 2
        ? await tx.query<{ staff_id: bigint }>(
            `SELECT staff_id FROM loan_reviews WHERE loan_id = $1 AND decision = 'approve' AND staff_id <> $2 ORDER BY decided_at, staff_id LIMIT 1`,
            [row.id, staffId],
          )
        : [];
    await recordMoneyDecision(tx, {
      kind: 'loan.disburse',
      recordId: row.id,
      userId: row.user_id,
      staffId,
      firstStaffId: first?.staff_id ?? null,
      valueUsdtMinor: amount,
      at: now,
    });
    await audit('loan.approve', { approvals, entryId: entryId.toString() });
    const view = await readStaffLoan(deps, tx, row.id, nowMs);
    await messageUser(
      tx,
      row.user_id,
      { title: 'notify.loan.approved.title', body: 'notify.loan.approved.body' },
      { loanNo: row.loan_no, amount: view.amount, totalDue: view.totalDue, dueAt: utcMinute(loanDueAtMs(nowMs, row.cycle_days)) },
      now,
    );
    return { view, userId: row.user_id, status: 'passed' };
  });
  await publishToUser(deps, decided.userId, { kind: 'loan', loanId: input.loanId.toString(), status: decided.status });
  if (decided.status !== 'pending') await publishToUser(deps, decided.userId, { kind: 'message', unread: true });
  return decided.view;
}
