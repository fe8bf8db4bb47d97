import { describe, expect, it } from 'vitest';
import { acceptableQuantity, type AdFormContext, adFormSchema, buyFormSchema, fiatTotal, maxBuyable, maxSellable, p2pRules, sellIntoFormSchema } from './ad-form.ts';

const values = (changes: Record<string, unknown> = {}) => ({
  fiat: 'INR',
  price: '88.50',
  min: '10',
  max: '500',
  quantity: '1000',
  paymentWindowMinutes: 15,
  contact: 'telegram: @seller',
  remark: '',
  ...changes,
});

/** The message of each field's first problem (`{}` when the form may be sent). */
function problems(context: AdFormContext, changes: Record<string, unknown> = {}): Record<string, string> {
  const result = adFormSchema(() => context).safeParse(values(changes));
  if (result.success) return {};
  const found: Record<string, string> = {};
  for (const issue of result.error.issues) found[issue.path.join('.')] ??= issue.message;
  return found;
}

describe('the sell-ad form (new ad)', () => {
  const post: AdFormContext = { mode: 'post', available: '2000' };

  it('accepts a complete ad and sends canonical values', () => {
    expect(problems(post)).toEqual({});
    const parsed = adFormSchema(() => post).parse(values({ fiat: ' inr ', price: '88,5', contact: ' tg ', remark: ' fast ' }));
    expect(parsed).toEqual({ fiat: 'INR', price: '88.5', min: '10', max: '500', quantity: '1000', paymentWindowMinutes: 15, contact: 'tg', remark: 'fast' });
  });

  it('takes the contract’s rules: an ISO currency code, the window of 5 to 120 whole minutes, plain text', () => {
    expect(problems(post, { fiat: 'rupees' }).fiat).toBeDefined();
    for (const window of [4, 121, 15.5, Number.NaN]) expect(problems(post, { paymentWindowMinutes: window }).paymentWindowMinutes, String(window)).toBeDefined();
    for (const window of [5, 120]) expect(problems(post, { paymentWindowMinutes: window }).paymentWindowMinutes).toBeUndefined();
    expect(problems(post, { contact: '  ' }).contact).toBeDefined();
    expect(problems(post, { contact: '<b>me</b>' }).contact).toBeDefined();
    expect(problems(post, { contact: 'x'.repeat(201) }).contact).toBeDefined();
    expect(problems(post, { remark: 'fast\u0007' }).remark).toBeDefined();
  });

  it('checks each amount: a price of at most two decimals, quantities of six, above zero', () => {
    expect(problems(post, { price: '88.505' }).price).toBe('amount:tooManyDecimals');
    expect(problems(post, { price: '0' }).price).toBe('amount:notPositive');
    expect(problems(post, { max: '1.0000001' }).max).toBe('amount:tooManyDecimals');
    expect(problems(post, { quantity: 'ten' }).quantity).toBe('amount:format');
  });

  it('keeps the limits in order: 1 USDT ≤ min ≤ max, min ≤ total', () => {
    expect(problems(post, { min: '0.5' }).min).toBe(p2pRules.minBelowFloor);
    expect(problems(post, { min: '1' }).min).toBeUndefined();
    expect(problems(post, { min: '600' }).min).toBe(p2pRules.minAboveMax);
    expect(problems(post, { min: '200', max: '5000', quantity: '100' }).min).toBe(p2pRules.minAboveQuantity);
    // A limit compared with a field that has its own problem waits for that one.
    expect(problems(post, { min: '600', max: 'lots' })).toEqual({ max: 'amount:format' });
  });

  it('freezes no more than the fiat account has, as it is when the form is checked', () => {
    expect(problems(post, { quantity: '2000.000001' }).quantity).toBe('amount:aboveAvailable');
    expect(problems(post, { quantity: '2000' }).quantity).toBeUndefined();
    expect(problems(post, { quantity: '0' }).quantity).toBe('amount:notPositive');
    const context: AdFormContext = { mode: 'post', available: '2000' };
    const schema = adFormSchema(() => context);
    context.available = '500';
    expect(schema.safeParse(values()).success).toBe(false);
  });
});

describe('the ad form for a buy ad (new ad)', () => {
  const post: AdFormContext = { mode: 'post', side: 'buy', available: '0' };

  it('holds nothing, so the balance is no limit; the same rules between fields apply', () => {
    expect(problems(post)).toEqual({});
    expect(problems(post, { quantity: '1000000' })).toEqual({});
    expect(problems({ ...post, side: 'sell' }).quantity).toBe('amount:aboveAvailable');
    expect(problems(post, { min: '0.5' }).min).toBe(p2pRules.minBelowFloor);
    expect(problems(post, { min: '200', max: '5000', quantity: '100' }).min).toBe(p2pRules.minAboveQuantity);
    expect(problems(post, { contact: '' }).contact).toBeDefined();
  });
});

describe('the sell-ad form (edit)', () => {
  const edit: AdFormContext = { mode: 'edit', currentRemaining: '300' };

  it('lets what the ad offers go down, even to zero, never up', () => {
    expect(problems(edit, { quantity: '300' })).toEqual({});
    expect(problems(edit, { quantity: '0', min: '10' })).toEqual({});
    expect(problems(edit, { quantity: '300.5' }).quantity).toBe(p2pRules.remainingOnlyDown);
    expect(problems(edit, { quantity: '-1' }).quantity).toBe('amount:format');
  });
});

describe('the buy form', () => {
  const ad = { min: '10.000000', max: '500.000000', remaining: '300.000000' };
  const quantityProblem = (quantity: string) => {
    const result = buyFormSchema(ad).safeParse({ quantity, remark: '' });
    return result.success ? null : result.error.issues[0]!.message;
  };

  it('keeps an order within the ad’s min, max and what it has left', () => {
    expect(quantityProblem('10')).toBeNull();
    expect(quantityProblem('9.999999')).toBe(p2pRules.belowMin);
    expect(quantityProblem('300')).toBeNull();
    expect(quantityProblem('300.000001')).toBe(p2pRules.aboveRemaining);
    expect(buyFormSchema({ ...ad, remaining: '1000' }).safeParse({ quantity: '600', remark: '' }).error?.issues[0]?.message).toBe(p2pRules.aboveMax);
    expect(quantityProblem('1.0000001')).toBe('amount:tooManyDecimals');
  });

  it('sends the quantity as typed, canonical, and the remark trimmed', () => {
    expect(buyFormSchema(ad).parse({ quantity: ' 12,5 ', remark: ' IMPS ' })).toEqual({ quantity: '12.5', remark: 'IMPS' });
  });

  it('prices only a quantity the ad would take', () => {
    expect(acceptableQuantity('100', ad)).toBe('100');
    expect(acceptableQuantity('5', ad)).toBeNull();
    expect(acceptableQuantity('', ad)).toBeNull();
  });

  it('offers the smaller of max and what is left', () => {
    expect(maxBuyable(ad)).toBe('300.000000');
    expect(maxBuyable({ max: '50', remaining: '300' })).toBe('50');
  });
});

describe('the sell-into form (a buy ad)', () => {
  const ad = { min: '10.000000', max: '50.000000', remaining: '100.000000' };
  const valid = { quantity: '20', contact: 'SEPA DE89 3704', remark: '' };
  /** `available` null: the balance is not known yet. */
  const firstProblems = (values: Record<string, unknown>, available: string | null = '40') => {
    const result = sellIntoFormSchema(ad, () => available ?? undefined).safeParse({ ...valid, ...values });
    if (result.success) return {};
    const found: Record<string, string> = {};
    for (const issue of result.error.issues) found[issue.path.join('.')] ??= issue.message;
    return found;
  };

  it('sends the quantity canonical, the payment details and the note trimmed', () => {
    expect(sellIntoFormSchema(ad, () => '40').parse({ quantity: ' 12,5 ', contact: ' UPI me@bank ', remark: ' thanks ' })).toEqual({
      quantity: '12.5',
      contact: 'UPI me@bank',
      remark: 'thanks',
    });
  });

  it('requires payment details: plain text, not blank, at most 200 characters', () => {
    expect(firstProblems({ contact: '' }).contact).toBeDefined();
    expect(firstProblems({ contact: '   ' }).contact).toBeDefined();
    expect(firstProblems({ contact: '<b>x</b>' }).contact).toBeDefined();
    expect(firstProblems({ contact: 'x'.repeat(201) }).contact).toBeDefined();
    expect(firstProblems({ contact: 'x'.repeat(200) })).toEqual({});
  });

  it('keeps the quantity within the ad, then within the fiat account’s balance as it is when checked', () => {
    expect(firstProblems({ quantity: '9.999999' }).quantity).toBe(p2pRules.belowMin);
    expect(firstProblems({ quantity: '50.000001' }, '1000').quantity).toBe(p2pRules.aboveMax);
    expect(firstProblems({ quantity: '60' }, '1000').quantity).toBe(p2pRules.aboveMax);
    expect(sellIntoFormSchema({ ...ad, remaining: '30' }, () => '1000').safeParse({ ...valid, quantity: '31' }).error?.issues[0]?.message).toBe(p2pRules.aboveRemaining);
    expect(firstProblems({ quantity: '40' })).toEqual({});
    expect(firstProblems({ quantity: '40.000001' }).quantity).toBe('amount:aboveAvailable');
    // The ad's limit is said before the balance.
    expect(firstProblems({ quantity: '5' }, '1').quantity).toBe(p2pRules.belowMin);
    // While the balance is not known only the ad limits.
    expect(firstProblems({ quantity: '50' }, null)).toEqual({});
    const balance = { now: '100' };
    const schema = sellIntoFormSchema(ad, () => balance.now);
    expect(schema.safeParse(valid).success).toBe(true);
    balance.now = '19.999999';
    expect(schema.safeParse(valid).success).toBe(false);
  });

  it('offers the smallest of the ad’s max, what it still wants and the balance', () => {
    expect(maxSellable(ad, '40.5')).toBe('40.5');
    expect(maxSellable(ad, '1000.000000')).toBe('50.000000');
    expect(maxSellable({ max: '50', remaining: '30' }, '1000')).toBe('30');
    expect(maxSellable(ad, undefined)).toBeUndefined();
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
