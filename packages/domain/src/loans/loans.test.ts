import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../market/ticker.ts';
import { parseAmount } from '../money/amount.ts';
import { parsePriceMinor } from '../market/price.ts';
import {
  applyRepayment,
  availableCreditMinor,
  chargeInterestTo,
  collateralCreditMinor,
  collateralValueMinor,
  creditCapMinor,
  creditScore,
  liquidationPlan,
  loanApplicationProblem,
  loanDaysBegun,
  loanHealth,
  loanInterestMinor,
  loanLtvPpm,
  loanTermsProblem,
  owedOf,
  priceAtLtvMinor,
  type LoanTerms,
} from './loans.ts';

const usdt = (text: string) => parseAmount(text, 6);
const btc = (text: string) => parseAmount(text, 8);
const eth = (text: string) => parseAmount(text, 18);
const price = (text: string) => parsePriceMinor(text);

const terms: LoanTerms = {
  cycleDays: 30,
  dailyRatePpm: 1_000,
  minAmountMinor: usdt('100'),
  maxAmountMinor: usdt('50000'),
  collateral: [
    { asset: 'BTC', ltvPpm: 650_000 },
    { asset: 'ETH', ltvPpm: 600_000 },
    { asset: 'USDT', ltvPpm: 750_000 },
  ],
  marginCallLtvPpm: 800_000,
  liquidationLtvPpm: 900_000,
};

describe('interest (spec: amount × daily rate × days)', () => {
  it('1,000 USDT at 0.1 % a day for 30 days is 30 USDT; total due 1,030', () => {
    expect(loanInterestMinor(usdt('1000'), 1_000, 30)).toBe(usdt('30'));
    const charged = chargeInterestTo({ principalMinor: usdt('1000'), interestMinor: 0n, chargedDays: 0 }, 1_000, 30);
    expect(owedOf(charged)).toBe(usdt('1030'));
  });

  it('rounds down: 333.333333 USDT at 0.15 % for 7 days', () => {
    // 333.333333 × 0.0015 × 7 = 3.4999999965 → 3.499999
    expect(loanInterestMinor(usdt('333.333333'), 1_500, 7)).toBe(usdt('3.499999'));
  });

  it('counts each day begun, at least one, at most the cycle', () => {
    const start = Date.parse('2026-11-01T10:00:00Z');
    expect(loanDaysBegun(start, start, 30)).toBe(1);
    expect(loanDaysBegun(start, start + 3 * 3_600_000, 30)).toBe(1);
    expect(loanDaysBegun(start, start + DAY_MS, 30)).toBe(2);
    expect(loanDaysBegun(start, start + 90 * DAY_MS, 30)).toBe(30);
  });

  it('early repayment on day 10 pays 10 days of interest', () => {
    const balance = chargeInterestTo({ principalMinor: usdt('1000'), interestMinor: 0n, chargedDays: 0 }, 1_000, 10);
    expect(owedOf(balance)).toBe(usdt('1010'));
    const split = applyRepayment(balance, usdt('1010'));
    expect(split).toMatchObject({ interestPaidMinor: usdt('10'), principalPaidMinor: usdt('1000') });
    expect(owedOf(split.after)).toBe(0n);
  });

  it('a partial repayment pays interest first; later interest runs on the principal left', () => {
    // Day 5: 5 USDT interest charged; 505 repaid → 5 interest, 500 principal.
    const day5 = chargeInterestTo({ principalMinor: usdt('1000'), interestMinor: 0n, chargedDays: 0 }, 1_000, 5);
    const partial = applyRepayment(day5, usdt('505'));
    expect(partial).toMatchObject({ interestPaidMinor: usdt('5'), principalPaidMinor: usdt('500') });
    // Days 6–30 on 500: 500 × 0.001 × 25 = 12.5 → 512.5 at maturity.
    expect(owedOf(chargeInterestTo(partial.after, 1_000, 30))).toBe(usdt('512.5'));
    expect(() => applyRepayment(partial.after, usdt('500.000001'))).toThrow(RangeError);
  });
});

describe('available credit', () => {
  it('a pledge of 0.5 BTC at 60,000 is worth 30,000 USDT and lends 19,500 at 65 %', () => {
    const value = collateralValueMinor('BTC', btc('0.5'), 8, price('60000'));
    expect(value).toBe(usdt('30000'));
    expect(collateralCreditMinor(value, 650_000)).toBe(usdt('19500'));
  });

  it('values ETH with 18 decimals and USDT at 1', () => {
    expect(collateralValueMinor('ETH', eth('2.5'), 18, price('3000.5'))).toBe(usdt('7501.25'));
    expect(collateralValueMinor('USDT', usdt('1000'), 6, null)).toBe(usdt('1000'));
    expect(() => collateralValueMinor('BTC', btc('1'), 8, null)).toThrow(RangeError);
  });

  it('caps by tier and score, less what is owed or applied for', () => {
    const newcomer = creditScore({ repaidOnTime: 0, liquidatedAtDue: 0, liquidatedEarly: 0 });
    expect(newcomer).toMatchObject({ score: 600, capMultiplierPpm: 1_000_000 });
    expect(creditCapMinor(0, newcomer)).toBe(0n);
    expect(creditCapMinor(1, newcomer)).toBe(usdt('10000'));
    expect(availableCreditMinor(creditCapMinor(1, newcomer), usdt('2500'))).toBe(usdt('7500'));
    expect(availableCreditMinor(creditCapMinor(1, newcomer), usdt('12000'))).toBe(0n);
  });

  it('the score: 7 on time → 705, ×1.5; 20 on time counted at most; liquidations lower it', () => {
    const good = creditScore({ repaidOnTime: 7, liquidatedAtDue: 0, liquidatedEarly: 0 });
    expect(good).toMatchObject({ score: 705, capMultiplierPpm: 1_500_000, parts: { base: 600, repaidOnTime: 105 } });
    expect(creditCapMinor(2, good)).toBe(usdt('150000'));
    expect(creditScore({ repaidOnTime: 40, liquidatedAtDue: 0, liquidatedEarly: 0 }).score).toBe(900);
    const poor = creditScore({ repaidOnTime: 1, liquidatedAtDue: 2, liquidatedEarly: 1 });
    // 600 + 15 − 120 − 30 = 465 → half the tier cap.
    expect(poor).toMatchObject({ score: 465, capMultiplierPpm: 500_000 });
    expect(creditCapMinor(1, poor)).toBe(usdt('5000'));
    expect(creditScore({ repaidOnTime: 0, liquidatedAtDue: 10, liquidatedEarly: 0 }).score).toBe(300);
  });

  it('an application: the product’s range, then the least of pledge and available credit', () => {
    const limits = { pledgeCreditMinor: usdt('19500'), availableCreditMinor: usdt('10000') };
    expect(loanApplicationProblem(terms, usdt('99.99'), limits)).toBe('amount_wrong');
    expect(loanApplicationProblem(terms, usdt('50000.01'), limits)).toBe('amount_wrong');
    expect(loanApplicationProblem(terms, usdt('10000.01'), limits)).toBe('quota_insufficient');
    expect(loanApplicationProblem(terms, usdt('10000'), limits)).toBeNull();
    expect(loanApplicationProblem(terms, usdt('5000'), { pledgeCreditMinor: usdt('4999'), availableCreditMinor: usdt('10000') })).toBe('quota_insufficient');
  });
});

describe('loan-to-value and liquidation', () => {
  it('a 19,500 loan on 0.5 BTC: 65 % at 60,000; margin call at 48,750; liquidation at 43,334', () => {
    const owed = usdt('19500');
    expect(loanLtvPpm(owed, collateralValueMinor('BTC', btc('0.5'), 8, price('60000')))).toBe(650_000);
    expect(priceAtLtvMinor(owed, btc('0.5'), 8, 800_000)).toBe(price('48750'));
    // 19,500 ÷ (0.9 × 0.5) = 43,333.33333333… → rounded up.
    expect(priceAtLtvMinor(owed, btc('0.5'), 8, 900_000)).toBe(price('43333.33333334'));
    expect(loanHealth(loanLtvPpm(owed, collateralValueMinor('BTC', btc('0.5'), 8, price('48750'))), terms)).toBe('margin_call');
    expect(loanHealth(loanLtvPpm(owed, collateralValueMinor('BTC', btc('0.5'), 8, price('43333.33333334'))), terms)).toBe('liquidate');
    expect(loanHealth(loanLtvPpm(owed, collateralValueMinor('BTC', btc('0.5'), 8, price('43400'))), terms)).toBe('margin_call');
    expect(loanLtvPpm(owed, 0n)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('at due date: owes 1,030 against 0.05 BTC at 40,000 → sells 0.02575 BTC, returns 0.02425', () => {
    expect(liquidationPlan({ asset: 'BTC', owedMinor: usdt('1030'), collateralMinor: btc('0.05'), assetScale: 8, priceMinor: price('40000') })).toEqual({
      soldMinor: btc('0.02575'),
      repaidMinor: usdt('1030'),
      shortfallMinor: 0n,
      releasedMinor: btc('0.02425'),
    });
  });

  it('sells rounded up to the smallest unit', () => {
    // 1,000 ÷ 30,000 = 0.033333333… BTC → 0.03333334.
    const plan = liquidationPlan({ asset: 'BTC', owedMinor: usdt('1000'), collateralMinor: btc('1'), assetScale: 8, priceMinor: price('30000') });
    expect(plan).toMatchObject({ soldMinor: btc('0.03333334'), repaidMinor: usdt('1000'), releasedMinor: btc('0.96666666') });
  });

  it('collateral worth less than what is owed is sold whole; the difference is the lender’s loss', () => {
    expect(liquidationPlan({ asset: 'ETH', owedMinor: usdt('1000'), collateralMinor: eth('0.3'), assetScale: 18, priceMinor: price('3000') })).toEqual({
      soldMinor: eth('0.3'),
      repaidMinor: usdt('900'),
      shortfallMinor: usdt('100'),
      releasedMinor: 0n,
    });
  });

  it('USDT collateral repays one for one', () => {
    expect(liquidationPlan({ asset: 'USDT', owedMinor: usdt('1030'), collateralMinor: usdt('1500'), assetScale: 6, priceMinor: null })).toEqual({
      soldMinor: usdt('1030'),
      repaidMinor: usdt('1030'),
      shortfallMinor: 0n,
      releasedMinor: usdt('470'),
    });
  });
});

describe('product terms', () => {
  it('accepts the example and refuses what is not a product', () => {
    expect(loanTermsProblem(terms)).toBeNull();
    expect(loanTermsProblem({ ...terms, cycleDays: 0 })).toBe('cycle');
    expect(loanTermsProblem({ ...terms, dailyRatePpm: 10_001 })).toBe('rate');
    expect(loanTermsProblem({ ...terms, minAmountMinor: usdt('60000') })).toBe('range');
    expect(loanTermsProblem({ ...terms, collateral: [] })).toBe('collateral');
    expect(loanTermsProblem({ ...terms, collateral: [{ asset: 'DOGE', ltvPpm: 500_000 }] })).toBe('collateral');
    expect(loanTermsProblem({ ...terms, collateral: [{ asset: 'BTC', ltvPpm: 800_000 }] })).toBe('ratios');
    expect(loanTermsProblem({ ...terms, liquidationLtvPpm: 800_000 })).toBe('ratios');
  });
});
