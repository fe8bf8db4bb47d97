import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../market/ticker.ts';
import { parseAmount } from '../money/amount.ts';
import {
  dailyInterestMinor,
  daysDueBy,
  earlyRedemptionPenaltyMinor,
  earnTermsProblem,
  estimatedIncomeMinor,
  interestOwedMinor,
  maturityTimeMs,
  payoutTimeMs,
  ppmAsPercent,
  remainingDaysAt,
  subscriptionProblem,
} from './earn.ts';

const usdt = (text: string) => parseAmount(text, 6);
const at = (iso: string) => Date.parse(iso);

describe('the spec’s lock-up example (section 9)', () => {
  it('10,000 USDT at 0.3 % a day pays 30 USDT each day, 150 over 5 days', () => {
    expect(dailyInterestMinor(usdt('10000'), 3_000)).toBe(usdt('30'));
    expect(estimatedIncomeMinor(usdt('10000'), 3_000, 5)).toBe(usdt('150'));
  });

  it('early redemption: 0.4 % × 3 remaining days × 1,000 USDT = 12 USDT', () => {
    expect(earlyRedemptionPenaltyMinor(usdt('1000'), 4_000, 3)).toBe(usdt('12'));
  });
});

describe('rounding', () => {
  it('pays interest rounded down to the minor unit', () => {
    // 0.000007 × 0.3 % = 0.000000021: nothing.
    expect(dailyInterestMinor(7n, 3_000)).toBe(0n);
    // 333.333333 × 0.3 % = 0.999999999 → 0.999999.
    expect(dailyInterestMinor(usdt('333.333333'), 3_000)).toBe(usdt('0.999999'));
  });

  it('charges the penalty rounded down and never more than the principal', () => {
    expect(earlyRedemptionPenaltyMinor(usdt('333.333333'), 4_000, 1)).toBe(usdt('1.333333'));
    expect(earlyRedemptionPenaltyMinor(usdt('100'), 10_000, 200)).toBe(usdt('100'));
    expect(earlyRedemptionPenaltyMinor(usdt('100'), 4_000, 0)).toBe(0n);
  });
});

describe('the payout calendar', () => {
  it('pays day 1 at the first payout time after subscribing, then every 24 h; the last is the maturity', () => {
    // Payout at 08:00 UTC; subscribed at 10:00 on the 1st: day 1 is the 2nd at 08:00.
    const subscribed = at('2026-12-01T10:00:00Z');
    expect(payoutTimeMs(subscribed, 8 * 60, 1)).toBe(at('2026-12-02T08:00:00Z'));
    expect(payoutTimeMs(subscribed, 8 * 60, 3)).toBe(at('2026-12-04T08:00:00Z'));
    expect(maturityTimeMs(subscribed, 8 * 60, 5)).toBe(at('2026-12-06T08:00:00Z'));
    // Subscribed before that day's payout time: day 1 is the same day.
    expect(payoutTimeMs(at('2026-12-01T07:59:59Z'), 8 * 60, 1)).toBe(at('2026-12-01T08:00:00Z'));
    // Exactly at the payout time: that payout is not the subscription's.
    expect(payoutTimeMs(at('2026-12-01T08:00:00Z'), 8 * 60, 1)).toBe(at('2026-12-02T08:00:00Z'));
  });

  it('counts the days come due and the days remaining at any moment', () => {
    const subscribed = at('2026-12-01T10:00:00Z');
    const day1 = payoutTimeMs(subscribed, 0, 1);
    expect(daysDueBy(subscribed, 0, 5, day1 - 1)).toBe(0);
    expect(daysDueBy(subscribed, 0, 5, day1)).toBe(1);
    expect(daysDueBy(subscribed, 0, 5, day1 + 2 * DAY_MS - 1)).toBe(2);
    expect(daysDueBy(subscribed, 0, 5, day1 + 40 * DAY_MS)).toBe(5);
    expect(remainingDaysAt(subscribed, 0, 5, day1 + DAY_MS)).toBe(3);
    expect(remainingDaysAt(subscribed, 0, 5, subscribed)).toBe(5);
  });
});

describe('who may subscribe how much', () => {
  const offer = { open: true, minAmountMinor: usdt('100'), maxAmountMinor: usdt('10000'), userQuotaMinor: usdt('20000'), totalQuotaMinor: usdt('50000') };

  it('takes an amount in range within both quotas', () => {
    expect(subscriptionProblem(offer, usdt('100'), { user: 0n, total: 0n })).toBeNull();
    expect(subscriptionProblem(offer, usdt('10000'), { user: usdt('10000'), total: usdt('40000') })).toBeNull();
  });

  it('names the first rule broken', () => {
    expect(subscriptionProblem({ ...offer, open: false }, usdt('100'), { user: 0n, total: 0n })).toBe('closed');
    expect(subscriptionProblem(offer, usdt('99.999999'), { user: 0n, total: 0n })).toBe('amount_out_of_range');
    expect(subscriptionProblem(offer, usdt('10000.000001'), { user: 0n, total: 0n })).toBe('amount_out_of_range');
    expect(subscriptionProblem(offer, usdt('100'), { user: usdt('19900.000001'), total: 0n })).toBe('user_quota');
    expect(subscriptionProblem(offer, usdt('100'), { user: 0n, total: usdt('49900.000001') })).toBe('total_quota');
  });
});

describe('a product’s terms', () => {
  const terms = {
    cycleDays: 5,
    dailyRatePpm: 3_000,
    penaltyRatePpm: 4_000,
    payoutMinuteUtc: 0,
    earlyRedemption: true,
    minAmountMinor: usdt('100'),
    maxAmountMinor: usdt('10000'),
    userQuotaMinor: usdt('20000'),
    totalQuotaMinor: usdt('50000'),
  };

  it('accepts the spec’s product and refuses each broken rule', () => {
    expect(earnTermsProblem(terms)).toBeNull();
    expect(earnTermsProblem({ ...terms, cycleDays: 0 })).toBe('cycle_days');
    expect(earnTermsProblem({ ...terms, dailyRatePpm: 10_001 })).toBe('daily_rate');
    expect(earnTermsProblem({ ...terms, penaltyRatePpm: -1 })).toBe('penalty_rate');
    expect(earnTermsProblem({ ...terms, earlyRedemption: false })).toBe('penalty_without_redemption');
    expect(earnTermsProblem({ ...terms, payoutMinuteUtc: 1_440 })).toBe('payout_time');
    expect(earnTermsProblem({ ...terms, maxAmountMinor: usdt('99') })).toBe('amount_range');
    expect(earnTermsProblem({ ...terms, totalQuotaMinor: usdt('19999') })).toBe('quota');
  });
});

describe('what the treasury still owes', () => {
  it('is the unpaid days × the daily interest', () => {
    expect(interestOwedMinor(usdt('10000'), 3_000, 5, 0)).toBe(usdt('150'));
    expect(interestOwedMinor(usdt('10000'), 3_000, 5, 2)).toBe(usdt('90'));
    expect(interestOwedMinor(usdt('10000'), 3_000, 5, 5)).toBe(0n);
  });
});

it('writes a rate as a percent with four decimals', () => {
  expect(ppmAsPercent(3_000)).toBe('0.3000');
  expect(ppmAsPercent(4_000)).toBe('0.4000');
  expect(ppmAsPercent(125)).toBe('0.0125');
  expect(ppmAsPercent(10_000)).toBe('1.0000');
});
