import { AppError, type LoanAgreement, type LoanPrice, type LoansOverview, type LoanView } from '@keel/contracts';
import {
  CREDIT_SCORE_BANDS,
  CREDIT_SCORE_RULE,
  chargeInterestTo,
  collateralCreditMinor,
  collateralValueMinor,
  formatAmount,
  formatPriceMinor,
  LOAN_ASSET,
  LOAN_ASSET_SCALE,
  LOAN_COLLATERAL_ASSETS,
  LOAN_TIER_CAP_USDT,
  loanDaysBegun,
  loanHealth,
  loanInterestMinor,
  loanLtvPpm,
  owedOf,
  ppmAsPercent,
  priceAtLtvMinor,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { parseUserAmount } from '../amount-input.ts';
import { assetScales } from '../assets/account-balances.ts';
import { findLoanProductRow, type LoanProductRow, loanProductTerms, readLoanProducts } from './loan-products.ts';
import type { LoanTerms } from '@keel/domain';
import { type BorrowerCredit, borrowerCredit, collateralPriceOrFail, latestCollateralPrice, lenderView, unpricedView } from './loans-support.ts';

const usdt = (minor: bigint) => formatAmount(minor, LOAN_ASSET_SCALE);

export interface LoanRow {
  id: bigint;
  loan_no: string;
  user_id: bigint;
  product_id: bigint;
  product_name: string;
  amount_minor: string;
  terms_version: number;
  cycle_days: number;
  daily_rate_ppm: number;
  margin_call_ltv_ppm: number;
  liquidation_ltv_ppm: number;
  agreement_accepted_at_ms: bigint;
  collateral_asset: string;
  collateral_minor: string;
  collateral_ltv_ppm: number;
  collateral_account_id: bigint;
  hold_id: bigint;
  pledge_entry_id: bigint;
  applied_tick_id: bigint | null;
  applied_price: string | null;
  holding_upload_id: bigint;
  applied_at_ms: bigint;
  status: LoanView['status'];
  approvals_required: 1 | 2;
  approvals: number;
  decided_at_ms: bigint | null;
  reject_reason: string | null;
  disburse_entry_id: bigint | null;
  started_at_ms: bigint | null;
  due_at_ms: bigint | null;
  principal_outstanding_minor: string;
  interest_unpaid_minor: string;
  charged_days: number;
  interest_paid_minor: string;
  repaid_minor: string;
  margin_call_at_ms: bigint | null;
  margin_call_tick_id: bigint | null;
  closed_at_ms: bigint | null;
  close_entry_id: bigint | null;
  liquidation_kind: 'due' | 'price' | null;
  liquidation_tick_id: bigint | null;
  liquidation_price: string | null;
  sold_minor: string | null;
  shortfall_minor: string | null;
}

export const LOAN_COLUMNS = `l.id, l.loan_no, l.user_id, l.product_id, p.name AS product_name, l.amount_minor::text AS amount_minor, l.terms_version,
  l.cycle_days, l.daily_rate_ppm, l.margin_call_ltv_ppm, l.liquidation_ltv_ppm, l.agreement_accepted_at_ms, l.collateral_asset,
  l.collateral_minor::text AS collateral_minor, l.collateral_ltv_ppm, l.collateral_account_id, l.hold_id, l.pledge_entry_id, l.applied_tick_id,
  l.applied_price, l.holding_upload_id, l.applied_at_ms, l.status, l.approvals_required,
  (SELECT count(*)::int FROM loan_reviews r WHERE r.loan_id = l.id AND r.decision = 'approve') AS approvals,
  l.decided_at_ms, l.reject_reason, l.disburse_entry_id, l.started_at_ms, l.due_at_ms,
  l.principal_outstanding_minor::text AS principal_outstanding_minor, l.interest_unpaid_minor::text AS interest_unpaid_minor, l.charged_days,
  l.interest_paid_minor::text AS interest_paid_minor, l.repaid_minor::text AS repaid_minor, l.margin_call_at_ms, l.margin_call_tick_id,
  l.closed_at_ms, l.close_entry_id, l.liquidation_kind, l.liquidation_tick_id, l.liquidation_price, l.sold_minor::text AS sold_minor,
  l.shortfall_minor::text AS shortfall_minor`;

export const LOAN_FROM = 'loans l JOIN loan_products p ON p.id = l.product_id';

/** The balance a passed loan's row stores. */
export function balanceOf(row: Pick<LoanRow, 'principal_outstanding_minor' | 'interest_unpaid_minor' | 'charged_days'>) {
  return { principalMinor: toMinor(row.principal_outstanding_minor), interestMinor: toMinor(row.interest_unpaid_minor), chargedDays: row.charged_days };
}

/** What a passed loan owes at `nowMs`: interest charged for each day begun (in memory: nothing is written by a read). */
export function owedAt(row: LoanRow, nowMs: number): { owedMinor: bigint; daysBegun: number } {
  const daysBegun = loanDaysBegun(Number(row.started_at_ms), nowMs, row.cycle_days);
  return { owedMinor: owedOf(chargeInterestTo(balanceOf(row), row.daily_rate_ppm, daysBegun)), daysBegun };
}

export function loanView(row: LoanRow, scales: ReadonlyMap<string, number>, nowMs: number, price: LoanPrice | null, priceMinor: bigint | null): LoanView {
  const scale = scales.get(row.collateral_asset) ?? 0;
  const amount = toMinor(row.amount_minor);
  const collateral = toMinor(row.collateral_minor);
  const interest = loanInterestMinor(amount, row.daily_rate_ppm, row.cycle_days);
  const passed = row.status === 'passed';
  const owed = passed ? owedAt(row, nowMs) : null;
  const priced = price !== null && (row.collateral_asset === LOAN_ASSET || priceMinor !== null);
  const ltvPpm = owed && priced ? loanLtvPpm(owed.owedMinor, collateralValueMinor(row.collateral_asset, collateral, scale, priceMinor)) : null;
  // The thresholds as prices of the collateral, for what is owed at full term.
  const thresholdBase = passed ? owedOf(chargeInterestTo(balanceOf(row), row.daily_rate_ppm, row.cycle_days)) : amount + interest;
  const atRatio = (ltv: number) =>
    row.collateral_asset === LOAN_ASSET || !(row.status === 'pending' || passed) ? null : formatPriceMinor(priceAtLtvMinor(thresholdBase, collateral, scale, ltv)!);
  const sold = row.sold_minor === null ? null : toMinor(row.sold_minor);
  return {
    id: row.id.toString(),
    loanNo: row.loan_no,
    productId: row.product_id.toString(),
    productName: row.product_name,
    asset: 'USDT',
    amount: usdt(amount),
    cycleDays: row.cycle_days,
    dailyRatePercent: ppmAsPercent(row.daily_rate_ppm),
    interest: usdt(interest),
    totalDue: usdt(amount + interest),
    termsVersion: row.terms_version,
    agreementAcceptedAtMs: Number(row.agreement_accepted_at_ms),
    collateralAsset: row.collateral_asset,
    collateralAmount: formatAmount(collateral, scale),
    collateralLtvPercent: ppmAsPercent(row.collateral_ltv_ppm),
    marginCallLtvPercent: ppmAsPercent(row.margin_call_ltv_ppm),
    liquidationLtvPercent: ppmAsPercent(row.liquidation_ltv_ppm),
    appliedAtMs: Number(row.applied_at_ms),
    appliedPrice: {
      asset: row.collateral_asset,
      symbol: row.collateral_asset === LOAN_ASSET ? null : `${row.collateral_asset}/${LOAN_ASSET}`,
      price: row.applied_price,
      tickId: row.applied_tick_id?.toString() ?? null,
      atMs: null,
    },
    status: row.status,
    approvalsRequired: row.approvals_required,
    approvals: row.approvals,
    decidedAtMs: row.decided_at_ms === null ? null : Number(row.decided_at_ms),
    rejectReason: row.reject_reason,
    startedAtMs: row.started_at_ms === null ? null : Number(row.started_at_ms),
    dueAtMs: row.due_at_ms === null ? null : Number(row.due_at_ms),
    daysBegun: owed?.daysBegun ?? null,
    owedNow: owed ? usdt(owed.owedMinor) : null,
    principalOutstanding: usdt(toMinor(row.principal_outstanding_minor)),
    interestPaid: usdt(toMinor(row.interest_paid_minor)),
    repaid: usdt(toMinor(row.repaid_minor)),
    ltvPercent: ltvPpm === null ? null : ppmAsPercent(Math.min(ltvPpm, 99_999_999)),
    health: ltvPpm === null ? null : loanHealth(ltvPpm, { marginCallLtvPpm: row.margin_call_ltv_ppm, liquidationLtvPpm: row.liquidation_ltv_ppm }),
    marginCallPrice: atRatio(row.margin_call_ltv_ppm),
    liquidationPrice: atRatio(row.liquidation_ltv_ppm),
    price: passed || row.status === 'pending' ? price : null,
    marginCall: row.margin_call_at_ms === null ? null : { atMs: Number(row.margin_call_at_ms), tickId: row.margin_call_tick_id?.toString() ?? null },
    closedAtMs: row.closed_at_ms === null ? null : Number(row.closed_at_ms),
    liquidation:
      row.liquidation_kind === null
        ? null
        : {
            kind: row.liquidation_kind,
            tickId: row.liquidation_tick_id?.toString() ?? null,
            price: row.liquidation_price ?? '1',
            sold: formatAmount(sold ?? 0n, scale),
            released: formatAmount(collateral - (sold ?? 0n), scale),
            repaid: usdt(toMinor(row.repaid_minor)),
            shortfall: usdt(toMinor(row.shortfall_minor ?? '0')),
          },
    pledgeEntryId: row.pledge_entry_id.toString(),
    disburseEntryId: row.disburse_entry_id?.toString() ?? null,
    closeEntryId: row.close_entry_id?.toString() ?? null,
    repayments: [],
  };
}

/** Loan rows as views, each valued at its collateral's latest recorded price. */
export async function loanViews(deps: Pick<Deps, 'market' | 'config'>, db: Queryable, rows: readonly LoanRow[], nowMs: number): Promise<LoanView[]> {
  const scales = await assetScales(db);
  return rows.map((row) => {
    const price = latestCollateralPrice(deps, row.collateral_asset, nowMs);
    return loanView(row, scales, nowMs, price?.view ?? unpricedView(row.collateral_asset), price?.priceMinor ?? null);
  });
}

/** One loan with its repayments, for its borrower (`userId`) or for staff (undefined). */
export async function readLoan(deps: Pick<Deps, 'market' | 'config'>, db: Queryable, loanId: bigint, nowMs: number, userId?: bigint): Promise<LoanView | null> {
  const [row] = await db.query<LoanRow>(`SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.id = $1 AND ($2::bigint IS NULL OR l.user_id = $2)`, [
    loanId,
    userId ?? null,
  ]);
  if (!row) return null;
  const [view] = await loanViews(deps, db, [row], nowMs);
  const repayments = await db.query<{ id: bigint; amount_minor: string; interest_minor: string; principal_minor: string; source: 'borrower' | 'collateral'; entry_id: bigint; at_ms: bigint }>(
    `SELECT id, amount_minor::text AS amount_minor, interest_minor::text AS interest_minor, principal_minor::text AS principal_minor, source, entry_id, at_ms
       FROM loan_repayments WHERE loan_id = $1 ORDER BY id DESC`,
    [loanId],
  );
  view!.repayments = repayments.map((each) => ({
    id: each.id.toString(),
    amount: usdt(toMinor(each.amount_minor)),
    interest: usdt(toMinor(each.interest_minor)),
    principal: usdt(toMinor(each.principal_minor)),
    source: each.source,
    entryId: each.entry_id.toString(),
    atMs: Number(each.at_ms),
  }));
  return view!;
}

export async function findLoan(deps: Pick<Deps, 'db' | 'market' | 'config' | 'now'>, userId: bigint, loanId: bigint): Promise<LoanView> {
  const view = await readLoan(deps, deps.db, loanId, deps.now().getTime(), userId);
  if (!view) throw new AppError('RECORD_NOT_FOUND');
  return view;
}

export async function listLoans(
  deps: Pick<Deps, 'db' | 'market' | 'config' | 'now'>,
  input: { userId: bigint; scope: 'open' | 'closed'; page: number; pageSize: number },
) {
  const statuses = input.scope === 'open' ? ['pending', 'passed'] : ['rejected', 'repaid', 'liquidated'];
  const rows = await deps.db.query<LoanRow>(
    `SELECT ${LOAN_COLUMNS} FROM ${LOAN_FROM} WHERE l.user_id = $1 AND l.status = ANY($2::text[]) ORDER BY l.id DESC LIMIT $3 OFFSET $4`,
    [input.userId, statuses, input.pageSize, (input.page - 1) * input.pageSize],
  );
  const [count] = await deps.db.query<{ total: number }>('SELECT count(*)::int AS total FROM loans WHERE user_id = $1 AND status = ANY($2::text[])', [
    input.userId,
    statuses,
  ]);
  return { items: await loanViews(deps, deps.db, rows, deps.now().getTime()), total: count!.total, page: input.page, pageSize: input.pageSize };
}

export function creditView(credit: BorrowerCredit): LoansOverview['credit'] {
  return {
    tier: credit.tier,
    tierCap: usdt(LOAN_TIER_CAP_USDT[credit.tier] * 10n ** BigInt(LOAN_ASSET_SCALE)),
    history: credit.history,
    score: credit.score.score,
    scoreParts: credit.score.parts,
    capMultiplierPercent: ppmAsPercent(credit.score.capMultiplierPpm),
    cap: usdt(credit.capMinor),
    committed: usdt(credit.committedMinor),
    available: usdt(credit.availableMinor),
  };
}

/** The published credit policy: the numbers `borrowerCredit` and the review use. */
export function publishedCreditPolicy(config: Deps['config']): LoansOverview['policy'] {
  return {
    tierCapsUsdt: { none: LOAN_TIER_CAP_USDT[0].toString(), identity: LOAN_TIER_CAP_USDT[1].toString(), advanced: LOAN_TIER_CAP_USDT[2].toString() },
    score: { ...CREDIT_SCORE_RULE },
    bands: CREDIT_SCORE_BANDS.map((band) => ({ minScore: band.minScore, capMultiplierPercent: ppmAsPercent(band.capMultiplierPpm) })),
    twoPersonAboveUsdt: config.LOAN_TWO_PERSON_ABOVE_USDT.toString(),
  };
}

export async function loansOverview(deps: Pick<Deps, 'db' | 'market' | 'config' | 'now'>, userId: bigint): Promise<LoansOverview> {
  const nowMs = deps.now().getTime();
  const products = await readLoanProducts(deps.db);
  const credit = await borrowerCredit(deps.db, userId);
  const scales = await assetScales(deps.db);
  const assets = [...LOAN_COLLATERAL_ASSETS];
  const balances = await deps.db.query<{ asset: string; available: string }>(
    `SELECT x.asset, coalesce(a.available_minor, 0)::text AS available FROM unnest($2::text[]) AS x(asset)
     LEFT JOIN ledger_accounts a ON a.user_id = $1 AND a.kind = 'coin' AND a.asset = x.asset ORDER BY x.asset`,
    [userId, assets],
  );
  const lender = await lenderView(deps.db);
  return {
    products,
    credit: creditView(credit),
    policy: publishedCreditPolicy(deps.config),
    prices: assets.map((asset) => latestCollateralPrice(deps, asset, nowMs)?.view ?? unpricedView(asset)),
    balances: balances.map((row) => ({ asset: row.asset, available: formatAmount(toMinor(row.available), scales.get(row.asset) ?? 0) })),
    lender: { accountId: lender.accountId?.toString() ?? null, balance: usdt(lender.balanceMinor) },
    serverTimeMs: nowMs,
  };
}

export interface PledgeInput {
  productId: bigint;
  amount: string;
  collateralAsset: string;
  collateralAmount: string;
}

export interface PledgeTerms {
  product: LoanProductRow;
  terms: LoanTerms;
  amountMinor: bigint;
  collateralMinor: bigint;
  collateralScale: number;
  ltvPpm: number;
}

/** The product and the numbers of an application or agreement, parsed and checked against the product's collateral list. */
export async function pledgeTerms(db: Queryable, input: PledgeInput): Promise<PledgeTerms> {
  const product = await findLoanProductRow(db, input.productId);
  if (!product) throw new AppError('PRODUCT_NOT_FOUND');
  const terms = loanProductTerms(product);
  const term = terms.collateral.find((each) => each.asset === input.collateralAsset);
  if (!term) throw new AppError('PARAMETER_ERROR', { field: 'collateralAsset', problem: 'not_accepted' });
  const collateralScale = (await assetScales(db)).get(input.collateralAsset)!;
  return {
    product,
    terms,
    amountMinor: parseUserAmount(input.amount, LOAN_ASSET_SCALE, 'amount'),
    collateralMinor: parseUserAmount(input.collateralAmount, collateralScale, 'collateralAmount'),
    collateralScale,
    ltvPpm: term.ltvPpm,
  };
}

/** The agreement for these numbers at the latest recorded price: the product's terms and the borrower's figures. */
export async function loanAgreement(deps: Pick<Deps, 'db' | 'market' | 'config' | 'now'>, input: PledgeInput): Promise<LoanAgreement> {
  const pledge = await pledgeTerms(deps.db, input);
  const price = collateralPriceOrFail(deps, input.collateralAsset, deps.now().getTime());
  const { product, amountMinor, collateralMinor, collateralScale } = pledge;
  const interest = loanInterestMinor(amountMinor, product.daily_rate_ppm, product.cycle_days);
  const value = collateralValueMinor(input.collateralAsset, collateralMinor, collateralScale, price.priceMinor);
  const atRatio = (ltv: number) =>
    input.collateralAsset === LOAN_ASSET ? null : formatPriceMinor(priceAtLtvMinor(amountMinor + interest, collateralMinor, collateralScale, ltv)!);
  return {
    version: product.terms_version,
    productId: product.id.toString(),
    productName: product.name,
    amount: usdt(amountMinor),
    cycleDays: product.cycle_days,
    dailyRatePercent: ppmAsPercent(product.daily_rate_ppm),
    interest: usdt(interest),
    totalDue: usdt(amountMinor + interest),
    collateralAsset: input.collateralAsset,
    collateralAmount: formatAmount(collateralMinor, collateralScale),
    collateralValue: usdt(value),
    collateralLtvPercent: ppmAsPercent(pledge.ltvPpm),
    pledgeCredit: usdt(collateralCreditMinor(value, pledge.ltvPpm)),
    marginCallLtvPercent: ppmAsPercent(product.margin_call_ltv_ppm),
    liquidationLtvPercent: ppmAsPercent(product.liquidation_ltv_ppm),
    marginCallPrice: atRatio(product.margin_call_ltv_ppm),
    liquidationPrice: atRatio(product.liquidation_ltv_ppm),
    price: price.view,
  };
}
