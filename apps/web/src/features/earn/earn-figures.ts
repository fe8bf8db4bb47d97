import type { EarnProduct, EarnSubscription } from '@keel/contracts';
import {
  AmountError,
  dailyInterestMinor,
  defaultAssets,
  earlyRedemptionPenaltyMinor,
  estimatedIncomeMinor,
  formatAmount,
  maturityTimeMs,
  parsePositiveAmount,
  payoutTimeMs,
} from '@keel/domain';

// The earn screens' figures (issue 17, ADR 0035), computed with the domain's functions — the ones
// the server applies — so what the purchase page shows before a subscription is what the server
// sells. Amounts are decimal strings at the asset's scale, as the API sends them.

/** Decimals of an earn product's asset (USDT 6, BTC 8, ETH 18). */
export function earnAssetScale(asset: string): number {
  return defaultAssets.find((each) => each.code === asset)?.scale ?? 6;
}

/** A positive amount of the asset in minor units, or null when the text is not one. */
export function earnAmountMinor(text: string, asset: string): bigint | null {
  try {
    return parsePositiveAmount(text, earnAssetScale(asset));
  } catch (error) {
    if (error instanceof AmountError) return null;
    throw error;
  }
}

export interface PurchaseEstimate {
  /** What one day pays: amount × daily rate, rounded down. */
  dailyInterest: string;
  /** What the subscription earns held to maturity: the daily interest × the cycle's days. */
  estimatedIncome: string;
  /** The first payout time and the maturity (the last payout, when the principal returns). */
  firstPayoutAtMs: number;
  maturesAtMs: number;
  /** The most an early redemption can cost: the penalty with every day remaining (right after subscribing). */
  maxPenalty: string;
}

type Terms = Pick<EarnProduct, 'asset' | 'cycleDays' | 'dailyRatePpm' | 'penaltyRatePpm' | 'payoutMinuteUtc'>;

/** The figures of subscribing `amount` (canonical decimal text) to `product` at `nowMs` (the server's clock); null for no valid amount. */
export function purchaseEstimate(product: Terms, amount: string, nowMs: number): PurchaseEstimate | null {
  const minor = earnAmountMinor(amount, product.asset);
  if (minor === null) return null;
  const scale = earnAssetScale(product.asset);
  return {
    dailyInterest: formatAmount(dailyInterestMinor(minor, product.dailyRatePpm), scale),
    estimatedIncome: formatAmount(estimatedIncomeMinor(minor, product.dailyRatePpm, product.cycleDays), scale),
    firstPayoutAtMs: payoutTimeMs(nowMs, product.payoutMinuteUtc, 1),
    maturesAtMs: maturityTimeMs(nowMs, product.payoutMinuteUtc, product.cycleDays),
    maxPenalty: formatAmount(earlyRedemptionPenaltyMinor(minor, product.penaltyRatePpm, product.cycleDays), scale),
  };
}

export interface PenaltyExample {
  /** The product's penalty rate per remaining day, as the API writes it ("0.4000"). */
  ratePercent: string;
  days: number;
  amount: string;
  penalty: string;
}

const EXAMPLE_AMOUNT = '1000';
const EXAMPLE_DAYS = 3;

/**
 * The penalty formula worked through with the product's own rate: 1,000 of the asset when the
 * product sells that much (else its minimum), with 3 days remaining (fewer when the cycle is
 * shorter). 0.4 % × 3 days × 1,000 USDT = 12 USDT.
 */
export function penaltyExample(product: Terms & Pick<EarnProduct, 'penaltyRatePercent' | 'minAmount' | 'maxAmount'>): PenaltyExample {
  const scale = earnAssetScale(product.asset);
  const min = earnAmountMinor(product.minAmount, product.asset) ?? 0n;
  const max = earnAmountMinor(product.maxAmount, product.asset) ?? 0n;
  const thousand = earnAmountMinor(EXAMPLE_AMOUNT, product.asset)!;
  const amountMinor = thousand >= min && thousand <= max ? thousand : min;
  const days = Math.max(1, Math.min(EXAMPLE_DAYS, product.cycleDays - 1));
  return {
    ratePercent: product.penaltyRatePercent,
    days,
    amount: formatAmount(amountMinor, scale),
    penalty: formatAmount(earlyRedemptionPenaltyMinor(amountMinor, product.penaltyRatePpm, days), scale),
  };
}

/** What an early redemption now returns: the principal less today's penalty (null when it cannot be redeemed early). */
export function redemptionReturn(subscription: Pick<EarnSubscription, 'asset' | 'principal' | 'penaltyIfRedeemedNow'>): string | null {
  if (subscription.penaltyIfRedeemedNow === null) return null;
  const scale = earnAssetScale(subscription.asset);
  const principal = earnAmountMinor(subscription.principal, subscription.asset) ?? 0n;
  const penalty = earnAmountMinor(subscription.penaltyIfRedeemedNow, subscription.asset) ?? 0n;
  return formatAmount(principal - penalty, scale);
}

/** Whether `amount` is within the product's per-order range. */
export function withinRange(product: Pick<EarnProduct, 'asset' | 'minAmount' | 'maxAmount'>, amount: string): boolean {
  const minor = earnAmountMinor(amount, product.asset);
  const min = earnAmountMinor(product.minAmount, product.asset);
  const max = earnAmountMinor(product.maxAmount, product.asset);
  return minor !== null && min !== null && max !== null && minor >= min && minor <= max;
}

/** The server's clock as the screen estimates it: the overview's `serverTimeMs`, moved on by the time since it arrived. */
export function serverNow(serverTimeMs: number, receivedAtMs: number, deviceNowMs: number): number {
  return serverTimeMs + Math.max(0, deviceNowMs - receivedAtMs);
}
