import { DAY_MS } from '../market/ticker.ts';

/**
 * Earn products (issue 17, ADR 0035): lock-up mining and financial products. A subscription locks
 * a principal for a cycle of whole days, pays a daily interest at the product's payout time (UTC)
 * and returns the principal at maturity; redeemed early, it returns the principal less a penalty.
 * Every rule here is the one the server applies and the one the screens show, with the spec's
 * worked examples as tests (earn.test.ts).
 *
 * Rates are parts per million of the principal: 0.3 % a day is 3,000 ppm. Interest payouts round
 * down (the user is never paid a fraction the books do not hold), and so does the penalty (the user
 * is never charged a fraction more than the formula says).
 */

export const EARN_KINDS = ['lockup', 'financial'] as const;
export type EarnKind = (typeof EARN_KINDS)[number];

const MINUTE_MS = 60_000;
const PPM = 1_000_000n;

/** Longest cycle a product may have, in days. */
export const MAX_CYCLE_DAYS = 3_650;
/** Highest daily rate a product may publish: 1 % a day. Higher is not a product, it is a warning sign. */
export const MAX_DAILY_RATE_PPM = 10_000;
/** Highest early-redemption penalty rate per remaining day: 1 %. */
export const MAX_PENALTY_RATE_PPM = 10_000;

/** The interest one day pays on `principalMinor`: principal × rate, rounded down. */
export function dailyInterestMinor(principalMinor: bigint, dailyRatePpm: number): bigint {
  if (principalMinor < 0n) throw new RangeError('a principal is not negative');
  return (principalMinor * BigInt(dailyRatePpm)) / PPM;
}

/** What a subscription earns over its whole cycle if held to maturity: one day's interest × the days. */
export function estimatedIncomeMinor(principalMinor: bigint, dailyRatePpm: number, cycleDays: number): bigint {
  return dailyInterestMinor(principalMinor, dailyRatePpm) * BigInt(cycleDays);
}

/**
 * The early-redemption penalty (spec section 9): penalty rate × remaining days × locked amount,
 * rounded down, never more than the principal. 0.4 %, 3 days left, 1,000 USDT → 12 USDT.
 */
export function earlyRedemptionPenaltyMinor(principalMinor: bigint, penaltyRatePpm: number, remainingDays: number): bigint {
  if (remainingDays <= 0) return 0n;
  const penalty = (principalMinor * BigInt(penaltyRatePpm) * BigInt(remainingDays)) / PPM;
  return penalty > principalMinor ? principalMinor : penalty;
}

/**
 * When day `day` (1-based) of a subscription is paid: the `day`-th time the product's payout minute
 * (UTC) comes round strictly after the subscription. The last day's payout is the maturity: the
 * principal returns with it.
 */
export function payoutTimeMs(subscribedAtMs: number, payoutMinuteUtc: number, day: number): number {
  if (!Number.isInteger(day) || day < 1) throw new RangeError(`day ${day}`);
  const dayStart = Math.floor(subscribedAtMs / DAY_MS) * DAY_MS;
  let first = dayStart + payoutMinuteUtc * MINUTE_MS;
  if (first <= subscribedAtMs) first += DAY_MS;
  return first + (day - 1) * DAY_MS;
}

/** The maturity: the last day's payout time. */
export function maturityTimeMs(subscribedAtMs: number, payoutMinuteUtc: number, cycleDays: number): number {
  return payoutTimeMs(subscribedAtMs, payoutMinuteUtc, cycleDays);
}

/** How many of a subscription's days have come due by `nowMs` (0 … cycleDays). */
export function daysDueBy(subscribedAtMs: number, payoutMinuteUtc: number, cycleDays: number, nowMs: number): number {
  const first = payoutTimeMs(subscribedAtMs, payoutMinuteUtc, 1);
  if (nowMs < first) return 0;
  return Math.min(cycleDays, Math.floor((nowMs - first) / DAY_MS) + 1);
}

/** Days not yet come due at `nowMs`: what an early redemption's penalty counts. */
export function remainingDaysAt(subscribedAtMs: number, payoutMinuteUtc: number, cycleDays: number, nowMs: number): number {
  return cycleDays - daysDueBy(subscribedAtMs, payoutMinuteUtc, cycleDays, nowMs);
}

/** A product's terms as a subscription copies them: later changes to the product never reach it. */
export interface EarnTerms {
  cycleDays: number;
  dailyRatePpm: number;
  penaltyRatePpm: number;
  payoutMinuteUtc: number;
  earlyRedemption: boolean;
}

/** What a product offers a new subscription, with what is already subscribed. */
export interface EarnOffer {
  open: boolean;
  minAmountMinor: bigint;
  maxAmountMinor: bigint;
  /** The most one user may hold in active subscriptions of the product. */
  userQuotaMinor: bigint;
  /** The most all users together may hold in active subscriptions of the product. */
  totalQuotaMinor: bigint;
}

export type SubscriptionProblem = 'closed' | 'amount_out_of_range' | 'user_quota' | 'total_quota';

/**
 * Whether `amountMinor` may be subscribed: the product is open, the amount within the per-order
 * range, and neither the user's nor the product's quota of active principal is passed by it.
 */
export function subscriptionProblem(
  offer: EarnOffer,
  amountMinor: bigint,
  activeMinor: { user: bigint; total: bigint },
): SubscriptionProblem | null {
  if (!offer.open) return 'closed';
  if (amountMinor < offer.minAmountMinor || amountMinor > offer.maxAmountMinor) return 'amount_out_of_range';
  if (activeMinor.user + amountMinor > offer.userQuotaMinor) return 'user_quota';
  if (activeMinor.total + amountMinor > offer.totalQuotaMinor) return 'total_quota';
  return null;
}

/** Why a product's terms are refused (a staff proposal): the first rule broken, or null. */
export function earnTermsProblem(terms: EarnTerms & Omit<EarnOffer, 'open'>): string | null {
  if (!Number.isInteger(terms.cycleDays) || terms.cycleDays < 1 || terms.cycleDays > MAX_CYCLE_DAYS) return 'cycle_days';
  if (!Number.isInteger(terms.dailyRatePpm) || terms.dailyRatePpm < 1 || terms.dailyRatePpm > MAX_DAILY_RATE_PPM) return 'daily_rate';
  if (!Number.isInteger(terms.penaltyRatePpm) || terms.penaltyRatePpm < 0 || terms.penaltyRatePpm > MAX_PENALTY_RATE_PPM) return 'penalty_rate';
  if (!terms.earlyRedemption && terms.penaltyRatePpm !== 0) return 'penalty_without_redemption';
  if (!Number.isInteger(terms.payoutMinuteUtc) || terms.payoutMinuteUtc < 0 || terms.payoutMinuteUtc >= 1_440) return 'payout_time';
  if (terms.minAmountMinor <= 0n || terms.maxAmountMinor < terms.minAmountMinor) return 'amount_range';
  if (terms.userQuotaMinor < terms.minAmountMinor || terms.totalQuotaMinor < terms.userQuotaMinor) return 'quota';
  return null;
}

/**
 * The yield the treasury has promised and not yet paid on a subscription at `nowMs`: the days not
 * yet paid × the daily interest. New subscriptions are sold only while the earn treasury holds what
 * every active subscription is still owed (ADR 0035): a promise the platform cannot keep is not sold.
 */
export function interestOwedMinor(principalMinor: bigint, dailyRatePpm: number, cycleDays: number, paidDays: number): bigint {
  return dailyInterestMinor(principalMinor, dailyRatePpm) * BigInt(Math.max(0, cycleDays - paidDays));
}

/** A rate in ppm as a percent with four decimals: 3,000 → "0.3000". */
export function ppmAsPercent(ratePpm: number): string {
  const whole = Math.trunc(ratePpm / 10_000);
  const fraction = String(Math.abs(ratePpm % 10_000)).padStart(4, '0');
  return `${whole}.${fraction}`;
}
