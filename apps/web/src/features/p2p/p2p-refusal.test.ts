import { errorCatalogue } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { describeP2pRefusal, type P2pRefusalFormat } from './p2p-refusal.ts';

const format: P2pRefusalFormat = {
  amount: (value, unit) => (unit ? `${value} ${unit}` : value),
  time: (value) => `T(${value})`,
};
const refuse = (key: keyof typeof errorCatalogue, data: unknown = null) => describeP2pRefusal(errorCatalogue[key].msg, data, format);

describe('describeP2pRefusal', () => {
  it('sends an unverified user to the verification centre, and says when it is the seller', () => {
    expect(refuse('IDENTITY_VERIFICATION_REQUIRED')).toMatchObject({ action: 'verify', details: [{ key: 'web.p2p.refusal.identity' }] });
    const seller = refuse('IDENTITY_VERIFICATION_REQUIRED', { party: 'seller' });
    expect(seller.action).toBeUndefined();
    expect(seller.details[0]?.key).toBe('web.p2p.refusal.sellerIdentity');
    expect(refuse('ADVANCED_VERIFICATION_REQUIRED', { party: 'buyer' })).toMatchObject({ action: 'advanced' });
  });

  it('asks for a contact method before selling', () => {
    expect(refuse('CONTACT_METHOD_REQUIRED')).toMatchObject({ errorKey: 'CONTACT_METHOD_REQUIRED', action: 'contact', details: [{ key: 'web.p2p.refusal.contact' }] });
  });

  it('says one cannot trade with one’s own ad, in the words of its side', () => {
    expect(refuse('CANNOT_SELL_OWN_ORDER').details).toEqual([{ key: 'web.p2p.refusal.ownAd', vars: {} }]);
    expect(describeP2pRefusal(errorCatalogue.CANNOT_SELL_OWN_ORDER.msg, null, format, { adSide: 'sell' }).details).toEqual([{ key: 'web.p2p.refusal.ownAd', vars: {} }]);
    expect(describeP2pRefusal(errorCatalogue.CANNOT_SELL_OWN_ORDER.msg, null, format, { adSide: 'buy' }).details).toEqual([{ key: 'web.p2p.refusal.ownBuyAd', vars: {} }]);
  });

  it('marks the quantity on insufficient balance and offers a transfer to the fiat account', () => {
    expect(refuse('INSUFFICIENT_BALANCE')).toMatchObject({ field: 'quantity', action: 'transfer', details: [{ key: 'web.p2p.refusal.balance' }] });
  });

  it('names each wrong purchase quantity and its field', () => {
    expect(refuse('WRONG_PURCHASE_QUANTITY', { problem: 'min_below_floor', floor: '1' })).toMatchObject({
      field: 'min',
      details: [{ key: 'web.p2p.refusal.minBelowFloor', vars: { floor: '1 USDT' } }],
    });
    expect(refuse('WRONG_PURCHASE_QUANTITY', { problem: 'min_above_max' }).field).toBe('min');
    expect(refuse('WRONG_PURCHASE_QUANTITY', { problem: 'remaining_only_goes_down', remaining: '300.000000' })).toMatchObject({
      field: 'quantity',
      details: [{ key: 'web.p2p.refusal.remainingOnlyDown', vars: { remaining: '300.000000 USDT' } }],
    });
    expect(refuse('WRONG_PURCHASE_QUANTITY', { problem: 'remaining_only_goes_down' }).details).toEqual([{ key: 'web.p2p.refusal.remainingOnlyDownPlain', vars: {} }]);
    expect(refuse('WRONG_PURCHASE_QUANTITY', { problem: 'above_remaining' }).details).toEqual([{ key: 'web.p2p.refusal.aboveRemaining', vars: {} }]);
    // An unknown problem still marks the field, with the catalogue message alone.
    expect(refuse('WRONG_PURCHASE_QUANTITY', { problem: '<script>' })).toMatchObject({ field: 'quantity', details: [] });
  });

  it('names the field of a wrong amount', () => {
    expect(refuse('WRONG_AMOUNT', { field: 'price', problem: 'too_many_decimals', scale: 2 })).toMatchObject({
      field: 'price',
      details: [{ key: 'web.p2p.refusal.amountDecimals', vars: { scale: 2 } }],
    });
  });

  it('says why an order step does not fit, including an appeal before its window', () => {
    expect(refuse('ORDER_STATE_CHANGED', { problem: 'appeal_too_early', status: 'paid' }).details).toEqual([{ key: 'web.p2p.refusal.appealTooEarly', vars: {} }]);
    expect(refuse('ORDER_STATE_CHANGED', { problem: 'payment_window_over' }).details[0]?.key).toBe('web.p2p.refusal.paymentWindowOver');
    expect(refuse('ORDER_STATE_CHANGED', { problem: 'not_your_step', role: 'seller' }).details[0]?.key).toBe('web.p2p.refusal.notYourStep');
    expect(refuse('ORDER_STATE_CHANGED', { problem: 'wrong_state' }).details[0]?.key).toBe('web.p2p.refusal.wrongState');
  });

  it('says until when ordering is restricted', () => {
    const until = '2026-11-23T10:00:00.000Z';
    expect(refuse('ORDERING_RESTRICTED', { until }).details).toEqual([{ key: 'web.p2p.refusal.restrictedUntil', vars: { time: `T(${until})` } }]);
    expect(refuse('ORDERING_RESTRICTED', { until: 'soon' }).details[0]?.key).toBe('web.p2p.refusal.restricted');
  });

  it('handles the payment password: not set, wrong, too many attempts', () => {
    expect(refuse('PAYMENT_PASSWORD_NOT_SET')).toMatchObject({ action: 'paymentPassword' });
    expect(refuse('WRONG_PAYMENT_PASSWORD')).toMatchObject({ field: 'paymentPassword', details: [] });
    expect(refuse('WRONG_PAYMENT_PASSWORD', { failuresLeft: 1, maxFailures: 5, lockedUntil: null }).details).toEqual([
      { key: 'web.paymentPassword.failuresLeft', vars: { left: 1 } },
    ]);
    const lockedUntil = '2026-11-25T10:00:00.000Z';
    expect(refuse('PAYMENT_PASSWORD_LOCKED', { until: lockedUntil, maxFailures: 5 })).toMatchObject({
      field: 'paymentPassword',
      details: [{ key: 'web.paymentPassword.lockedUntil', vars: { time: `T(${lockedUntil})` } }],
    });
    expect(refuse('TOO_MANY_REQUESTS', { retryAfterSeconds: 29.2 })).toMatchObject({
      retryAfterSeconds: 30,
      details: [{ key: 'web.p2p.refusal.retry', vars: { seconds: 30 } }],
    });
    expect(refuse('TOO_MANY_REQUESTS', { retryAfterSeconds: 'x' }).retryAfterSeconds).toBeUndefined();
  });

  it('explains the chat refusals', () => {
    expect(refuse('WITHDRAW_WINDOW_OVER').details[0]?.key).toBe('web.p2p.refusal.withdrawWindow');
    expect(refuse('TOO_MANY_ITEMS', { limit: 500 }).details).toEqual([{ key: 'web.p2p.refusal.chatFull', vars: { limit: 500 } }]);
  });

  it('marks the appeal reason when the server finds it too short', () => {
    expect(refuse('PARAMETER_ERROR', { fields: [{ field: 'body.reason', message: 'say what happened' }] })).toMatchObject({ field: 'reason' });
    expect(refuse('PARAMETER_ERROR', { fields: [{ field: 'body.other' }] }).field).toBeUndefined();
  });

  it('leaves an unknown message without details', () => {
    expect(describeP2pRefusal('something else', { problem: 'x' }, format)).toEqual({ errorKey: undefined, details: [] });
  });
});
