import { errorCatalogue } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { applySearch, completeApplyParams, readApplyParams } from './apply-params.ts';
import { aboveOwed, applyEstimate, collateralNeeded, priceMinorOf, repaySplit } from './loan-figures.ts';
import { describeLoanRefusal } from './loan-refusal.ts';

// A product of 0.1 % a day for 7 days, 100 – 50,000 USDT, BTC lent against at 65 %, USDT at 70 %.
const product = {
  id: '1',
  name: 'Seven days',
  asset: 'USDT' as const,
  cycleDays: 7,
  dailyRatePercent: '0.1000',
  dailyRatePpm: 1_000,
  minAmount: '100.000000',
  maxAmount: '50000.000000',
  collateral: [
    { asset: 'BTC', ltvPercent: '65.0000', ltvPpm: 650_000 },
    { asset: 'USDT', ltvPercent: '70.0000', ltvPpm: 700_000 },
  ],
  marginCallLtvPercent: '80.0000',
  liquidationLtvPercent: '90.0000',
  open: true,
  termsVersion: 1,
};
const prices = [{ asset: 'BTC', symbol: 'BTC/USDT', price: '60000.00000000', tickId: '42', atMs: 1 }];

describe('applyEstimate: what the application page shows live, by the rule the server applies', () => {
  it('1,000 USDT at 0.1 % for 7 days: 7 USDT interest, 1,007 due; 0.05 BTC at 60,000 is worth 3,000 and lends 1,950', () => {
    expect(applyEstimate(product, { amount: '1000', collateralAsset: 'BTC', collateralAmount: '0.05' }, { prices, available: '5000' })).toEqual({
      interest: '7.000000',
      totalDue: '1007.000000',
      collateralValue: '3000.000000',
      pledgeCredit: '1950.000000',
      limit: '1950.000000',
      problem: null,
    });
  });

  it('the limit is the least of the product’s maximum, the pledge’s credit and the available credit', () => {
    expect(applyEstimate(product, { amount: '', collateralAsset: 'BTC', collateralAmount: '1' }, { prices, available: '5000' }).limit).toBe('5000.000000');
    expect(applyEstimate(product, { amount: '', collateralAsset: 'USDT', collateralAmount: '100000' }, { prices, available: '90000' }).limit).toBe('50000.000000');
  });

  it('names what the server would refuse: outside the range, or above the limit', () => {
    expect(applyEstimate(product, { amount: '50', collateralAsset: 'BTC', collateralAmount: '1' }, { prices, available: '5000' }).problem).toBe('amount_wrong');
    expect(applyEstimate(product, { amount: '2000', collateralAsset: 'BTC', collateralAmount: '0.05' }, { prices, available: '5000' }).problem).toBe('quota_insufficient');
    expect(applyEstimate(product, { amount: '6000', collateralAsset: 'BTC', collateralAmount: '' }, { prices, available: '5000' }).problem).toBe('quota_insufficient');
  });

  it('no collateral value without a price, nor for an asset the product does not take', () => {
    expect(applyEstimate(product, { amount: '1000', collateralAsset: 'BTC', collateralAmount: '1' }, { prices: [], available: '5000' }).collateralValue).toBeNull();
    expect(applyEstimate(product, { amount: '1000', collateralAsset: 'ETH', collateralAmount: '1' }, { prices, available: '5000' }).pledgeCredit).toBeNull();
    expect(priceMinorOf('USDT', [])).toBe(100_000_000n);
  });

  it('the least collateral that lends an amount, rounded up to the asset’s smallest unit', () => {
    expect(collateralNeeded('1000', product.collateral[0]!, prices)).toBe('0.02564103');
    expect(collateralNeeded('700', product.collateral[1]!, prices)).toBe('1000.000000');
    expect(collateralNeeded('', product.collateral[0]!, prices)).toBeNull();
  });
});

describe('repaySplit: interest first, then principal', () => {
  const loan = { owedNow: '1003.000000', principalOutstanding: '1000.000000' };
  it('a part smaller than the interest pays interest only; a larger one pays the rest off the principal', () => {
    expect(repaySplit(loan, '2', false)).toEqual({ interestDue: '3.000000', interest: '2.000000', principal: '0.000000', remaining: '1001.000000' });
    expect(repaySplit(loan, '10', false)).toEqual({ interestDue: '3.000000', interest: '3.000000', principal: '7.000000', remaining: '993.000000' });
  });
  it('in full: everything owed now', () => {
    expect(repaySplit(loan, '', true)).toEqual({ interestDue: '3.000000', interest: '3.000000', principal: '1000.000000', remaining: '0.000000' });
  });
  it('nothing for more than is owed, for no amount, or for a loan that owes nothing now', () => {
    expect(repaySplit(loan, '1003.000001', false)).toBeNull();
    expect(aboveOwed(loan, '1003.000001')).toBe(true);
    expect(repaySplit(loan, 'x', false)).toBeNull();
    expect(repaySplit({ owedNow: null, principalOutstanding: '0' }, '1', true)).toBeNull();
  });
});

describe('the application’s choices in the address', () => {
  it('round-trips, and drops what is not of its kind', () => {
    const params = { productId: '3', amount: '1000', collateralAsset: 'BTC', collateralAmount: '0.05', holdingUploadId: '77' };
    const search = applySearch(params);
    expect(search).toBe('?productId=3&amount=1000&collateralAsset=BTC&collateralAmount=0.05&holding=77');
    expect(readApplyParams(new URLSearchParams(search))).toEqual(params);
    expect(completeApplyParams(params)).toBe(true);
    const odd = readApplyParams(new URLSearchParams('productId=x&amount=1e5&collateralAsset=<b>&collateralAmount=1&holding='));
    expect(odd).toEqual({ productId: '', amount: '', collateralAsset: '', collateralAmount: '1', holdingUploadId: '' });
    expect(completeApplyParams(odd)).toBe(false);
  });
});

describe('describeLoanRefusal', () => {
  const format = { amount: (value: string, unit?: string) => `${value} ${unit}`, time: (value: string | number) => String(value) };
  it('the quota with its figure; a short balance is the collateral’s in an application and the USDT’s in a repayment', () => {
    expect(describeLoanRefusal(errorCatalogue.LOAN_QUOTA_INSUFFICIENT.msg, { limit: '1950.000000' }, format, 'apply')).toMatchObject({
      field: 'amount',
      details: [{ key: 'web.loans.refusal.quota', vars: { limit: '1950.000000 USDT' } }],
    });
    expect(describeLoanRefusal(errorCatalogue.LOAN_QUOTA_INSUFFICIENT.msg, null, format, 'apply').details[0]?.key).toBe('web.loans.refusal.quotaPlain');
    expect(describeLoanRefusal(errorCatalogue.INSUFFICIENT_BALANCE.msg, null, format, 'apply').field).toBe('collateralAmount');
    expect(describeLoanRefusal(errorCatalogue.INSUFFICIENT_BALANCE.msg, null, format, 'repay').field).toBe('amount');
  });
  it('a wrong payment password with the tries left; a changed agreement is generated again', () => {
    expect(describeLoanRefusal(errorCatalogue.WRONG_PAYMENT_PASSWORD.msg, { failuresLeft: 2 }, format, 'repay')).toMatchObject({
      field: 'paymentPassword',
      details: [{ key: 'web.paymentPassword.failuresLeft', vars: { left: 2 } }],
    });
    expect(describeLoanRefusal(errorCatalogue.PARAMETER_ERROR.msg, { field: 'agreementVersion' }, format, 'apply').reloadAgreement).toBe(true);
    expect(describeLoanRefusal(errorCatalogue.PAYMENT_PASSWORD_NOT_SET.msg, null, format, 'apply').needsPaymentPassword).toBe(true);
  });
});
