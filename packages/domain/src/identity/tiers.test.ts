import { describe, expect, it } from 'vitest';
import { dailyWithdrawalLimitUsdt, fiatTradeDecision, tierOf } from './tiers.ts';

describe('verification tiers', () => {
  it('derives the tier from the two verifications', () => {
    expect(tierOf({ identityVerified: false, advancedVerified: false })).toBe(0);
    expect(tierOf({ identityVerified: true, advancedVerified: false })).toBe(1);
    expect(tierOf({ identityVerified: true, advancedVerified: true })).toBe(2);
    // Advanced without identity cannot happen (advanced requires identity); it counts as none.
    expect(tierOf({ identityVerified: false, advancedVerified: true })).toBe(0);
  });

  it('publishes the daily withdrawal limits of the decisions page', () => {
    expect(dailyWithdrawalLimitUsdt).toEqual({ 0: 0n, 1: 50_000n, 2: 20_000_000n });
  });

  it('gates fiat trades: identity first, advanced above 150,000 single or 1,500,000 over 30 days', () => {
    expect(fiatTradeDecision(0, { amountUsdt: 10n, last30DaysUsdt: 0n })).toEqual({ allowed: false, needs: 'identity' });
    expect(fiatTradeDecision(1, { amountUsdt: 150_000n, last30DaysUsdt: 0n })).toEqual({ allowed: true });
    expect(fiatTradeDecision(1, { amountUsdt: 150_001n, last30DaysUsdt: 0n })).toEqual({ allowed: false, needs: 'advanced' });
    expect(fiatTradeDecision(1, { amountUsdt: 100_000n, last30DaysUsdt: 1_400_001n })).toEqual({ allowed: false, needs: 'advanced' });
    expect(fiatTradeDecision(2, { amountUsdt: 150_001n, last30DaysUsdt: 5_000_000n })).toEqual({ allowed: true });
  });
});
