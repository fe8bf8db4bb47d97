import { errorCatalogue } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { describeRefusal, type RefusalFormat } from './refusal.ts';

const format: RefusalFormat = {
  amount: (value, unit) => (unit ? `${value} ${unit}` : value),
  time: (value) => `T(${value})`,
};
const refuse = (key: keyof typeof errorCatalogue, data: unknown, asset?: string) => describeRefusal(errorCatalogue[key].msg, data, format, asset);

describe('describeRefusal', () => {
  it('names the tier daily limit with its figures', () => {
    const refusal = refuse('WITHDRAWAL_IMPOSSIBLE', { rule: 'tier_daily_limit', tier: 1, limitUsdt: '50000', usedUsdt: '49000.5', remainingUsdt: '999.5' });
    expect(refusal.errorKey).toBe('WITHDRAWAL_IMPOSSIBLE');
    expect(refusal.details).toEqual([
      { key: 'web.withdraw.refusal.tierDailyLimit', vars: { limit: '50000 USDT', used: '49000.5 USDT', remaining: '999.5 USDT' } },
    ]);
  });

  it('names an unavailable channel, and any other rule by its code', () => {
    expect(refuse('WITHDRAWAL_IMPOSSIBLE', { rule: 'channel_unavailable' }).details[0]?.key).toBe('web.withdraw.refusal.channelUnavailable');
    expect(refuse('WITHDRAWAL_IMPOSSIBLE', { rule: 'compliance_hold' }).details).toEqual([{ key: 'web.withdraw.refusal.rule', vars: { rule: 'compliance_hold' } }]);
    expect(refuse('WITHDRAWAL_IMPOSSIBLE', null).details).toEqual([]);
  });

  it('gives the daily count, the window and the closed switch', () => {
    expect(refuse('DAILY_WITHDRAWAL_COUNT_LIMIT', { limit: 3, used: 3 }).details).toEqual([{ key: 'web.withdraw.refusal.dailyCount', vars: { limit: 3, used: 3 } }]);
    expect(refuse('TRANSACTION_TIME_LIMITED', { from: '08:00', to: '20:00', timeZone: 'UTC' }).details).toEqual([
      { key: 'web.withdraw.refusal.timeWindow', vars: { from: '08:00', to: '20:00', timeZone: 'UTC' } },
    ]);
    expect(refuse('TRANSACTION_TIME_LIMITED', { from: '8', to: '<b>' }).details).toEqual([]);
    expect(refuse('WITHDRAWAL_CLOSED', null).details[0]?.key).toBe('web.withdraw.refusal.closed');
    expect(refuse('WITHDRAWAL_FORBIDDEN', null).details[0]?.key).toBe('web.withdraw.refusal.forbidden');
  });

  it('says until when a withdrawal period applies', () => {
    const until = '2026-11-23T10:00:00.000Z';
    expect(refuse('WITHDRAWAL_PERIOD', { rule: 'password_change_lock', until }).details).toEqual([
      { key: 'web.withdraw.refusal.passwordLock', vars: { time: `T(${until})` } },
    ]);
    const hold = refuse('WITHDRAWAL_PERIOD', { rule: 'address_hold', until });
    expect(hold.details).toEqual([{ key: 'web.withdraw.refusal.addressHold', vars: { time: `T(${until})` } }]);
    expect(hold.field).toBe('address');
    expect(refuse('WITHDRAWAL_PERIOD', { rule: 'password_change_lock', until: 'not a time' }).details[0]?.key).toBe('web.withdraw.refusal.passwordLockPlain');
  });

  it('offers the next step for verification and the payment password', () => {
    expect(refuse('IDENTITY_VERIFICATION_REQUIRED', null).action).toBe('verify');
    expect(refuse('PAYMENT_PASSWORD_NOT_SET', null).action).toBe('paymentPassword');
    expect(refuse('WRONG_PAYMENT_PASSWORD', null)).toMatchObject({ field: 'paymentPassword', details: [] });
  });

  it('says how many wrong payment passwords are left, and until when it is locked', () => {
    const until = '2026-11-25T10:00:00.000Z';
    expect(refuse('WRONG_PAYMENT_PASSWORD', { failuresLeft: 3, maxFailures: 5, lockedUntil: null })).toMatchObject({
      field: 'paymentPassword',
      details: [{ key: 'web.paymentPassword.failuresLeft', vars: { left: 3 } }],
    });
    // The fifth wrong one locks it: the answer names the end of the lock.
    expect(refuse('WRONG_PAYMENT_PASSWORD', { failuresLeft: 0, maxFailures: 5, lockedUntil: until }).details).toEqual([
      { key: 'web.paymentPassword.lockedUntil', vars: { time: `T(${until})` } },
    ]);
    expect(refuse('PAYMENT_PASSWORD_LOCKED', { until, maxFailures: 5, retryAfterSeconds: 86_400 })).toMatchObject({
      errorKey: 'PAYMENT_PASSWORD_LOCKED',
      field: 'paymentPassword',
      details: [{ key: 'web.paymentPassword.lockedUntil', vars: { time: `T(${until})` } }],
    });
    expect(refuse('PAYMENT_PASSWORD_LOCKED', { until: 'soon' }).details).toEqual([{ key: 'web.paymentPassword.locked', vars: {} }]);
  });

  it('gives the minimum, the balance rule and the wait', () => {
    expect(refuse('AMOUNT_OUT_OF_RANGE', { min: '10' }, 'USDT').details).toEqual([{ key: 'web.withdraw.refusal.min', vars: { min: '10 USDT' } }]);
    expect(refuse('INSUFFICIENT_BALANCE', null).details[0]?.key).toBe('web.withdraw.refusal.balance');
    expect(refuse('TOO_MANY_REQUESTS', { retryAfterSeconds: 12.2 }).details).toEqual([{ key: 'web.withdraw.refusal.retry', vars: { seconds: 13 } }]);
  });

  it('words an address problem and a full list', () => {
    expect(refuse('WRONG_ADDRESS', { problem: 'checksum' }).details).toEqual([{ key: 'web.address.problem.checksum', vars: {} }]);
    expect(refuse('WRONG_ADDRESS', { problem: 'nonsense' }).details).toEqual([]);
    expect(refuse('TOO_MANY_ITEMS', { limit: 20 }).details).toEqual([{ key: 'web.wallet.refusal.tooManyItems', vars: { limit: 20 } }]);
  });

  it('leaves a message outside the catalogue without details', () => {
    expect(describeRefusal('something else', { rule: 'x' }, format)).toEqual({ errorKey: undefined, details: [] });
  });
});
