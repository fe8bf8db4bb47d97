import { AppError, type FundRequestView } from '@keel/contracts';
import {
  collateralCoverPpm,
  collateralValueMinor,
  creditRatingOf,
  FUND_COLLATERAL_LTV_PPM,
  formatAmount,
  fundCreditLimitMinor,
  fundInterestMinor,
  fundTermsProblem,
  investmentRatingOf,
  LedgerError,
  LOAN_ASSET_SCALE,
  tierOf,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import { appendAudit } from '../../persistence/audit.repository.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { ensureUserAccount, postEntry, toMinor } from '../../persistence/ledger.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { publishToUser } from '../../realtime/publish.ts';
import type { StaffSession } from '../admin/staff-auth.ts';
import { parsePercentPpm, parseUserAmount } from '../amount-input.ts';
import { assetScales } from '../assets/account-balances.ts';
import { borrowerCredit, collateralPriceOrFail } from '../loans/loans-support.ts';
import { checkPaymentPassword } from '../user/check-payment-password.ts';
import { verificationStatesOf } from '../verification/submit-verification.ts';
import { tellRequestApproved, tellRequestRejected } from './fund-messages.ts';
import { fundRequestNumber } from './fund-support.ts';
import { type FundRequestRow, REQUEST_COLUMNS, REQUEST_FROM, readRequest, requestViews } from './fund-views.ts';

export interface PublishInput {
  user: UserRow;
  borrowerType: 'institution' | 'individual';
  title: string;
  purpose: string;
  amount: string;
  dailyRatePercent: string;
  termDays: number;
  tranches: number;
  releasePeriodDays: number;
  windowHours: number;
  collateralAsset: string;
  collateralAmount: string;
  paymentPassword: string;
  requestKey: string;
}

const usdt = (minor: bigint) => formatAmount(minor, LOAN_ASSET_SCALE);

/**
 * Publishes a funding request (ADR 0037): advanced verification; the terms within the published
 * limits; the amount within the credit limit its collateral backs at the latest recorded price;
 * the payment password; then one entry pledging the collateral (coin account, available → frozen)
 * with its hold, and the request with its ratings computed now, waiting for compliance review.
 */
export async function publishFundRequest(deps: Deps, input: PublishInput, idempotency?: IdempotentRequest<FundRequestView>): Promise<FundRequestView> {
  const states = await verificationStatesOf(deps.db, input.user.id);
  if (tierOf({ identityVerified: states.identity.status === 'verified', advancedVerified: states.advanced.status === 'verified' }) < 2) {
    throw new AppError('ADVANCED_VERIFICATION_REQUIRED', { party: 'self' });
  }
  const amountMinor = parseUserAmount(input.amount, LOAN_ASSET_SCALE, 'amount');
  const terms = {
    amountMinor,
    dailyRatePpm: parsePercentPpm(input.dailyRatePercent, 'dailyRatePercent'),
    termDays: input.termDays,
    tranches: input.tranches,
    releasePeriodDays: input.releasePeriodDays,
    windowHours: input.windowHours,
  };
  const problem = fundTermsProblem(terms);
  if (problem) throw new AppError('PARAMETER_ERROR', { field: 'terms', problem });
  const scale = (await assetScales(deps.db)).get(input.collateralAsset);
  const ltvPpm = FUND_COLLATERAL_LTV_PPM[input.collateralAsset];
  if (scale === undefined || ltvPpm === undefined) throw new AppError('PARAMETER_ERROR', { field: 'collateralAsset', problem: 'not_accepted' });
  const collateralMinor = parseUserAmount(input.collateralAmount, scale, 'collateralAmount');
  const now = deps.now();
  const nowMs = now.getTime();
  const price = collateralPriceOrFail(deps, input.collateralAsset, nowMs);
  const valueMinor = collateralValueMinor(input.collateralAsset, collateralMinor, scale, price.priceMinor);
  const creditLimitMinor = fundCreditLimitMinor(valueMinor, input.collateralAsset);
  if (amountMinor > creditLimitMinor) throw new AppError('LOAN_QUOTA_INSUFFICIENT', { creditLimit: usdt(creditLimitMinor) });
  await checkPaymentPassword(deps, input.user, input.paymentPassword);

  const totalDueMinor = amountMinor + fundInterestMinor(terms);
  const coverPpm = collateralCoverPpm(valueMinor, totalDueMinor);
  let view: FundRequestView;
  try {
    view = await deps.db.transaction(async (tx) => {
      const entryKey = `fund.publish:${input.user.id}:${input.requestKey}`;
      const [earlier] = await tx.query<{ id: bigint }>('SELECT r.id FROM fund_requests r JOIN journal_entries e ON e.id = r.pledge_entry_id WHERE e.idempotency_key = $1', [
        entryKey,
      ]);
      if (earlier) return answer(tx, earlier.id);
      const credit = await borrowerCredit(tx, input.user.id);
      const coin = await ensureUserAccount(tx, input.user.id, 'coin', input.collateralAsset);
      const [{ id }] = (await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('fund_requests', 'id')) AS id`)) as [{ id: bigint }];
      const requestNo = fundRequestNumber(id, nowMs);
      const entry = await postEntry(tx, {
        reason: 'fund.pledge',
        referenceType: 'fund_request',
        referenceId: id.toString(),
        idempotencyKey: entryKey,
        memo: `${requestNo} collateral pledged`,
        postings: [
          { accountId: coin, asset: input.collateralAsset, bucket: 'available', amountMinor: -collateralMinor },
          { accountId: coin, asset: input.collateralAsset, bucket: 'frozen', amountMinor: collateralMinor },
        ],
        at: now,
      });
      const [hold] = await tx.query<{ id: bigint }>(
        `INSERT INTO ledger_holds (account_id, amount_minor, reference_type, reference_id, placed_entry_id, created_at)
         VALUES ($1, $2, 'fund_request', $3, $4, $5) RETURNING id`,
        [coin, collateralMinor.toString(), id.toString(), entry.entryId, now],
      );
      await tx.query(
        `INSERT INTO fund_requests (id, request_no, user_id, borrower_type, title, purpose, amount_minor, daily_rate_ppm, term_days, tranches,
           release_period_days, window_hours, collateral_asset, collateral_minor, collateral_ltv_ppm, collateral_account_id, hold_id, pledge_entry_id,
           published_tick_id, published_price, credit_limit_minor, credit_rating, credit_score, investment_rating, collateral_cover_ppm, published_at_ms)
         OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26)`,
        [
          id,
          requestNo,
          input.user.id,
          input.borrowerType,
          input.title,
          input.purpose,
          amountMinor.toString(),
          terms.dailyRatePpm,
          terms.termDays,
          terms.tranches,
          terms.releasePeriodDays,
          terms.windowHours,
          input.collateralAsset,
          collateralMinor.toString(),
          ltvPpm,
          coin,
          hold!.id,
          entry.entryId,
          price.tickId,
          price.view.price,
          creditLimitMinor.toString(),
          creditRatingOf(credit.score),
          credit.score.score,
          investmentRatingOf(coverPpm),
          coverPpm,
          nowMs,
        ],
      );
      return answer(tx, id);
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }
  await publishToUser(deps, input.user.id, { kind: 'fund.request', requestId: view.id, status: view.status });
  return view;

  async function answer(tx: Queryable, requestId: bigint) {
    const found = (await readRequest(tx, requestId, input.user.id))!;
    await idempotency?.answerInTransaction(tx, found);
    return found;
  }
}

/** Returns a request's pledge to the borrower in an entry of the request's close (`fund.close:<id>`), with `more` postings beside it. */
export function pledgeReturnPostings(row: Pick<FundRequestRow, 'collateral_account_id' | 'collateral_asset' | 'collateral_minor'>) {
  const collateral = toMinor(row.collateral_minor);
  return [
    { accountId: row.collateral_account_id, asset: row.collateral_asset, bucket: 'frozen' as const, amountMinor: -collateral },
    { accountId: row.collateral_account_id, asset: row.collateral_asset, bucket: 'available' as const, amountMinor: collateral },
  ];
}

export async function listStaffFundRequests(deps: Pick<Deps, 'db'>, query: { status: FundRequestRow['status']; page: number; pageSize: number }) {
  const order = query.status === 'review' ? 'r.published_at_ms, r.id' : 'r.id DESC';
  const rows = await deps.db.query<FundRequestRow>(`SELECT ${REQUEST_COLUMNS} FROM ${REQUEST_FROM} WHERE r.status = $1 ORDER BY ${order} LIMIT $2 OFFSET $3`, [
    query.status,
    query.pageSize,
    (query.page - 1) * query.pageSize,
  ]);
  const [count] = await deps.db.query<{ total: number }>('SELECT count(*)::int AS total FROM fund_requests WHERE status = $1', [query.status]);
  const views = await requestViews(deps.db, rows, null);
  return { items: views.map((view, index) => ({ ...view, userId: rows[index]!.user_id.toString() })), total: count!.total, page: query.page, pageSize: query.pageSize };
}

/**
 * A compliance decision on a request in review (audited, in one transaction): approved, it enters
 * the pool for its window; rejected, the reason is stored for the borrower and the pledge returns.
 */
export async function decideFundRequest(
  deps: Deps,
  staff: StaffSession,
  input: { requestId: bigint; decision: 'approve' | 'reject'; reason?: string; auditRequestId: string },
) {
  const now = deps.now();
  const nowMs = now.getTime();
  const decided = await deps.db.transaction(async (tx) => {
    const [row] = await tx.query<FundRequestRow>(`SELECT ${REQUEST_COLUMNS} FROM ${REQUEST_FROM} WHERE r.id = $1 FOR UPDATE OF r`, [input.requestId]);
    if (!row) throw new AppError('RECORD_NOT_FOUND');
    if (row.status !== 'review') throw new AppError('NOT_PENDING_REVIEW');
    if (input.decision === 'approve') {
      await tx.query(`UPDATE fund_requests SET status = 'open', reviewed_by = $2, reviewed_at_ms = $3, opened_at_ms = $3, window_ends_at_ms = $4 WHERE id = $1`, [
        row.id,
        staff.staff.id,
        nowMs,
        nowMs + row.window_hours * 3_600_000,
      ]);
      await tellRequestApproved(tx, row, nowMs + row.window_hours * 3_600_000, now);
    } else {
      const entry = await postEntry(tx, {
        reason: 'fund.reject',
        referenceType: 'fund_request',
        referenceId: row.id.toString(),
        idempotencyKey: `fund.close:${row.id}`,
        memo: `${row.request_no} not approved, collateral returned`,
        postings: pledgeReturnPostings(row),
        at: now,
      });
      await tx.query("UPDATE ledger_holds SET status = 'released', closed_entry_id = $2, closed_at = $3 WHERE id = $1", [row.hold_id, entry.entryId, now]);
      await tx.query(
        `UPDATE fund_requests SET status = 'rejected', reviewed_by = $2, reviewed_at_ms = $3, reject_reason = $4, closed_at_ms = $3, close_entry_id = $5 WHERE id = $1`,
        [row.id, staff.staff.id, nowMs, input.reason ?? null, entry.entryId],
      );
      await tellRequestRejected(tx, row, input.reason ?? '', now);
    }
    await appendAudit(tx, {
      staffId: staff.staff.id,
      action: input.decision === 'approve' ? 'fund.request.approve' : 'fund.request.reject',
      targetType: 'fund_request',
      targetId: row.id.toString(),
      detail: { requestNo: row.request_no, ...(input.decision === 'reject' ? { reason: input.reason } : {}) },
      requestId: input.auditRequestId,
      at: now,
    });
    const [after] = await tx.query<FundRequestRow>(`SELECT ${REQUEST_COLUMNS} FROM ${REQUEST_FROM} WHERE r.id = $1`, [row.id]);
    const [view] = await requestViews(tx, [after!], null);
    return { ...view!, userId: row.user_id.toString() };
  });
  await publishToUser(deps, BigInt(decided.userId), { kind: 'fund.request', requestId: decided.id, status: decided.status });
  await publishToUser(deps, BigInt(decided.userId), { kind: 'message', unread: true });
  return decided;
}
