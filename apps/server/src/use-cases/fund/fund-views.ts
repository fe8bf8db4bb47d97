import { AppError, type FundInvestmentView, type FundRequestView } from '@keel/contracts';
import {
  FUND_COLLATERAL_LTV_PPM,
  FUND_CREDIT_RATING_BANDS,
  FUND_INVESTMENT_RATING_BANDS,
  FUND_LIMITS,
  formatAmount,
  fundInterestMinor,
  LOAN_ASSET_SCALE,
  LOAN_COLLATERAL_ASSETS,
  mulDiv,
  ppmAsPercent,
  publicUserName,
  releaseSchedule,
  tierOf,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { assetScales } from '../assets/account-balances.ts';
import { latestCollateralPrice, unpricedView } from '../loans/loans-support.ts';
import { verificationStatesOf } from '../verification/submit-verification.ts';
import { escrowView } from './fund-support.ts';

const usdt = (minor: bigint) => formatAmount(minor, LOAN_ASSET_SCALE);

export interface FundRequestRow {
  id: bigint;
  request_no: string;
  user_id: bigint;
  nickname: string | null;
  username: string | null;
  email: string | null;
  phone: string | null;
  borrower_type: 'institution' | 'individual';
  title: string;
  purpose: string;
  amount_minor: string;
  daily_rate_ppm: number;
  term_days: number;
  tranches: number;
  release_period_days: number;
  window_hours: number;
  collateral_asset: string;
  collateral_minor: string;
  collateral_ltv_ppm: number;
  collateral_account_id: bigint;
  hold_id: bigint;
  pledge_entry_id: bigint;
  published_tick_id: bigint | null;
  published_price: string | null;
  credit_limit_minor: string;
  credit_rating: 'A' | 'B' | 'C' | 'D';
  credit_score: number;
  investment_rating: 'A' | 'B' | 'C' | 'D';
  collateral_cover_ppm: number;
  published_at_ms: bigint;
  status: FundRequestView['status'];
  reviewed_at_ms: bigint | null;
  reject_reason: string | null;
  opened_at_ms: bigint | null;
  window_ends_at_ms: bigint | null;
  raised_minor: string;
  investors: number;
  filled_at_ms: bigint | null;
  fill_entry_id: bigint | null;
  released_tranches: number;
  released_minor: string;
  next_release_at_ms: bigint | null;
  due_at_ms: bigint | null;
  closed_at_ms: bigint | null;
  close_entry_id: bigint | null;
  default_tick_id: bigint | null;
  default_price: string | null;
  sold_minor: string | null;
  paid_out_minor: string | null;
  shortfall_minor: string | null;
}

export const REQUEST_COLUMNS = `r.id, r.request_no, r.user_id, u.nickname, u.username, u.email, u.phone, r.borrower_type, r.title, r.purpose,
  r.amount_minor::text AS amount_minor, r.daily_rate_ppm, r.term_days, r.tranches, r.release_period_days, r.window_hours, r.collateral_asset,
  r.collateral_minor::text AS collateral_minor, r.collateral_ltv_ppm, r.collateral_account_id, r.hold_id, r.pledge_entry_id, r.published_tick_id,
  r.published_price, r.credit_limit_minor::text AS credit_limit_minor, r.credit_rating, r.credit_score, r.investment_rating, r.collateral_cover_ppm,
  r.published_at_ms, r.status, r.reviewed_at_ms, r.reject_reason, r.opened_at_ms, r.window_ends_at_ms, r.raised_minor::text AS raised_minor,
  r.investors, r.filled_at_ms, r.fill_entry_id, r.released_tranches, r.released_minor::text AS released_minor, r.next_release_at_ms, r.due_at_ms,
  r.closed_at_ms, r.close_entry_id, r.default_tick_id, r.default_price, r.sold_minor::text AS sold_minor, r.paid_out_minor::text AS paid_out_minor,
  r.shortfall_minor::text AS shortfall_minor`;
export const REQUEST_FROM = 'fund_requests r JOIN users u ON u.id = r.user_id';

/** What is due at term: the amount and its interest. */
export function totalDueOf(row: Pick<FundRequestRow, 'amount_minor' | 'daily_rate_ppm' | 'term_days'>): bigint {
  const amountMinor = toMinor(row.amount_minor);
  return amountMinor + fundInterestMinor({ amountMinor, dailyRatePpm: row.daily_rate_ppm, termDays: row.term_days });
}

interface ReleaseRow {
  request_id: bigint;
  tranche: number;
  released_at_ms: bigint;
  entry_id: bigint;
}

export function requestView(
  row: FundRequestRow,
  scales: ReadonlyMap<string, number>,
  context: { viewerId: bigint | null; myInvestmentMinor: bigint; releases: readonly ReleaseRow[] },
): FundRequestView {
  const scale = scales.get(row.collateral_asset) ?? 0;
  const amount = toMinor(row.amount_minor);
  const interest = totalDueOf(row) - amount;
  const raised = toMinor(row.raised_minor);
  const filledAtMs = row.filled_at_ms === null ? null : Number(row.filled_at_ms);
  const schedule = releaseSchedule(amount, row.tranches, row.release_period_days, filledAtMs ?? 0).map((tranche) => {
    const released = context.releases.find((each) => each.request_id === row.id && each.tranche === tranche.number);
    return {
      number: tranche.number,
      amount: usdt(tranche.amountMinor),
      releaseAtMs: filledAtMs === null ? null : tranche.releaseAtMs,
      releasedAtMs: released ? Number(released.released_at_ms) : null,
      entryId: released?.entry_id.toString() ?? null,
    };
  });
  const settled = row.status === 'repaid' || row.status === 'defaulted' || row.status === 'expired';
  return {
    id: row.id.toString(),
    requestNo: row.request_no,
    borrower: publicUserName({ id: row.user_id, nickname: row.nickname, username: row.username, email: row.email, phone: row.phone }),
    borrowerType: row.borrower_type,
    title: row.title,
    purpose: row.purpose,
    asset: 'USDT',
    amount: usdt(amount),
    dailyRatePercent: ppmAsPercent(row.daily_rate_ppm),
    termDays: row.term_days,
    interest: usdt(interest),
    totalDue: usdt(amount + interest),
    tranches: row.tranches,
    releasePeriodDays: row.release_period_days,
    windowHours: row.window_hours,
    collateralAsset: row.collateral_asset,
    collateralAmount: formatAmount(toMinor(row.collateral_minor), scale),
    collateralLtvPercent: ppmAsPercent(row.collateral_ltv_ppm),
    creditLimit: usdt(toMinor(row.credit_limit_minor)),
    publishedPrice: {
      asset: row.collateral_asset,
      symbol: row.collateral_asset === 'USDT' ? null : `${row.collateral_asset}/USDT`,
      price: row.published_price,
      tickId: row.published_tick_id?.toString() ?? null,
      atMs: null,
    },
    creditRating: row.credit_rating,
    creditScore: row.credit_score,
    investmentRating: row.investment_rating,
    collateralCoverPercent: ppmAsPercent(row.collateral_cover_ppm),
    status: row.status,
    publishedAtMs: Number(row.published_at_ms),
    reviewedAtMs: row.reviewed_at_ms === null ? null : Number(row.reviewed_at_ms),
    rejectReason: row.reject_reason,
    openedAtMs: row.opened_at_ms === null ? null : Number(row.opened_at_ms),
    windowEndsAtMs: row.window_ends_at_ms === null ? null : Number(row.window_ends_at_ms),
    raised: usdt(raised),
    remaining: usdt(amount - raised),
    investors: row.investors,
    filledAtMs,
    released: usdt(toMinor(row.released_minor)),
    dueAtMs: row.due_at_ms === null ? null : Number(row.due_at_ms),
    closedAtMs: row.closed_at_ms === null ? null : Number(row.closed_at_ms),
    schedule,
    settlement:
      settled && row.close_entry_id !== null
        ? {
            kind: row.status === 'expired' ? 'refunded' : row.status === 'repaid' ? 'repaid' : 'defaulted',
            paidOut: usdt(toMinor(row.paid_out_minor ?? '0')),
            tickId: row.default_tick_id?.toString() ?? null,
            price: row.default_price,
            sold: row.sold_minor === null ? null : formatAmount(toMinor(row.sold_minor), scale),
            shortfall: row.shortfall_minor === null ? null : usdt(toMinor(row.shortfall_minor)),
            entryId: row.close_entry_id.toString(),
          }
        : null,
    mine: context.viewerId === row.user_id,
    myInvestment: usdt(context.myInvestmentMinor),
  };
}

/** Rows as views for `viewerId` (null: staff), with each one's releases and the viewer's investment. */
export async function requestViews(db: Queryable, rows: readonly FundRequestRow[], viewerId: bigint | null): Promise<FundRequestView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id.toString());
  const scales = await assetScales(db);
  const releases = await db.query<ReleaseRow>('SELECT request_id, tranche, released_at_ms, entry_id FROM fund_releases WHERE request_id = ANY($1::bigint[])', [ids]);
  const mine =
    viewerId === null
      ? []
      : await db.query<{ request_id: bigint; total: string }>(
          `SELECT request_id, sum(amount_minor)::text AS total FROM fund_investments WHERE user_id = $1 AND request_id = ANY($2::bigint[]) AND status <> 'refunded'
           GROUP BY request_id`,
          [viewerId, ids],
        );
  return rows.map((row) =>
    requestView(row, scales, { viewerId, releases, myInvestmentMinor: toMinor(mine.find((each) => each.request_id === row.id)?.total ?? '0') }),
  );
}

/** One request as its viewer may see it: the borrower any of theirs; anyone else one that reached the pool. Null otherwise. */
export async function readRequest(db: Queryable, requestId: bigint, viewerId: bigint | null): Promise<FundRequestView | null> {
  const [row] = await db.query<FundRequestRow>(`SELECT ${REQUEST_COLUMNS} FROM ${REQUEST_FROM} WHERE r.id = $1`, [requestId]);
  if (!row) return null;
  const visible = viewerId === null || row.user_id === viewerId || row.opened_at_ms !== null;
  if (!visible) return null;
  const [view] = await requestViews(db, [row], viewerId);
  return view!;
}

export async function findRequest(deps: Pick<Deps, 'db'>, viewerId: bigint, requestId: bigint): Promise<FundRequestView> {
  const view = await readRequest(deps.db, requestId, viewerId);
  if (!view) throw new AppError('RECORD_NOT_FOUND');
  return view;
}

export async function listPool(deps: Pick<Deps, 'db'>, input: { viewerId: bigint; scope: 'open' | 'funded'; page: number; pageSize: number }) {
  const order = input.scope === 'open' ? 'r.window_ends_at_ms, r.id' : 'r.filled_at_ms DESC, r.id DESC';
  const rows = await deps.db.query<FundRequestRow>(`SELECT ${REQUEST_COLUMNS} FROM ${REQUEST_FROM} WHERE r.status = $1 ORDER BY ${order} LIMIT $2 OFFSET $3`, [
    input.scope,
    input.pageSize,
    (input.page - 1) * input.pageSize,
  ]);
  const [count] = await deps.db.query<{ total: number }>('SELECT count(*)::int AS total FROM fund_requests WHERE status = $1', [input.scope]);
  return { items: await requestViews(deps.db, rows, input.viewerId), total: count!.total, page: input.page, pageSize: input.pageSize };
}

export async function listMyRequests(deps: Pick<Deps, 'db'>, input: { userId: bigint; page: number; pageSize: number }) {
  const rows = await deps.db.query<FundRequestRow>(`SELECT ${REQUEST_COLUMNS} FROM ${REQUEST_FROM} WHERE r.user_id = $1 ORDER BY r.id DESC LIMIT $2 OFFSET $3`, [
    input.userId,
    input.pageSize,
    (input.page - 1) * input.pageSize,
  ]);
  const [count] = await deps.db.query<{ total: number }>('SELECT count(*)::int AS total FROM fund_requests WHERE user_id = $1', [input.userId]);
  return { items: await requestViews(deps.db, rows, input.userId), total: count!.total, page: input.page, pageSize: input.pageSize };
}

interface InvestmentRow {
  id: bigint;
  investment_no: string;
  request_id: bigint;
  request_no: string;
  title: string;
  amount_minor: string;
  invested_at_ms: bigint;
  status: FundInvestmentView['status'];
  request_status: FundInvestmentView['requestStatus'];
  request_amount_minor: string;
  daily_rate_ppm: number;
  term_days: number;
  due_at_ms: bigint | null;
  paid_minor: string | null;
  entry_id: bigint;
  paid_entry_id: bigint | null;
}

const INVESTMENT_SELECT = `SELECT i.id, i.investment_no, i.request_id, r.request_no, r.title, i.amount_minor::text AS amount_minor, i.invested_at_ms, i.status,
  r.status AS request_status, r.amount_minor::text AS request_amount_minor, r.daily_rate_ppm, r.term_days, r.due_at_ms, i.paid_minor::text AS paid_minor,
  i.entry_id, i.paid_entry_id
  FROM fund_investments i JOIN fund_requests r ON r.id = i.request_id`;

function investmentView(row: InvestmentRow): FundInvestmentView {
  const amount = toMinor(row.amount_minor);
  const requestAmount = toMinor(row.request_amount_minor);
  const totalDue = totalDueOf({ amount_minor: row.request_amount_minor, daily_rate_ppm: row.daily_rate_ppm, term_days: row.term_days });
  return {
    id: row.id.toString(),
    investmentNo: row.investment_no,
    requestId: row.request_id.toString(),
    requestNo: row.request_no,
    title: row.title,
    amount: usdt(amount),
    investedAtMs: Number(row.invested_at_ms),
    status: row.status,
    requestStatus: row.request_status,
    dailyRatePercent: ppmAsPercent(row.daily_rate_ppm),
    termDays: row.term_days,
    // The pro-rata part, rounded down (the last investor's remainder is not promised ahead).
    expectedReturn: usdt(mulDiv(totalDue, amount, requestAmount, 'floor')),
    dueAtMs: row.due_at_ms === null ? null : Number(row.due_at_ms),
    paid: row.paid_minor === null ? null : usdt(toMinor(row.paid_minor)),
    entryId: row.entry_id.toString(),
    paidEntryId: row.paid_entry_id?.toString() ?? null,
  };
}

export async function readInvestment(db: Queryable, investmentId: bigint, userId: bigint): Promise<FundInvestmentView | null> {
  const [row] = await db.query<InvestmentRow>(`${INVESTMENT_SELECT} WHERE i.id = $1 AND i.user_id = $2`, [investmentId, userId]);
  return row ? investmentView(row) : null;
}

export async function findInvestment(deps: Pick<Deps, 'db'>, userId: bigint, investmentId: bigint): Promise<FundInvestmentView> {
  const view = await readInvestment(deps.db, investmentId, userId);
  if (!view) throw new AppError('RECORD_NOT_FOUND');
  return view;
}

export async function listInvestments(deps: Pick<Deps, 'db'>, input: { userId: bigint; page: number; pageSize: number }) {
  const rows = await deps.db.query<InvestmentRow>(`${INVESTMENT_SELECT} WHERE i.user_id = $1 ORDER BY i.id DESC LIMIT $2 OFFSET $3`, [
    input.userId,
    input.pageSize,
    (input.page - 1) * input.pageSize,
  ]);
  const [count] = await deps.db.query<{ total: number }>('SELECT count(*)::int AS total FROM fund_investments WHERE user_id = $1', [input.userId]);
  return { items: rows.map(investmentView), total: count!.total, page: input.page, pageSize: input.pageSize };
}

export async function fundOverview(deps: Pick<Deps, 'db' | 'market' | 'config' | 'now'>, userId: bigint) {
  const nowMs = deps.now().getTime();
  const states = await verificationStatesOf(deps.db, userId);
  const tier = tierOf({ identityVerified: states.identity.status === 'verified', advancedVerified: states.advanced.status === 'verified' });
  const scales = await assetScales(deps.db);
  const assets = [...LOAN_COLLATERAL_ASSETS];
  const balances = await deps.db.query<{ asset: string; available: string }>(
    `SELECT x.asset, coalesce(a.available_minor, 0)::text AS available FROM unnest($2::text[]) AS x(asset)
     LEFT JOIN ledger_accounts a ON a.user_id = $1 AND a.kind = 'coin' AND a.asset = x.asset ORDER BY x.asset`,
    [userId, assets],
  );
  const escrow = await escrowView(deps.db);
  return {
    policy: {
      collateralLtvPercent: Object.fromEntries(Object.entries(FUND_COLLATERAL_LTV_PPM).map(([asset, ppm]) => [asset, ppmAsPercent(ppm)])),
      minAmount: usdt(FUND_LIMITS.minAmountMinor),
      maxAmount: usdt(FUND_LIMITS.maxAmountMinor),
      maxDailyRatePercent: ppmAsPercent(FUND_LIMITS.maxDailyRatePpm),
      maxTermDays: FUND_LIMITS.maxTermDays,
      maxTranches: FUND_LIMITS.maxTranches,
      minWindowHours: FUND_LIMITS.minWindowHours,
      maxWindowHours: FUND_LIMITS.maxWindowHours,
      minInvestment: usdt(FUND_LIMITS.minInvestmentMinor),
      creditRatingBands: FUND_CREDIT_RATING_BANDS.map((band) => ({ ...band })),
      investmentRatingBands: FUND_INVESTMENT_RATING_BANDS.map((band) => ({ rating: band.rating, minCoverPercent: ppmAsPercent(band.minCoverPpm) })),
    },
    tier,
    mayPublish: tier === 2,
    balances: balances.map((row) => ({ asset: row.asset, available: formatAmount(toMinor(row.available), scales.get(row.asset) ?? 0) })),
    escrow: { accountId: escrow.accountId?.toString() ?? null, balance: usdt(escrow.balanceMinor) },
    prices: assets.map((asset) => latestCollateralPrice(deps, asset, nowMs)?.view ?? unpricedView(asset)),
    serverTimeMs: nowMs,
  };
}
