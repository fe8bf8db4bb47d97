import {
  applyRepayment,
  chargeInterestTo,
  collateralValueMinor,
  formatAmount,
  liquidationPlan,
  LOAN_ASSET,
  LOAN_ASSET_SCALE,
  loanDaysBegun,
  loanHealth,
  loanLtvPpm,
  owedOf,
  type Posting,
  ppmAsPercent,
} from '@keel/domain';
import { startPeriodicPass } from '../../jobs/periodic-pass.ts';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { postEntry, toMinor } from '../../persistence/ledger.store.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { assetScales } from '../assets/account-balances.ts';
import { messageUser } from '../wallet/wallet-support.ts';
import { balanceOf, LOAN_COLUMNS, LOAN_FROM, type LoanRow } from './loan-views.ts';
import { type CollateralPrice, changeCommitted, conversionTreasuryAccount, latestCollateralPrice, lendingTreasuryAccount, lockBorrower } from './loans-support.ts';

/** How often each node looks for loans at their due date or their liquidation ratio. */
export const LOAN_SWEEP_INTERVAL_MS = 5_000;
/** Loans settled per transaction at most. */
const LOANS_PER_BATCH = 100;

export interface LoanOutcome {
  loanId: bigint;
  userId: bigint;
  status: 'liquidated' | 'passed';
  kind: 'due' | 'price' | 'margin_call';
}

/**
 * Liquidates a loan whose row the caller holds FOR UPDATE and which is still passed, at a recorded
 * price: interest charged for the days begun (all of them at the due date), the collateral that
 * covers what is owed sold to the treasury at that price (rounded up to the asset's smallest unit),
 * what it repays paid to the lending treasury, the rest of the collateral returned — one entry,
 * keyed by the loan's close, so it can happen once. Collateral worth less than what is owed is sold
 * whole and the difference recorded as the lender's loss: the borrower owes nothing more.
 */
async function liquidateLocked(tx: Queryable, row: LoanRow, kind: 'due' | 'price', price: CollateralPrice, scale: number, nowMs: number): Promise<void> {
  const at = new Date(nowMs);
  const charged = chargeInterestTo(balanceOf(row), row.daily_rate_ppm, loanDaysBegun(Number(row.started_at_ms), nowMs, row.cycle_days));
  const owedMinor = owedOf(charged);
  const collateral = toMinor(row.collateral_minor);
  const plan = liquidationPlan({ asset: row.collateral_asset, owedMinor, collateralMinor: collateral, assetScale: scale, priceMinor: price.priceMinor });
  await lockBorrower(tx, row.user_id);
  const lender = await lendingTreasuryAccount(tx);
  const postings: Posting[] = [{ accountId: row.collateral_account_id, asset: row.collateral_asset, bucket: 'frozen', amountMinor: -collateral }];
  if (plan.releasedMinor > 0n) postings.push({ accountId: row.collateral_account_id, asset: row.collateral_asset, bucket: 'available', amountMinor: plan.releasedMinor });
  if (row.collateral_asset === LOAN_ASSET) {
    postings.push({ accountId: lender, asset: LOAN_ASSET, bucket: 'available', amountMinor: plan.soldMinor });
  } else {
    const buyer = await conversionTreasuryAccount(tx, row.collateral_asset);
    const payer = await conversionTreasuryAccount(tx, LOAN_ASSET);
    postings.push({ accountId: buyer, asset: row.collateral_asset, bucket: 'available', amountMinor: plan.soldMinor });
    if (plan.repaidMinor > 0n) {
      postings.push(
        { accountId: payer, asset: LOAN_ASSET, bucket: 'available', amountMinor: -plan.repaidMinor },
        { accountId: lender, asset: LOAN_ASSET, bucket: 'available', amountMinor: plan.repaidMinor },
      );
    }
  }
  const priceText = price.view.price ?? '1';
  const entry = await postEntry(tx, {
    reason: 'loan.liquidate',
    referenceType: 'loan',
    referenceId: row.id.toString(),
    idempotencyKey: `loan.close:${row.id}`,
    memo: `${row.loan_no} ${kind === 'due' ? 'unpaid at due date' : 'liquidation ratio reached'}: ${formatAmount(plan.soldMinor, scale)} ${row.collateral_asset} sold at ${priceText}${price.tickId === null ? '' : ` (tick ${price.tickId})`}`,
    postings,
    at,
  });
  const split = plan.repaidMinor > 0n ? applyRepayment(charged, plan.repaidMinor) : { interestPaidMinor: 0n, principalPaidMinor: 0n };
  if (plan.repaidMinor > 0n) {
    await tx.query(
      `INSERT INTO loan_repayments (loan_id, amount_minor, interest_minor, principal_minor, source, entry_id, at_ms) VALUES ($1, $2, $3, $4, 'collateral', $5, $6)`,
      [row.id, plan.repaidMinor.toString(), split.interestPaidMinor.toString(), split.principalPaidMinor.toString(), entry.entryId, nowMs],
    );
  }
  await tx.query(
    `UPDATE loans SET status = 'liquidated', liquidation_kind = $2, liquidation_tick_id = $3, liquidation_price = $4, sold_minor = $5, shortfall_minor = $6,
       principal_outstanding_minor = 0, interest_unpaid_minor = 0, charged_days = $7, interest_paid_minor = interest_paid_minor + $8,
       repaid_minor = repaid_minor + $9, closed_at_ms = $10, close_entry_id = $11
     WHERE id = $1`,
    [
      row.id,
      kind,
      price.tickId,
      priceText,
      plan.soldMinor.toString(),
      plan.shortfallMinor.toString(),
      charged.chargedDays,
      split.interestPaidMinor.toString(),
      plan.repaidMinor.toString(),
      nowMs,
      entry.entryId,
    ],
  );
  await tx.query("UPDATE ledger_holds SET status = 'posted', closed_entry_id = $2, closed_at = $3 WHERE id = $1", [row.hold_id, entry.entryId, at]);
  // Nothing of it is owed any more, repaid or not.
  await changeCommitted(tx, row.user_id, -toMinor(row.principal_outstanding_minor));
  await messageUser(
    tx,
    row.user_id,
    { title: 'notify.loan.liquidated.title', body: kind === 'due' ? 'notify.loan.liquidated.due' : 'notify.loan.liquidated.price' },
    {
      loanNo: row.loan_no,
      asset: row.collateral_asset,
      sold: formatAmount(plan.soldMinor, scale),
      released: formatAmount(plan.releasedMinor, scale),
      price: priceText,
      tickId: price.tickId?.toString() ?? '—',
      repaid: formatAmount(plan.repaidMinor, LOAN_ASSET_SCALE),
    },
    at,
  );
}

/**
 * Loans past their due date, oldest first, claimed FOR UPDATE SKIP LOCKED (any number of nodes share
 * the work; one being repaid is taken by a later pass if still owed), each liquidated at the latest
 * recorded price of its collateral. A loan whose collateral has no recent price waits for one.
 */
export async function liquidateDueLoans(deps: Pick<Deps, 'db' | 'now' | 'market' | 'config'>): Promise<LoanOutcome[]> {
  const outcomes: LoanOutcome[] = [];
  const scales = await assetScales(deps.db);
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const nowMs = deps.now().getTime();
      const rows = await tx.query<LoanRow>(
        `SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.status = 'passed' AND l.due_at_ms <= $1 ORDER BY l.due_at_ms, l.id LIMIT $2 FOR UPDATE OF l SKIP LOCKED`,
        [nowMs, LOANS_PER_BATCH],
      );
      const done: LoanOutcome[] = [];
      for (const row of rows) {
        const price = latestCollateralPrice(deps, row.collateral_asset, nowMs);
        if (!price) continue;
        await liquidateLocked(tx, row, 'due', price, scales.get(row.collateral_asset)!, nowMs);
        done.push({ loanId: row.id, userId: row.user_id, status: 'liquidated', kind: 'due' });
      }
      return { claimed: rows.length, done };
    });
    outcomes.push(...batch.done);
    if (batch.claimed < LOANS_PER_BATCH || batch.done.length === 0) return outcomes;
  }
}

/**
 * Every passed loan valued at its collateral's latest recorded price: one at the liquidation ratio
 * is liquidated at that price (re-judged under its lock, at the same tick); one at the margin-call
 * ratio for the first time is marked with the time and the tick, and its borrower told.
 */
export async function sweepLoanRatios(deps: Pick<Deps, 'db' | 'now' | 'market' | 'config'>): Promise<LoanOutcome[]> {
  const nowMs = deps.now().getTime();
  const scales = await assetScales(deps.db);
  const rows = await deps.db.query<LoanRow>(`SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.status = 'passed' ORDER BY l.id`);
  const prices = new Map<string, CollateralPrice | undefined>();
  const outcomes: LoanOutcome[] = [];
  const ltvOf = (row: LoanRow, price: CollateralPrice) => {
    const scale = scales.get(row.collateral_asset)!;
    const charged = chargeInterestTo(balanceOf(row), row.daily_rate_ppm, loanDaysBegun(Number(row.started_at_ms), nowMs, row.cycle_days));
    return loanLtvPpm(owedOf(charged), collateralValueMinor(row.collateral_asset, toMinor(row.collateral_minor), scale, price.priceMinor));
  };
  const judge = (row: LoanRow, price: CollateralPrice) =>
    loanHealth(ltvOf(row, price), { marginCallLtvPpm: row.margin_call_ltv_ppm, liquidationLtvPpm: row.liquidation_ltv_ppm });
  for (const row of rows) {
    if (!prices.has(row.collateral_asset)) prices.set(row.collateral_asset, latestCollateralPrice(deps, row.collateral_asset, nowMs));
    const price = prices.get(row.collateral_asset);
    if (!price) continue;
    const health = judge(row, price);
    if (health === 'healthy' || (health === 'margin_call' && row.margin_call_at_ms !== null)) continue;
    const outcome = await deps.db.transaction(async (tx): Promise<LoanOutcome | null> => {
      const [locked] = await tx.query<LoanRow>(`SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.id = $1 FOR UPDATE OF l SKIP LOCKED`, [row.id]);
      if (locked?.status !== 'passed') return null;
      const now = judge(locked, price);
      if (now === 'liquidate') {
        await liquidateLocked(tx, locked, 'price', price, scales.get(locked.collateral_asset)!, nowMs);
        return { loanId: locked.id, userId: locked.user_id, status: 'liquidated', kind: 'price' };
      }
      if (now === 'margin_call' && locked.margin_call_at_ms === null) {
        await tx.query('UPDATE loans SET margin_call_at_ms = $2, margin_call_tick_id = $3 WHERE id = $1', [locked.id, nowMs, price.tickId]);
        await messageUser(
          tx,
          locked.user_id,
          { title: 'notify.loan.marginCall.title', body: 'notify.loan.marginCall.body' },
          {
            loanNo: locked.loan_no,
            asset: locked.collateral_asset,
            price: price.view.price ?? '1',
            tickId: price.tickId?.toString() ?? '—',
            ltv: ppmAsPercent(ltvOf(locked, price)),
            liquidationLtv: ppmAsPercent(locked.liquidation_ltv_ppm),
          },
          new Date(nowMs),
        );
        return { loanId: locked.id, userId: locked.user_id, status: 'passed', kind: 'margin_call' };
      }
      return null;
    });
    if (outcome) outcomes.push(outcome);
  }
  return outcomes;
}

/** One pass: due dates first (a loan past due is settled as due, not by price), then the ratios. */
export async function sweepLoans(deps: Pick<Deps, 'db' | 'now' | 'market' | 'config' | 'events' | 'logger'>): Promise<LoanOutcome[]> {
  const outcomes = [...(await liquidateDueLoans(deps)), ...(await sweepLoanRatios(deps))];
  for (const outcome of outcomes) {
    await publishToUser(deps, outcome.userId, { kind: 'loan', loanId: outcome.loanId.toString(), status: outcome.status });
    await publishToUser(deps, outcome.userId, { kind: 'message', unread: true });
  }
  return outcomes;
}

/** The loan job of one node: a pass every `intervalMs`; a failed pass is logged and retried, nothing of it committed. */
export function startLoanSweeps(deps: Pick<Deps, 'db' | 'now' | 'market' | 'config' | 'events' | 'logger'>, intervalMs = LOAN_SWEEP_INTERVAL_MS): { stop: () => Promise<void> } {
  return startPeriodicPass(
    async () => {
      const outcomes = await sweepLoans(deps);
      if (outcomes.length > 0) deps.logger.info({ loans: outcomes.length, liquidated: outcomes.filter((each) => each.status === 'liquidated').length }, 'loans: swept');
    },
    { intervalMs, logger: deps.logger, failure: 'loans: sweep failed' },
  );
}
