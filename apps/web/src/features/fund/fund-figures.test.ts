import { errorCatalogue } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import {
  creditRatingFrom,
  investEstimate,
  investmentRatingFrom,
  percentToPpm,
  ppmToPercent,
  publishEstimate,
  raisedPercent,
  trancheAfterDays,
  trancheSchedule,
} from './fund-figures.ts';
import { fundProblems, investFormSchema, publishFormSchema } from './fund-form.ts';
import { describeFundRefusal } from './fund-refusal.ts';

// The published policy as fund.overview sends it (the domain's FUND_LIMITS and bands).
const policy = {
  collateralLtvPercent: { BTC: '65', ETH: '60', USDT: '90' },
  minAmount: '100',
  maxAmount: '1000000',
  maxDailyRatePercent: '0.5',
  maxTermDays: 365,
  maxTranches: 12,
  minWindowHours: 1,
  maxWindowHours: 336,
  minInvestment: '10',
  creditRatingBands: [
    { rating: 'A' as const, minScore: 800 },
    { rating: 'B' as const, minScore: 700 },
    { rating: 'C' as const, minScore: 500 },
    { rating: 'D' as const, minScore: 0 },
  ],
  investmentRatingBands: [
    { rating: 'A' as const, minCoverPercent: '200' },
    { rating: 'B' as const, minCoverPercent: '150' },
    { rating: 'C' as const, minCoverPercent: '120' },
    { rating: 'D' as const, minCoverPercent: '0' },
  ],
};
const prices = [{ asset: 'BTC', symbol: 'BTC/USDT', price: '60000.00000000', tickId: '42', atMs: 1 }];
const choice = {
  amount: '1000',
  dailyRatePercent: '0.1',
  termDays: '30',
  tranches: '3',
  releasePeriodDays: '7',
  windowHours: '48',
  collateralAsset: 'BTC',
  collateralAmount: '0.05',
};
const format = { amount: (value: string, unit?: string) => `${value}${unit ? ` ${unit}` : ''}`, time: (value: string | number) => String(value) };

describe('publishEstimate: what the publish form shows live, by the rules the server applies', () => {
  it('1,000 USDT at 0.1 % a day for 30 days: 30 interest, 1,030 due; 0.05 BTC at 60,000 is worth 3,000, × 65 % = 1,950 credit limit', () => {
    expect(publishEstimate(choice, { policy, prices, creditScore: 720 })).toEqual({
      interest: '30.000000',
      totalDue: '1030.000000',
      schedule: [
        { number: 1, amount: '333.333333', afterDays: 0 },
        { number: 2, amount: '333.333333', afterDays: 7 },
        { number: 3, amount: '333.333334', afterDays: 14 },
      ],
      collateralValue: '3000.000000',
      ltvPercent: '65',
      creditLimit: '1950.000000',
      // 3,000 ÷ 1,030 = 291.26 % → A; a score of 720 → B.
      coverPercent: '291.2621',
      investmentRating: 'A',
      creditRating: 'B',
      problem: null,
    });
  });

  it('names what the server would refuse: the amount above the credit limit, a schedule past the term, a rate too high', () => {
    expect(publishEstimate({ ...choice, amount: '2000' }, { policy, prices, creditScore: null }).problem).toBe('aboveLimit');
    expect(publishEstimate({ ...choice, tranches: '5', releasePeriodDays: '10' }, { policy, prices, creditScore: null }).problem).toBe('schedule');
    expect(publishEstimate({ ...choice, dailyRatePercent: '0.6' }, { policy, prices, creditScore: null }).problem).toBe('rate');
    expect(publishEstimate({ ...choice, windowHours: '0' }, { policy, prices, creditScore: null }).problem).toBe('window');
    expect(publishEstimate({ ...choice, amount: '50' }, { policy, prices, creditScore: null }).problem).toBe('amount');
  });

  it('USDT collateral is worth its amount; without a price of BTC there is no value and no limit', () => {
    const usdt = publishEstimate({ ...choice, collateralAsset: 'USDT', collateralAmount: '2000' }, { policy, prices: [], creditScore: null });
    expect(usdt.collateralValue).toBe('2000.000000');
    expect(usdt.creditLimit).toBe('1800.000000');
    const none = publishEstimate(choice, { policy, prices: [], creditScore: null });
    expect(none.collateralValue).toBeNull();
    expect(none.creditLimit).toBeNull();
    expect(none.problem).toBeNull();
  });

  it('shows nothing it cannot compute yet', () => {
    const empty = publishEstimate({ ...choice, amount: '', termDays: '' }, { policy, prices, creditScore: null });
    expect(empty.interest).toBeNull();
    expect(empty.totalDue).toBeNull();
    expect(empty.schedule).toBeNull();
    expect(empty.creditRating).toBeNull();
  });
});

describe('the schedule, ratings and progress', () => {
  it('splits the amount in equal tranches, the last taking the remainder', () => {
    expect(trancheSchedule(100_000_000n, 3, 10).map((each) => each.amount)).toEqual(['33.333333', '33.333333', '33.333334']);
    expect(trancheSchedule(5_000_000n, 1, 0)).toEqual([{ number: 1, amount: '5.000000', afterDays: 0 }]);
  });

  it('reads a tranche’s day from its release time once filled, from its number before', () => {
    expect(trancheAfterDays({ releasePeriodDays: 7, filledAtMs: null }, { number: 3, releaseAtMs: null })).toBe(14);
    expect(trancheAfterDays({ releasePeriodDays: 7, filledAtMs: 1_000 }, { number: 2, releaseAtMs: 1_000 + 7 * 86_400_000 })).toBe(7);
  });

  it('puts a score and a cover in the published bands', () => {
    expect(creditRatingFrom(800, policy.creditRatingBands)).toBe('A');
    expect(creditRatingFrom(799, policy.creditRatingBands)).toBe('B');
    expect(creditRatingFrom(499, policy.creditRatingBands)).toBe('D');
    expect(investmentRatingFrom(1_500_000, policy.investmentRatingBands)).toBe('B');
    expect(investmentRatingFrom(1_199_999, policy.investmentRatingBands)).toBe('D');
  });

  it('reads percents as parts per million, and back', () => {
    expect(percentToPpm('0.05')).toBe(500);
    expect(percentToPpm('0.12345')).toBeNull();
    expect(percentToPpm('abc')).toBeNull();
    expect(ppmToPercent(1_500_000)).toBe('150');
    expect(ppmToPercent(2_912_621)).toBe('291.2621');
  });

  it('raised of asked as a whole percent', () => {
    expect(raisedPercent({ amount: '1000', raised: '250' })).toBe(25);
    expect(raisedPercent({ amount: '1000', raised: '1000' })).toBe(100);
    expect(raisedPercent({ amount: '1000', raised: '0' })).toBe(0);
  });
});

describe('investEstimate: the invest form', () => {
  const request = { amount: '1000', totalDue: '1030', remaining: '400' };
  it('expects amount × total due ÷ amount asked, pro rata', () => {
    expect(investEstimate(request, '100', '10')).toEqual({ expectedReturn: '103.000000', problem: null });
    expect(investEstimate(request, '33.333333', '10').expectedReturn).toBe('34.333332');
  });

  it('at most what remains, at least the minimum unless it fills the rest', () => {
    expect(investEstimate(request, '401', '10').problem).toBe('overRemaining');
    expect(investEstimate(request, '5', '10').problem).toBe('tooSmall');
    expect(investEstimate({ ...request, remaining: '5' }, '5', '10').problem).toBeNull();
    expect(investEstimate(request, '', '10')).toEqual({ expectedReturn: null, problem: null });
  });
});

describe('the forms', () => {
  const context = () => ({ policy, prices, balances: [{ asset: 'BTC', available: '1' }] });
  const filled = { borrowerType: 'individual', title: 'Working capital', purpose: 'Stock for the season', ...choice };

  it('the publish form passes good terms and puts the terms’ problem on its field', () => {
    const schema = publishFormSchema(context);
    expect(schema.safeParse(filled).success).toBe(true);
    const above = schema.safeParse({ ...filled, amount: '2000' });
    expect(above.success ? [] : above.error.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['amount', fundProblems.aboveLimit]]);
    const schedule = schema.safeParse({ ...filled, tranches: '5', releasePeriodDays: '10' });
    expect(schedule.success ? [] : schedule.error.issues.map((issue) => issue.path.join('.'))).toEqual(['releasePeriodDays']);
    const whole = schema.safeParse({ ...filled, termDays: '1.5' });
    expect(whole.success ? [] : whole.error.issues.map((issue) => issue.message)).toContain(fundProblems.whole);
    const balance = schema.safeParse({ ...filled, collateralAmount: '2' });
    expect(balance.success ? [] : balance.error.issues.map((issue) => [issue.path.join('.'), issue.message])).toContainEqual(['collateralAmount', 'amount:aboveAvailable']);
  });

  it('the invest form keeps an investment within the balance and what remains', () => {
    const schema = investFormSchema(() => ({ available: '500', remaining: '400', amount: '1000', totalDue: '1030', minInvestment: '10' }));
    expect(schema.safeParse({ amount: '100' }).success).toBe(true);
    const over = schema.safeParse({ amount: '450' });
    expect(over.success ? [] : over.error.issues.map((issue) => issue.message)).toEqual([fundProblems.overRemaining]);
    const broke = schema.safeParse({ amount: '600' });
    expect(broke.success ? [] : broke.error.issues.map((issue) => issue.message)).toContain('amount:aboveAvailable');
  });
});

describe('describeFundRefusal', () => {
  it('states the credit limit of a refused publication on the amount', () => {
    expect(describeFundRefusal(errorCatalogue.LOAN_QUOTA_INSUFFICIENT.msg, { creditLimit: '1950.000000' }, format, 'publish')).toEqual({
      errorKey: 'LOAN_QUOTA_INSUFFICIENT',
      details: [{ key: 'web.fund.refusal.limit', vars: { limit: '1950.000000 USDT' } }],
      field: 'amount',
    });
  });

  it('names the terms’ problem, the way to verification, a closed request and one’s own', () => {
    expect(describeFundRefusal(errorCatalogue.PARAMETER_ERROR.msg, { field: 'terms', problem: 'schedule' }, format, 'publish').details).toEqual([
      { key: 'web.fund.refusal.termsSchedule', vars: {} },
    ]);
    expect(describeFundRefusal(errorCatalogue.ADVANCED_VERIFICATION_REQUIRED.msg, { party: 'self' }, format, 'publish').needsVerification).toBe(true);
    expect(describeFundRefusal(errorCatalogue.FUND_NOT_OPEN.msg, null, format, 'invest').reload).toBe(true);
    expect(describeFundRefusal(errorCatalogue.FUND_OWN_REQUEST.msg, null, format, 'invest').details).toEqual([{ key: 'web.fund.refusal.own', vars: {} }]);
  });

  it('marks a short balance on the collateral when publishing, on the amount when investing', () => {
    expect(describeFundRefusal(errorCatalogue.INSUFFICIENT_BALANCE.msg, null, format, 'publish').field).toBe('collateralAmount');
    expect(describeFundRefusal(errorCatalogue.INSUFFICIENT_BALANCE.msg, null, format, 'invest').field).toBe('amount');
  });

  it('sends a user without a payment password to set one, and marks a wrong one', () => {
    expect(describeFundRefusal(errorCatalogue.PAYMENT_PASSWORD_NOT_SET.msg, null, format, 'invest').needsPaymentPassword).toBe(true);
    expect(describeFundRefusal(errorCatalogue.WRONG_PAYMENT_PASSWORD.msg, { failuresLeft: 2 }, format, 'invest')).toMatchObject({
      field: 'paymentPassword',
      details: [{ key: 'web.paymentPassword.failuresLeft', vars: { left: 2 } }],
    });
  });
});
