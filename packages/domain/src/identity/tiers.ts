/**
 * Verification tiers and what they allow (decisions page): one policy module that withdrawals,
 * P2P and contracts call, so a limit is defined once and shown to the user as it is enforced.
 */
export type VerificationTier = 0 | 1 | 2;

export function tierOf(status: { identityVerified: boolean; advancedVerified: boolean }): VerificationTier {
  if (status.identityVerified && status.advancedVerified) return 2;
  return status.identityVerified ? 1 : 0;
}

/** Daily withdrawal limit in whole USDT-equivalent per tier: 0 before identity verification. */
export const dailyWithdrawalLimitUsdt: Record<VerificationTier, bigint> = { 0: 0n, 1: 50_000n, 2: 20_000_000n };

/** Fiat (P2P) trading needs identity verification; single trades or 30-day totals above these need advanced. */
export interface FiatThresholds {
  singleTradeUsdt: bigint;
  rolling30DayUsdt: bigint;
}
export const defaultFiatThresholds: FiatThresholds = { singleTradeUsdt: 150_000n, rolling30DayUsdt: 1_500_000n };

export type FiatTradeDecision = { allowed: true } | { allowed: false; needs: 'identity' | 'advanced' };

export function fiatTradeDecision(
  tier: VerificationTier,
  trade: { amountUsdt: bigint; last30DaysUsdt: bigint },
  thresholds: FiatThresholds = defaultFiatThresholds,
): FiatTradeDecision {
  if (tier === 0) return { allowed: false, needs: 'identity' };
  const large = trade.amountUsdt > thresholds.singleTradeUsdt || trade.last30DaysUsdt + trade.amountUsdt > thresholds.rolling30DayUsdt;
  if (large && tier < 2) return { allowed: false, needs: 'advanced' };
  return { allowed: true };
}

/** Upload bounds shared by the API contract and the server (TIGER_STYLE: a limit on everything). */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
