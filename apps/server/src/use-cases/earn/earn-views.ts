import { AppError, EARN_TERMS_VERSION, type EarnOverview, type EarnProduct, type EarnSubscription } from '@keel/contracts';
import {
  dailyInterestMinor,
  type EarnKind,
  earlyRedemptionPenaltyMinor,
  estimatedIncomeMinor,
  formatAmount,
  ppmAsPercent,
  remainingDaysAt,
} from '@keel/domain';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import { assetScales } from '../assets/account-balances.ts';
import { EARN_TREASURY_LABEL } from './earn-support.ts';


export interface EarnProductRow {
  id: bigint;
  kind: EarnKind;
  name: string;
  asset: string;
  cycle_days: number;
  daily_rate_ppm: number;
  penalty_rate_ppm: number;
  payout_minute_utc: number;
  early_redemption: boolean;
  min_amount_minor: string;
  max_amount_minor: string;
  user_quota_minor: string;
  total_quota_minor: string;
  active_minor: string;
  open: boolean;
  terms_version: number;
}

export const PRODUCT_COLUMNS = `id, kind, name, asset, cycle_days, daily_rate_ppm, penalty_rate_ppm, payout_minute_utc, early_redemption,
  min_amount_minor::text AS min_amount_minor, max_amount_minor::text AS max_amount_minor, user_quota_minor::text AS user_quota_minor,
  total_quota_minor::text AS total_quota_minor, active_minor::text AS active_minor, open, terms_version`;

export interface EarnSubscriptionRow {
  id: bigint;
  subscription_no: string;
  user_id: bigint;
  product_id: bigint;
  product_name: string;
  kind: EarnKind;
  asset: string;
  principal_minor: string;
  terms_version: number;
  cycle_days: number;
  daily_rate_ppm: number;
  penalty_rate_ppm: number;
  payout_minute_utc: number;
  early_redemption: boolean;
  subscribed_at_ms: bigint;
  matures_at_ms: bigint;
  paid_days: number;
  interest_paid_minor: string;
  next_payout_at_ms: bigint | null;
  status: EarnSubscription['status'];
  account_id: bigint;
  hold_id: bigint;
  subscribe_entry_id: bigint;
  closed_at_ms: bigint | null;
  penalty_minor: string | null;
  close_entry_id: bigint | null;
}

/** Columns of `earn_subscriptions s JOIN earn_products p`. */
export const SUBSCRIPTION_COLUMNS = `s.id, s.subscription_no, s.user_id, s.product_id, p.name AS product_name, p.kind, s.asset,
  s.principal_minor::text AS principal_minor, s.terms_version, s.cycle_days, s.daily_rate_ppm, s.penalty_rate_ppm, s.payout_minute_utc,
  s.early_redemption, s.subscribed_at_ms, s.matures_at_ms, s.paid_days, s.interest_paid_minor::text AS interest_paid_minor,
  s.next_payout_at_ms, s.status, s.account_id, s.hold_id, s.subscribe_entry_id, s.closed_at_ms, s.penalty_minor::text AS penalty_minor,
  s.close_entry_id`;

const timeOfDay = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

function scaleOf(scales: ReadonlyMap<string, number>, asset: string): number {
  const scale = scales.get(asset);
  if (scale === undefined) throw new Error(`unknown asset ${asset}`);
  return scale;
}

export function productView(row: EarnProductRow, scale: number, userActiveMinor: bigint): EarnProduct {
  const amount = (minor: bigint | string) => formatAmount(toMinor(minor), scale);
  return {
    id: row.id.toString(),
    kind: row.kind,
    name: row.name,
    asset: row.asset,
    cycleDays: row.cycle_days,
    dailyRatePercent: ppmAsPercent(row.daily_rate_ppm),
    dailyRatePpm: row.daily_rate_ppm,
    penaltyRatePercent: ppmAsPercent(row.penalty_rate_ppm),
    penaltyRatePpm: row.penalty_rate_ppm,
    earlyRedemption: row.early_redemption,
    payoutTimeUtc: timeOfDay(row.payout_minute_utc),
    payoutMinuteUtc: row.payout_minute_utc,
    minAmount: amount(row.min_amount_minor),
    maxAmount: amount(row.max_amount_minor),
    userQuota: amount(row.user_quota_minor),
    totalQuota: amount(row.total_quota_minor),
    remainingQuota: amount(toMinor(row.total_quota_minor) - toMinor(row.active_minor)),
    userActive: amount(userActiveMinor),
    open: row.open,
    termsVersion: row.terms_version,
  };
}

export function subscriptionView(
  row: EarnSubscriptionRow,
  scale: number,
  nowMs: number,
  payouts: { day: number; due_at_ms: bigint; paid_at_ms: bigint; interest_minor: string; entry_id: bigint | null }[] = [],
): EarnSubscription {
  const amount = (minor: bigint) => formatAmount(minor, scale);
  const principal = toMinor(row.principal_minor);
  const active = row.status === 'active';
  const subscribedAtMs = Number(row.subscribed_at_ms);
  const remainingDays = active ? remainingDaysAt(subscribedAtMs, row.payout_minute_utc, row.cycle_days, nowMs) : 0;
  const penalty = row.penalty_minor === null ? null : toMinor(row.penalty_minor);
  return {
    id: row.id.toString(),
    subscriptionNo: row.subscription_no,
    productId: row.product_id.toString(),
    productName: row.product_name,
    kind: row.kind,
    asset: row.asset,
    principal: amount(principal),
    termsVersion: row.terms_version,
    cycleDays: row.cycle_days,
    dailyRatePercent: ppmAsPercent(row.daily_rate_ppm),
    penaltyRatePercent: ppmAsPercent(row.penalty_rate_ppm),
    earlyRedemption: row.early_redemption,
    payoutTimeUtc: timeOfDay(row.payout_minute_utc),
    dailyInterest: amount(dailyInterestMinor(principal, row.daily_rate_ppm)),
    estimatedIncome: amount(estimatedIncomeMinor(principal, row.daily_rate_ppm, row.cycle_days)),
    subscribedAtMs,
    maturesAtMs: Number(row.matures_at_ms),
    nextPayoutAtMs: row.next_payout_at_ms === null ? null : Number(row.next_payout_at_ms),
    paidDays: row.paid_days,
    remainingDays,
    interestPaid: amount(toMinor(row.interest_paid_minor)),
    penaltyIfRedeemedNow:
      active && row.early_redemption ? amount(earlyRedemptionPenaltyMinor(principal, row.penalty_rate_ppm, remainingDays)) : null,
    status: row.status,
    closedAtMs: row.closed_at_ms === null ? null : Number(row.closed_at_ms),
    penalty: penalty === null ? null : amount(penalty),
    returned: active ? null : amount(principal - (penalty ?? 0n)),
    subscribeEntryId: row.subscribe_entry_id.toString(),
    closeEntryId: row.close_entry_id === null ? null : row.close_entry_id.toString(),
    payouts: payouts.map((payout) => ({
      day: payout.day,
      dueAtMs: Number(payout.due_at_ms),
      paidAtMs: Number(payout.paid_at_ms),
      interest: amount(toMinor(payout.interest_minor)),
      entryId: payout.entry_id === null ? null : payout.entry_id.toString(),
    })),
  };
}

/** One subscription of the user's (or of anyone's, without `userId`), as the API shows it, with every payout. */
export async function readSubscription(db: Queryable, subscriptionId: bigint, nowMs: number, userId?: bigint): Promise<EarnSubscription | null> {
  const [row] = await db.query<EarnSubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM earn_subscriptions s JOIN earn_products p ON p.id = s.product_id
     WHERE s.id = $1 AND ($2::bigint IS NULL OR s.user_id = $2)`,
    [subscriptionId, userId ?? null],
  );
  if (!row) return null;
  const payouts = await db.query<{ day: number; due_at_ms: bigint; paid_at_ms: bigint; interest_minor: string; entry_id: bigint | null }>(
    'SELECT day, due_at_ms, paid_at_ms, interest_minor::text AS interest_minor, entry_id FROM earn_payouts WHERE subscription_id = $1 ORDER BY day DESC',
    [subscriptionId],
  );
  return subscriptionView(row, scaleOf(await assetScales(db), row.asset), nowMs, payouts);
}

export async function findSubscription(deps: Pick<Deps, 'db' | 'now'>, userId: bigint, subscriptionId: bigint): Promise<EarnSubscription> {
  const view = await readSubscription(deps.db, subscriptionId, deps.now().getTime(), userId);
  if (!view) throw new AppError('RECORD_NOT_FOUND');
  return view;
}

export async function listSubscriptions(
  deps: Pick<Deps, 'db' | 'now'>,
  input: { userId: bigint; scope: 'active' | 'ended'; page: number; pageSize: number },
) {
  const active = input.scope === 'active';
  const where = `s.user_id = $1 AND ${active ? "s.status = 'active'" : "s.status <> 'active'"}`;
  const rows = await deps.db.query<EarnSubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM earn_subscriptions s JOIN earn_products p ON p.id = s.product_id
     WHERE ${where} ORDER BY ${active ? 's.matures_at_ms, s.id' : 's.closed_at_ms DESC, s.id DESC'} LIMIT $2 OFFSET $3`,
    [input.userId, input.pageSize, (input.page - 1) * input.pageSize],
  );
  const [count] = await deps.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM earn_subscriptions s WHERE ${where}`, [input.userId]);
  const scales = await assetScales(deps.db);
  const nowMs = deps.now().getTime();
  return { items: rows.map((row) => subscriptionView(row, scaleOf(scales, row.asset), nowMs)), total: count!.total, page: input.page, pageSize: input.pageSize };
}

/** The products, the treasuries that pay them with what they owe, the user's acknowledgement and coin balances. */
export async function earnOverview(deps: Pick<Deps, 'db' | 'now'>, userId: bigint, kind?: EarnKind): Promise<EarnOverview> {
  const products = await deps.db.query<EarnProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM earn_products WHERE ($1::text IS NULL OR kind = $1) ORDER BY open DESC, kind, id`,
    [kind ?? null],
  );
  const mine = await deps.db.query<{ product_id: bigint; active: string }>(
    `SELECT product_id, sum(principal_minor)::text AS active FROM earn_subscriptions WHERE user_id = $1 AND status = 'active' GROUP BY product_id`,
    [userId],
  );
  const activeByProduct = new Map(mine.map((row) => [row.product_id, toMinor(row.active)]));
  const scales = await assetScales(deps.db);
  const assets = [...new Set(products.map((product) => product.asset))].sort();
  const treasuries = await deps.db.query<{ asset: string; id: bigint; balance: string; owed: string }>(
    `SELECT x.asset, a.id, coalesce(a.available_minor, 0)::text AS balance, coalesce(o.owed_minor, 0)::text AS owed
       FROM unnest($1::text[]) AS x(asset)
       LEFT JOIN ledger_accounts a ON a.user_id IS NULL AND a.kind = 'treasury' AND a.label = $2 AND a.asset = x.asset
       LEFT JOIN earn_obligations o ON o.asset = x.asset
      ORDER BY x.asset`,
    [assets, EARN_TREASURY_LABEL],
  );
  const [ack] = await deps.db.query<{ accepted_at: Date }>('SELECT accepted_at FROM earn_acknowledgements WHERE user_id = $1 AND version = $2', [
    userId,
    EARN_TERMS_VERSION,
  ]);
  const balances = await deps.db.query<{ asset: string; available: string }>(
    `SELECT x.asset, coalesce(a.available_minor, 0)::text AS available FROM unnest($2::text[]) AS x(asset)
     LEFT JOIN ledger_accounts a ON a.user_id = $1 AND a.kind = 'coin' AND a.asset = x.asset ORDER BY x.asset`,
    [userId, assets],
  );
  return {
    products: products.map((row) => productView(row, scaleOf(scales, row.asset), activeByProduct.get(row.id) ?? 0n)),
    treasuries: treasuries
      // A treasury account is made when it is first funded; until then there is nothing to show but zero.
      .map((row) => ({
        asset: row.asset,
        accountId: (row.id ?? 0n).toString(),
        balance: formatAmount(toMinor(row.balance), scaleOf(scales, row.asset)),
        owed: formatAmount(toMinor(row.owed), scaleOf(scales, row.asset)),
      }))
      .filter((row) => row.accountId !== '0'),
    acknowledgement: { version: EARN_TERMS_VERSION, acceptedAt: ack?.accepted_at.toISOString() ?? null },
    balances: balances.map((row) => ({ asset: row.asset, available: formatAmount(toMinor(row.available), scaleOf(scales, row.asset)) })),
    serverTimeMs: deps.now().getTime(),
  };
}
