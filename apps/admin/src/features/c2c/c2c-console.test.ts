import { ApiError, errorCatalogue } from '@keel/contracts';
import { C2C_CONFIRM_WINDOW_MS, C2C_OFFER_WINDOW_MS, C2C_PAYMENT_WINDOW_MS } from '@keel/domain';
import { describe, expect, it } from 'vitest';
import { readFieldMessage } from '../../shared/form-messages.ts';
import {
  appealIn,
  c2cCountries,
  currencyOf,
  floatReasonKey,
  formatCountdown,
  givenBankDetails,
  isPositiveDecimal,
  isProfileMissing,
  type MerchantProfile,
  merchantProfileFormSchema,
  merchantStepOf,
  nextTermsRow,
  profileFormValues,
  profileWithOnline,
  remainingMs,
  resolutionEffectKey,
  resolveRefusalKey,
  runningDeadline,
  saveRefusal,
  stepRefusalKey,
  trimZeros,
} from './c2c-console.ts';

const refused = (key: keyof typeof errorCatalogue, data: unknown = null) => new ApiError({ code: errorCatalogue[key].status, msg: errorCatalogue[key].msg, data });

const profile: MerchantProfile = {
  merchantId: '7',
  displayName: 'Rhein Exchange',
  paymentDetails: 'IBAN DE89 3704 0044 0532 0130 00, reference = order number',
  online: true,
  terms: [{ country: 'DE', currency: 'EUR', price: '0.95', minUsdt: '10.000000', maxUsdt: '1000.500000' }],
  float: { available: '500.000000', held: '20.000000', entries: [] },
};

/** The form's problems by field path, as catalogue keys. */
function problemsOf(values: unknown): Record<string, string> {
  const result = merchantProfileFormSchema.safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), readFieldMessage(issue.message)?.key ?? issue.message]));
}

describe('the merchant profile form', () => {
  it('starts empty before the first save, and from the saved profile after it (numbers as typed)', () => {
    expect(profileFormValues(null)).toEqual({ displayName: '', paymentDetails: '', online: false, terms: [] });
    expect(profileFormValues(profile)).toEqual({
      displayName: 'Rhein Exchange',
      paymentDetails: profile.paymentDetails,
      online: true,
      terms: [{ country: 'DE', price: '0.95', minUsdt: '10', maxUsdt: '1000.5' }],
    });
  });

  it('switches online without touching anything else', () => {
    expect(profileWithOnline(profile, false)).toEqual({ ...profileFormValues(profile), online: false });
  });

  it('accepts a saved profile as it is', () => {
    expect(merchantProfileFormSchema.safeParse(profileFormValues(profile)).success).toBe(true);
  });

  it('checks the terms as the server parses them: price 2 decimals, limits 6, max not below min', () => {
    const row = { country: 'DE', price: '0.95', minUsdt: '10', maxUsdt: '100' };
    const base = { displayName: 'Rhein', paymentDetails: 'IBAN', online: true };
    expect(problemsOf({ ...base, terms: [{ ...row, price: '0.955' }] })).toEqual({ 'terms.0.price': 'admin.c2c.problem.price' });
    expect(problemsOf({ ...base, terms: [{ ...row, price: '0' }] })).toEqual({ 'terms.0.price': 'admin.c2c.problem.price' });
    expect(problemsOf({ ...base, terms: [{ ...row, minUsdt: '1.0000001' }] })).toEqual({ 'terms.0.minUsdt': 'admin.c2c.problem.usdt' });
    expect(problemsOf({ ...base, terms: [{ ...row, maxUsdt: '' }] })).toEqual({ 'terms.0.maxUsdt': 'admin.c2c.problem.usdt' });
    expect(problemsOf({ ...base, terms: [{ ...row, minUsdt: '100', maxUsdt: '99.999999' }] })).toEqual({ 'terms.0.maxUsdt': 'admin.c2c.problem.maxBelowMin' });
    expect(problemsOf({ ...base, terms: [{ ...row, minUsdt: '100', maxUsdt: '100' }] })).toEqual({});
  });

  it('refuses a country C2C does not serve and one named twice', () => {
    const base = { displayName: 'Rhein', paymentDetails: 'IBAN', online: true };
    const row = { price: '1', minUsdt: '1', maxUsdt: '2' };
    expect(problemsOf({ ...base, terms: [{ ...row, country: 'CH' }] })).toEqual({ 'terms.0.country': 'admin.c2c.problem.country' });
    expect(problemsOf({ ...base, terms: [{ ...row, country: 'DE' }, { ...row, country: 'FR' }, { ...row, country: 'DE' }] })).toEqual({
      'terms.2.country': 'admin.c2c.problem.duplicateCountry',
    });
  });

  it('keeps the contract’s own rules (a display name of 2 to 40 characters, payment details on lines without control characters)', () => {
    expect(problemsOf({ displayName: 'Rhein', paymentDetails: 'Bank X\nIBAN DE89 3704 0044 0532 0130 00', online: false, terms: [] })).toEqual({});
    const problems = problemsOf({ displayName: 'R', paymentDetails: 'pay\u0007here', online: false, terms: [] });
    expect(Object.keys(problems).sort()).toEqual(['displayName', 'paymentDetails']);
  });

  it('adds a row for the first served country without one, none when all have one', () => {
    expect(nextTermsRow([])).toEqual({ country: c2cCountries[0], price: '', minUsdt: '', maxUsdt: '' });
    expect(nextTermsRow([{ country: c2cCountries[0]! }])?.country).toBe(c2cCountries[1]);
    expect(nextTermsRow(c2cCountries.map((country) => ({ country })))).toBeNull();
  });

  it('names the currency of a served country only', () => {
    expect(currencyOf('DE')).toBe('EUR');
    expect(currencyOf('US')).toBe('USD');
    expect(currencyOf('CH')).toBeNull();
  });

  it('reads decimals as the server does', () => {
    expect(isPositiveDecimal('0.95', 2)).toBe(true);
    expect(isPositiveDecimal(' 12 ', 2)).toBe(true);
    expect(isPositiveDecimal('1,5', 2)).toBe(false);
    expect(isPositiveDecimal('-1', 6)).toBe(false);
    expect(isPositiveDecimal('0.0000001', 6)).toBe(false);
    expect(trimZeros('100.000000')).toBe('100');
    expect(trimZeros('0.920000')).toBe('0.92');
    expect(trimZeros('15')).toBe('15');
  });
});

describe('a refused profile save, on its field', () => {
  it('puts the row and number the server names on the form', () => {
    expect(saveRefusal(refused('WRONG_AMOUNT', { field: 'terms.1.maxUsdt', problem: 'below_minimum' }))).toEqual({ field: 'terms.1.maxUsdt', key: 'admin.c2c.problem.maxBelowMin' });
    expect(saveRefusal(refused('WRONG_AMOUNT', { field: 'terms.0.price', problem: 'too_many_decimals', scale: 2 }))).toEqual({
      field: 'terms.0.price',
      key: 'admin.c2c.problem.price',
      vars: { scale: 2 },
    });
    expect(saveRefusal(refused('WRONG_AMOUNT', { field: 'terms.3.minUsdt', problem: 'not_positive', scale: 6 }))).toEqual({
      field: 'terms.3.minUsdt',
      key: 'admin.c2c.problem.usdt',
      vars: { scale: 6 },
    });
    expect(saveRefusal(refused('PARAMETER_ERROR', { field: 'terms.2.country', problem: 'duplicate' }))).toEqual({ field: 'terms.2.country', key: 'admin.c2c.problem.duplicateCountry' });
    expect(saveRefusal(refused('PARAMETER_ERROR', { field: 'terms.0.country', problem: 'unknown' }))).toEqual({ field: 'terms.0.country', key: 'admin.c2c.problem.country' });
  });

  it('leaves anything else to the general message', () => {
    expect(saveRefusal(refused('PARAMETER_ERROR', { fields: [{ field: 'body.displayName', message: 'x' }] }))).toBeNull();
    expect(saveRefusal(refused('WRONG_AMOUNT', { field: 'amount', problem: 'format' }))).toBeNull();
    expect(saveRefusal(refused('PERMISSION_DENIED'))).toBeNull();
    expect(saveRefusal(new Error('offline'))).toBeNull();
  });

  it('tells a profile not saved yet from other refusals', () => {
    expect(isProfileMissing(refused('RECORD_NOT_FOUND'))).toBe(true);
    expect(isProfileMissing(refused('PERMISSION_DENIED'))).toBe(false);
    expect(isProfileMissing(null)).toBe(false);
  });
});

describe('the merchant’s step on an order', () => {
  it('follows the domain’s state machine from the merchant’s side', () => {
    expect(merchantStepOf({ kind: 'deposit', status: 'offered' })).toBe('answer_offer');
    expect(merchantStepOf({ kind: 'withdrawal', status: 'offered' })).toBe('answer_offer');
    // A deposit's user pays the merchant, who then confirms or appeals.
    expect(merchantStepOf({ kind: 'deposit', status: 'awaiting_payment' })).toBe('await_user_payment');
    expect(merchantStepOf({ kind: 'deposit', status: 'paid' })).toBe('confirm_or_appeal');
    // A withdrawal's merchant pays the user, who then confirms.
    expect(merchantStepOf({ kind: 'withdrawal', status: 'awaiting_payment' })).toBe('send_fiat');
    expect(merchantStepOf({ kind: 'withdrawal', status: 'paid' })).toBe('await_user_confirm');
    expect(merchantStepOf({ kind: 'withdrawal', status: 'appealing' })).toBe('with_support');
    expect(merchantStepOf({ kind: 'deposit', status: 'succeeded' })).toBe('ended');
    expect(merchantStepOf({ kind: 'deposit', status: 'failed' })).toBe('ended');
  });

  it('runs the offer, the payment and a withdrawal’s confirmation window, each with its length', () => {
    const none = { offerDeadlineMs: null, paymentDeadlineMs: null, confirmDeadlineMs: null };
    expect(runningDeadline({ ...none, kind: 'deposit', status: 'offered', offerDeadlineMs: 5 })).toEqual({ kind: 'offer', deadlineMs: 5, windowMs: C2C_OFFER_WINDOW_MS });
    expect(runningDeadline({ ...none, kind: 'withdrawal', status: 'awaiting_payment', paymentDeadlineMs: 9 })).toEqual({
      kind: 'payment',
      deadlineMs: 9,
      windowMs: C2C_PAYMENT_WINDOW_MS,
    });
    expect(runningDeadline({ ...none, kind: 'withdrawal', status: 'paid', confirmDeadlineMs: 11 })).toEqual({ kind: 'confirm', deadlineMs: 11, windowMs: C2C_CONFIRM_WINDOW_MS });
    // A paid deposit waits for the merchant: no clock runs against them.
    expect(runningDeadline({ ...none, kind: 'deposit', status: 'paid', confirmDeadlineMs: 11 })).toBeNull();
    expect(runningDeadline({ ...none, kind: 'deposit', status: 'appealing' })).toBeNull();
  });

  it('counts down on the device’s clock, never above the window nor below zero', () => {
    expect(remainingMs(61_000, 1_000, 60_000)).toBe(60_000);
    expect(remainingMs(61_000, 31_500, 60_000)).toBe(29_500);
    // A device clock far behind the server's still shows at most the window.
    expect(remainingMs(61_000, -600_000, 60_000)).toBe(60_000);
    expect(remainingMs(61_000, 90_000, 60_000)).toBe(0);
    expect(formatCountdown(59_001)).toBe('1:00');
    expect(formatCountdown(59_000)).toBe('0:59');
    expect(formatCountdown(245_000)).toBe('4:05');
    expect(formatCountdown(3_600_000)).toBe('1:00:00');
    expect(formatCountdown(-5)).toBe('0:00');
  });

  it('shows the bank details that were given, in the spec’s order', () => {
    const details = {
      payeeName: 'Ana Silva',
      cardNumber: '',
      routingNumber: '',
      branchNumber: '',
      bankName: 'Banco X',
      accountName: '',
      accountNumber: ' DE89370400440532013000 ',
      bankCode: '',
      swiftCode: '',
      bankAddress: '',
      branchCode: '',
      remarks: '',
    };
    expect(givenBankDetails(details)).toEqual([
      { field: 'payeeName', value: 'Ana Silva' },
      { field: 'bankName', value: 'Banco X' },
      { field: 'accountNumber', value: 'DE89370400440532013000' },
    ]);
    expect(givenBankDetails(null)).toEqual([]);
  });

  it('says what a refused step means here', () => {
    expect(stepRefusalKey(refused('ORDER_STATE_CHANGED', { problem: 'too_late', status: 'offered' }))).toBe('admin.c2c.refused.tooLate');
    expect(stepRefusalKey(refused('ORDER_STATE_CHANGED', { problem: 'wrong_state', status: 'matching' }))).toBe('admin.c2c.refused.changed');
    expect(stepRefusalKey(refused('INSUFFICIENT_BALANCE', { account: 'merchant_float' }))).toBe('admin.c2c.refused.float');
    expect(stepRefusalKey(refused('RECORD_NOT_FOUND'))).toBe('admin.c2c.refused.gone');
    expect(stepRefusalKey(refused('IDEMPOTENCY_KEY_REUSED'))).toBeNull();
    expect(stepRefusalKey(new Error('offline'))).toBeNull();
  });

  it('names the float’s known entries, and leaves others as the ledger writes them', () => {
    expect(floatReasonKey('staff.correction')).toBe('admin.c2c.float.reason.correction');
    expect(floatReasonKey('c2c.float_hold')).toBe('admin.c2c.float.reason.hold');
    expect(floatReasonKey('c2c.deposit')).toBe('admin.c2c.float.reason.deposit');
    expect(floatReasonKey('something.new')).toBeNull();
  });
});

describe('support’s C2C appeals', () => {
  it('says where the held USDT goes for each kind and outcome', () => {
    expect(resolutionEffectKey('deposit', 'complete')).toBe('admin.c2c.appeals.effect.depositComplete');
    expect(resolutionEffectKey('deposit', 'fail')).toBe('admin.c2c.appeals.effect.depositFail');
    expect(resolutionEffectKey('withdrawal', 'complete')).toBe('admin.c2c.appeals.effect.withdrawalComplete');
    expect(resolutionEffectKey('withdrawal', 'fail')).toBe('admin.c2c.appeals.effect.withdrawalFail');
  });

  it('explains a refusal by the two-person rule and an appeal resolved meanwhile', () => {
    expect(resolveRefusalKey(refused('SECOND_APPROVER_REQUIRED'))).toBe('admin.c2c.appeals.refused.secondApprover');
    expect(resolveRefusalKey(refused('ORDER_STATE_CHANGED', { problem: 'wrong_state', status: 'succeeded' }))).toBe('admin.c2c.appeals.refused.changed');
    expect(resolveRefusalKey(refused('PERMISSION_DENIED'))).toBeNull();
  });

  it('finds the appeal a URL names in the list shown', () => {
    const items = [{ id: '4' }, { id: '12' }] as unknown as Parameters<typeof appealIn>[0];
    expect(appealIn(items, '12')?.id).toBe('12');
    expect(appealIn(items, '5')).toBeUndefined();
    expect(appealIn(undefined, '12')).toBeUndefined();
  });
});
