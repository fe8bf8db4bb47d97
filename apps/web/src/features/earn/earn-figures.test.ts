import { errorCatalogue } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { earnAmountMinor, penaltyExample, purchaseEstimate, redemptionReturn, serverNow, withinRange } from './earn-figures.ts';
import { describeEarnRefusal } from './earn-refusal.ts';

// The spec's lock-up product: 0.3 % a day for 5 days, paid at 00:00 UTC, 0.4 % per remaining day.
const product = {
  asset: 'USDT',
  cycleDays: 5,
  dailyRatePpm: 3_000,
  penaltyRatePpm: 4_000,
  penaltyRatePercent: '0.4000',
  payoutMinuteUtc: 0,
  minAmount: '100.000000',
  maxAmount: '100000.000000',
};
const at = Date.UTC(2026, 10, 27, 21, 30);

describe('purchaseEstimate: the figures the purchase page shows before a subscription, as the server computes them', () => {
  it('1,000 USDT at 0.3 % for 5 days: 3 USDT a day, 15 USDT in all, the first payout at the next 00:00 UTC, maturity 5 payouts on', () => {
    expect(purchaseEstimate(product, '1000', at)).toEqual({
      dailyInterest: '3.000000',
      estimatedIncome: '15.000000',
      firstPayoutAtMs: Date.UTC(2026, 10, 28),
      maturesAtMs: Date.UTC(2026, 11, 2),
      maxPenalty: '20.000000',
    });
  });

  it('the spec example: 10,000 USDT pays 30 USDT a day; each day rounds down', () => {
    expect(purchaseEstimate(product, '10000', at)?.dailyInterest).toBe('30.000000');
    expect(purchaseEstimate(product, '0.000333', at)?.dailyInterest).toBe('0.000000');
  });

  it('a subscription exactly at the payout minute is first paid the next day', () => {
    expect(purchaseEstimate(product, '1000', Date.UTC(2026, 10, 28))?.firstPayoutAtMs).toBe(Date.UTC(2026, 10, 29));
  });

  it('no figures for what is not an amount', () => {
    for (const text of ['', '0', 'abc', '1.0000001', '-5']) expect(purchaseEstimate(product, text, at)).toBeNull();
    expect(earnAmountMinor('1.5', 'USDT')).toBe(1_500_000n);
  });
});

describe('penaltyExample: the formula worked through with the product’s own rate', () => {
  it('0.4 % × 3 days × 1,000 USDT = 12 USDT', () => {
    expect(penaltyExample(product)).toEqual({ ratePercent: '0.4000', days: 3, amount: '1000.000000', penalty: '12.000000' });
  });

  it('the minimum when 1,000 is outside the range; fewer days for a short cycle', () => {
    expect(penaltyExample({ ...product, minAmount: '5000', cycleDays: 2 })).toMatchObject({ days: 1, amount: '5000.000000', penalty: '20.000000' });
    expect(penaltyExample({ ...product, cycleDays: 1 }).days).toBe(1);
  });
});

describe('the rest of the screens’ arithmetic', () => {
  it('an early redemption returns the principal less today’s penalty', () => {
    expect(redemptionReturn({ asset: 'USDT', principal: '1000.000000', penaltyIfRedeemedNow: '16.000000' })).toBe('984.000000');
    expect(redemptionReturn({ asset: 'USDT', principal: '1000.000000', penaltyIfRedeemedNow: null })).toBeNull();
  });

  it('the per-order range, both ends included', () => {
    expect(withinRange(product, '100')).toBe(true);
    expect(withinRange(product, '100000')).toBe(true);
    expect(withinRange(product, '99.99')).toBe(false);
    expect(withinRange(product, '100000.01')).toBe(false);
  });

  it('the server’s clock moves on with the device’s from when the answer arrived', () => {
    expect(serverNow(1_000_000, 50, 1_050)).toBe(1_001_000);
    expect(serverNow(1_000_000, 50, 40)).toBe(1_000_000);
  });
});

describe('describeEarnRefusal', () => {
  const format = { amount: (value: string, unit?: string) => `${value} ${unit}`, time: (value: string | number) => String(value) };

  it('names whose quota is full, or that the treasury cannot cover one more promise', () => {
    const treasury = describeEarnRefusal(errorCatalogue.PURCHASE_LIMIT_EXCEEDED.msg, { rule: 'treasury_cover' }, format, 'USDT');
    expect(treasury).toMatchObject({ errorKey: 'PURCHASE_LIMIT_EXCEEDED', field: 'amount', details: [{ key: 'web.earn.refusal.treasuryCover' }] });
    expect(describeEarnRefusal(errorCatalogue.PURCHASE_LIMIT_EXCEEDED.msg, { rule: 'user_quota' }, format, 'USDT').details[0]?.key).toBe('web.earn.refusal.userQuota');
  });

  it('the range with its figures; a wrong payment password with the tries left; changed terms reload the product', () => {
    expect(describeEarnRefusal(errorCatalogue.AMOUNT_OUT_OF_RANGE.msg, { min: '100.000000', max: '100000.000000', asset: 'USDT' }, format, 'USDT').details).toEqual([
      { key: 'web.earn.refusal.range', vars: { min: '100.000000 USDT', max: '100000.000000 USDT' } },
    ]);
    expect(describeEarnRefusal(errorCatalogue.WRONG_PAYMENT_PASSWORD.msg, { failuresLeft: 3 }, format, 'USDT')).toMatchObject({
      field: 'paymentPassword',
      details: [{ key: 'web.paymentPassword.failuresLeft', vars: { left: 3 } }],
    });
    expect(describeEarnRefusal(errorCatalogue.PARAMETER_ERROR.msg, { field: 'termsVersion', expected: 2 }, format, 'USDT').reloadTerms).toBe(true);
  });
});
