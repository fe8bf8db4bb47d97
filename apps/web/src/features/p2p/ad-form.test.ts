import { describe, expect, it } from 'vitest';
import { type AdDraft, adBody, adFormProblems, buyQuantityProblem, fiatTotal, maxBuyable } from './ad-form.ts';

const draft = (changes: Partial<AdDraft> = {}): AdDraft => ({
  fiat: 'INR',
  price: '88.50',
  min: '10',
  max: '500',
  quantity: '1000',
  paymentWindow: '15',
  contact: 'telegram: @seller',
  remark: '',
  ...changes,
});

describe('adFormProblems (new ad)', () => {
  const post = { mode: 'post' as const, available: '2000' };

  it('accepts a complete ad', () => {
    expect(adFormProblems(draft(), post)).toEqual({});
  });

  it('wants an ISO currency code and a price with at most two decimals', () => {
    expect(adFormProblems(draft({ fiat: 'rupees' }), post).fiat).toBe('fiat');
    expect(adFormProblems(draft({ fiat: 'inr' }), post).fiat).toBeUndefined();
    expect(adFormProblems(draft({ price: '88.505' }), post).price).toBe('tooManyDecimals');
    expect(adFormProblems(draft({ price: '' }), post).price).toBe('required');
    expect(adFormProblems(draft({ price: '0' }), post).price).toBe('notPositive');
  });

  it('keeps the limits in order: 1 USDT ≤ min ≤ max, min ≤ total', () => {
    expect(adFormProblems(draft({ min: '0.5' }), post).min).toBe('minBelowFloor');
    expect(adFormProblems(draft({ min: '1' }), post).min).toBeUndefined();
    expect(adFormProblems(draft({ min: '600' }), post).min).toBe('minAboveMax');
    expect(adFormProblems(draft({ min: '200', max: '5000', quantity: '100' }), post).min).toBe('minAboveQuantity');
    expect(adFormProblems(draft({ max: '1.0000001' }), post).max).toBe('tooManyDecimals');
  });

  it('freezes no more than the coin account has', () => {
    expect(adFormProblems(draft({ quantity: '2000.000001' }), post).quantity).toBe('aboveAvailable');
    expect(adFormProblems(draft({ quantity: '2000' }), post).quantity).toBeUndefined();
    expect(adFormProblems(draft({ quantity: '0' }), post).quantity).toBe('notPositive');
  });

  it('wants a payment window of 5 to 120 whole minutes', () => {
    for (const window of ['4', '121', '', '15.5', 'abc']) expect(adFormProblems(draft({ paymentWindow: window }), post).paymentWindow, window).toBe('windowRange');
    for (const window of ['5', '15', '120']) expect(adFormProblems(draft({ paymentWindow: window }), post).paymentWindow, window).toBeUndefined();
  });

  it('wants a contact, and plain text in the contact and the remark', () => {
    expect(adFormProblems(draft({ contact: '  ' }), post).contact).toBe('required');
    expect(adFormProblems(draft({ contact: '<b>me</b>' }), post).contact).toBe('plainText');
    expect(adFormProblems(draft({ contact: 'x'.repeat(201) }), post).contact).toBe('tooLong');
    expect(adFormProblems(draft({ remark: 'fast\u0007' }), post).remark).toBe('plainText');
    expect(adFormProblems(draft({ remark: 'x'.repeat(501) }), post).remark).toBe('tooLong');
  });
});

describe('adFormProblems (edit)', () => {
  const edit = { mode: 'edit' as const, currentRemaining: '300' };

  it('lets what the ad offers go down, even to zero, never up', () => {
    expect(adFormProblems(draft({ quantity: '300' }), edit).quantity).toBeUndefined();
    expect(adFormProblems(draft({ quantity: '0', min: '10' }), edit)).toEqual({});
    expect(adFormProblems(draft({ quantity: '300.5' }), edit).quantity).toBe('remainingOnlyDown');
  });
});

describe('adBody', () => {
  it('sends canonical values', () => {
    expect(adBody(draft({ fiat: ' inr ', price: '88,5', paymentWindow: ' 30 ', contact: ' tg ', remark: ' fast ' }))).toEqual({
      fiat: 'INR',
      price: '88.5',
      min: '10',
      max: '500',
      paymentWindowMinutes: 30,
      contact: 'tg',
      remark: 'fast',
    });
  });
});

describe('fiatTotal', () => {
  it('multiplies exactly and rounds up to the fiat cent, as the server does', () => {
    expect(fiatTotal('10', '88.50')).toBe('885.00');
    expect(fiatTotal('0.333333', '3')).toBe('1.00');
    expect(fiatTotal('1.000001', '1')).toBe('1.01');
    expect(fiatTotal('123.456789', '0.01')).toBe('1.24');
    expect(fiatTotal('2', '1')).toBe('2.00');
  });

  it('is undefined while either is not a number', () => {
    expect(fiatTotal('', '1')).toBeUndefined();
    expect(fiatTotal('1', 'abc')).toBeUndefined();
  });
});

describe('buyQuantityProblem', () => {
  const ad = { min: '10.000000', max: '500.000000', remaining: '300.000000' };

  it('keeps an order within the ad’s min, max and what it has left', () => {
    expect(buyQuantityProblem('10', ad)).toBeNull();
    expect(buyQuantityProblem('9.999999', ad)).toBe('belowMin');
    expect(buyQuantityProblem('300', ad)).toBeNull();
    expect(buyQuantityProblem('300.000001', ad)).toBe('aboveRemaining');
    expect(buyQuantityProblem('600', { ...ad, remaining: '1000' })).toBe('aboveMax');
    expect(buyQuantityProblem('', ad)).toBe('required');
    expect(buyQuantityProblem('1.0000001', ad)).toBe('tooManyDecimals');
  });

  it('offers the smaller of max and what is left', () => {
    expect(maxBuyable(ad)).toBe('300.000000');
    expect(maxBuyable({ max: '50', remaining: '300' })).toBe('50');
  });
});
