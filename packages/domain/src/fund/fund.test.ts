import { describe, expect, it } from 'vitest';
import { creditScore } from '../loans/loans.ts';
import { DAY_MS } from '../market/ticker.ts';
import { parseAmount } from '../money/amount.ts';
import {
  collateralCoverPpm,
  creditRatingOf,
  fundCreditLimitMinor,
  fundInterestMinor,
  fundTermsProblem,
  investmentProblem,
  investmentRatingOf,
  proRataSplit,
  releaseSchedule,
} from './fund.ts';

const usdt = (text: string) => parseAmount(text, 6);
const terms = { amountMinor: usdt('10000'), dailyRatePpm: 500, termDays: 30, tranches: 2, releasePeriodDays: 10, windowHours: 72 };

describe('pro-rata split: the parts add up to the total exactly, the remainder to the last', () => {
  it('10,150 over investments of 5,000, 3,000 and 2,000', () => {
    expect(proRataSplit(usdt('10150'), [usdt('5000'), usdt('3000'), usdt('2000')])).toEqual([usdt('5075'), usdt('3045'), usdt('2030')]);
  });

  it('awkward numbers: 100.000001 over three equal shares', () => {
    const parts = proRataSplit(usdt('100.000001'), [1n, 1n, 1n]);
    expect(parts).toEqual([usdt('33.333333'), usdt('33.333333'), usdt('33.333335')]);
    expect(parts.reduce((a, b) => a + b, 0n)).toBe(usdt('100.000001'));
  });

  it('primes and a tiny total', () => {
    const shares = [7n, 11n, 13n, 17n, 19n];
    for (const total of [0n, 1n, 2n, 66n, 1_000_003n, 999_999_999_999n]) {
      const parts = proRataSplit(total, shares);
      expect(parts.reduce((a, b) => a + b, 0n)).toBe(total);
      expect(parts.every((part) => part >= 0n)).toBe(true);
    }
    expect(proRataSplit(1n, [7n, 11n])).toEqual([0n, 1n]);
  });

  it('refuses no shares or a share of nothing', () => {
    expect(() => proRataSplit(1n, [])).toThrow(RangeError);
    expect(() => proRataSplit(1n, [1n, 0n])).toThrow(RangeError);
  });
});

describe('a request’s numbers', () => {
  it('interest: 10,000 at 0.05 % a day for 30 days is 150', () => {
    expect(fundInterestMinor(terms)).toBe(usdt('150'));
  });

  it('releases in equal tranches, the first at the fill, one each period', () => {
    const filled = Date.UTC(2026, 11, 1);
    expect(releaseSchedule(usdt('10000'), 2, 10, filled)).toEqual([
      { number: 1, amountMinor: usdt('5000'), releaseAtMs: filled },
      { number: 2, amountMinor: usdt('5000'), releaseAtMs: filled + 10 * DAY_MS },
    ]);
    expect(releaseSchedule(usdt('100'), 3, 5, filled).map((each) => each.amountMinor)).toEqual([usdt('33.333333'), usdt('33.333333'), usdt('33.333334')]);
  });

  it('refuses terms that are not a request', () => {
    expect(fundTermsProblem(terms)).toBeNull();
    expect(fundTermsProblem({ ...terms, amountMinor: usdt('99') })).toBe('amount');
    expect(fundTermsProblem({ ...terms, dailyRatePpm: 5_001 })).toBe('rate');
    expect(fundTermsProblem({ ...terms, termDays: 0 })).toBe('term');
    // The last tranche (day 30) would come at the term.
    expect(fundTermsProblem({ ...terms, tranches: 4, releasePeriodDays: 10 })).toBe('schedule');
    expect(fundTermsProblem({ ...terms, tranches: 2, releasePeriodDays: 0 })).toBe('schedule');
    expect(fundTermsProblem({ ...terms, windowHours: 0 })).toBe('window');
  });

  it('the credit limit: 1 BTC at 30,000 backs 19,500 at 65 %', () => {
    expect(fundCreditLimitMinor(usdt('30000'), 'BTC')).toBe(usdt('19500'));
    expect(() => fundCreditLimitMinor(usdt('1'), 'DOGE')).toThrow(RangeError);
  });

  it('ratings: the credit score in bands; the collateral cover in bands', () => {
    expect(creditRatingOf(creditScore({ repaidOnTime: 0, liquidatedAtDue: 0, liquidatedEarly: 0 }))).toBe('C');
    expect(creditRatingOf(creditScore({ repaidOnTime: 7, liquidatedAtDue: 0, liquidatedEarly: 0 }))).toBe('B');
    expect(creditRatingOf(creditScore({ repaidOnTime: 20, liquidatedAtDue: 0, liquidatedEarly: 0 }))).toBe('A');
    expect(creditRatingOf(creditScore({ repaidOnTime: 0, liquidatedAtDue: 2, liquidatedEarly: 0 }))).toBe('D');
    // 30,000 of collateral against 10,150 due: 295.5665 % → A.
    expect(collateralCoverPpm(usdt('30000'), usdt('10150'))).toBe(2_955_665);
    expect(investmentRatingOf(2_955_665)).toBe('A');
    expect(investmentRatingOf(1_500_000)).toBe('B');
    expect(investmentRatingOf(1_199_999)).toBe('D');
  });

  it('an investment: at least 10 USDT unless it fills the rest, never more than remains', () => {
    expect(investmentProblem(usdt('9.99'), usdt('100'))).toBe('too_small');
    expect(investmentProblem(usdt('5'), usdt('5'))).toBeNull();
    expect(investmentProblem(usdt('100.01'), usdt('100'))).toBe('over_remaining');
    expect(investmentProblem(usdt('100'), usdt('100'))).toBeNull();
  });
});
