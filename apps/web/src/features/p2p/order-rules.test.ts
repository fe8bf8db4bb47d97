import { describe, expect, it } from 'vitest';
import {
  appealOpensAtMs,
  CHAT_WITHDRAW_WINDOW_MS,
  canWithdrawChat,
  chatImagePath,
  chatWithdrawRemainingMs,
  formatCountdown,
  isOrderInProgress,
  type OrderActions,
  orderActions,
  orderContacts,
  orderPath,
  orderStatusMessageKey,
  type P2pOrderStatus,
  type P2pRole,
  paymentRemainingMs,
} from './order-rules.ts';

const MINUTE = 60_000;
const PLACED = Date.UTC(2026, 10, 22, 12, 0, 0);
const DEADLINE = PLACED + 15 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();

const order = (status: P2pOrderStatus, role: P2pRole = 'buyer', paidAtMs: number | null = null) => ({
  id: '7',
  role,
  status,
  createdAt: iso(PLACED),
  paymentDeadline: iso(DEADLINE),
  paidAt: paidAtMs === null ? null : iso(paidAtMs),
  cancelReason: null as 'buyer' | 'expired' | null,
});

describe('formatCountdown', () => {
  it('writes minutes and seconds, rounding a started second up', () => {
    expect(formatCountdown(15 * MINUTE)).toBe('15:00');
    expect(formatCountdown(14 * MINUTE + 59_001)).toBe('15:00');
    expect(formatCountdown(14 * MINUTE + 59_000)).toBe('14:59');
    expect(formatCountdown(61_000)).toBe('1:01');
    expect(formatCountdown(9_500)).toBe('0:10');
    expect(formatCountdown(1)).toBe('0:01');
  });

  it('writes hours from an hour up', () => {
    expect(formatCountdown(60 * MINUTE)).toBe('1:00:00');
    expect(formatCountdown(120 * MINUTE - 1_000)).toBe('1:59:59');
  });

  it('never goes below zero', () => {
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-5_000)).toBe('0:00');
  });
});

describe('paymentRemainingMs', () => {
  it('counts down to the deadline while the order awaits payment', () => {
    expect(paymentRemainingMs(order('awaiting_payment'), PLACED + 5 * MINUTE)).toBe(10 * MINUTE);
    expect(paymentRemainingMs(order('awaiting_payment'), DEADLINE)).toBe(0);
    expect(paymentRemainingMs(order('awaiting_payment'), DEADLINE + MINUTE)).toBe(0);
  });

  it('never shows more than the whole window, whatever the device clock says', () => {
    expect(paymentRemainingMs(order('awaiting_payment'), PLACED - 60 * MINUTE)).toBe(15 * MINUTE);
  });

  it('is null once the order left "awaiting payment"', () => {
    for (const status of ['paid', 'released', 'cancelled', 'appealing', 'refunded'] as const) {
      expect(paymentRemainingMs(order(status), PLACED), status).toBeNull();
    }
  });
});

describe('orderActions', () => {
  const none: OrderActions = { markPaid: false, cancel: false, release: false, appeal: false };

  it('lets the buyer mark paid and cancel while the window is open', () => {
    expect(orderActions(order('awaiting_payment', 'buyer'), PLACED + MINUTE)).toEqual({ ...none, markPaid: true, cancel: true });
  });

  it('takes "I have paid" away when the window is over, and leaves cancel', () => {
    expect(orderActions(order('awaiting_payment', 'buyer'), DEADLINE)).toEqual({ ...none, cancel: true });
  });

  it('gives the seller nothing to do before payment', () => {
    expect(orderActions(order('awaiting_payment', 'seller'), PLACED + MINUTE)).toEqual(none);
  });

  it('lets the seller release a paid order, and either side appeal it', () => {
    expect(orderActions(order('paid', 'seller', PLACED + MINUTE), PLACED + 2 * MINUTE)).toEqual({ ...none, release: true, appeal: true });
    expect(orderActions(order('paid', 'buyer', PLACED + MINUTE), PLACED + 2 * MINUTE)).toEqual({ ...none, appeal: true });
  });

  it('offers nothing on a finished or appealed order', () => {
    for (const status of ['released', 'cancelled', 'appealing', 'refunded'] as const) {
      for (const role of ['buyer', 'seller'] as const) expect(orderActions(order(status, role), PLACED), `${status} ${role}`).toEqual(none);
    }
  });
});

describe('appealOpensAtMs', () => {
  it('is the payment window again after the order was marked paid', () => {
    expect(appealOpensAtMs(order('paid', 'buyer', PLACED + 5 * MINUTE))).toBe(PLACED + 20 * MINUTE);
  });

  it('is null when the order is not paid', () => {
    expect(appealOpensAtMs(order('awaiting_payment'))).toBeNull();
    expect(appealOpensAtMs(order('appealing', 'buyer', PLACED))).toBeNull();
  });
});

describe('orderStatusMessageKey', () => {
  it("gives each side the spec's message for each state", () => {
    expect(orderStatusMessageKey(order('awaiting_payment', 'buyer'))).toBe('web.p2p.message.placedPleasePay');
    expect(orderStatusMessageKey(order('awaiting_payment', 'seller'))).toBe('web.p2p.message.placedWaitForPayment');
    expect(orderStatusMessageKey(order('paid', 'buyer'))).toBe('web.p2p.message.paidWaitingForSeller');
    expect(orderStatusMessageKey(order('paid', 'seller'))).toBe('web.p2p.message.sellerShouldConfirm');
    expect(orderStatusMessageKey(order('released', 'seller'))).toBe('web.p2p.message.releasedToBuyer');
    expect(orderStatusMessageKey(order('appealing', 'buyer'))).toBe('web.p2p.message.appealing');
    expect(orderStatusMessageKey(order('refunded', 'buyer'))).toBe('web.p2p.message.refunded');
  });

  it('tells a cancellation by the buyer from an expiry', () => {
    expect(orderStatusMessageKey({ ...order('cancelled'), cancelReason: 'buyer' })).toBe('web.p2p.message.cancelled');
    expect(orderStatusMessageKey({ ...order('cancelled'), cancelReason: 'expired' })).toBe('web.p2p.message.cancelledExpired');
  });
});

describe('paths and states', () => {
  it('opens the page of the caller’s side', () => {
    expect(orderPath({ id: '7', role: 'buyer' })).toBe('/trade/shopping/trading/buy_detail/7');
    expect(orderPath({ id: '7', role: 'seller' })).toBe('/trade/shopping/trading/sell_detail/7');
  });

  it('names the image of a chat message', () => {
    expect(chatImagePath('7', '42')).toBe('/home/p2p/orders/7/chat/42/image');
  });

  it('counts awaiting payment, paid and under appeal as in progress', () => {
    expect(['awaiting_payment', 'paid', 'appealing'].every((status) => isOrderInProgress(status as P2pOrderStatus))).toBe(true);
    expect(['released', 'cancelled', 'refunded'].some((status) => isOrderInProgress(status as P2pOrderStatus))).toBe(false);
  });
});

describe('chat withdrawal window', () => {
  const SENT = PLACED;
  const mine = { from: 'me' as const, withdrawn: false, createdAt: iso(SENT) };

  it('allows my message within 10 minutes, not at or after them', () => {
    expect(canWithdrawChat(mine, SENT)).toBe(true);
    expect(canWithdrawChat(mine, SENT + CHAT_WITHDRAW_WINDOW_MS - 1)).toBe(true);
    expect(canWithdrawChat(mine, SENT + CHAT_WITHDRAW_WINDOW_MS)).toBe(false);
    expect(chatWithdrawRemainingMs(mine, SENT + 4 * MINUTE)).toBe(6 * MINUTE);
  });

  it('never more than the window, even when the device clock is behind', () => {
    expect(chatWithdrawRemainingMs(mine, SENT - 30 * MINUTE)).toBe(CHAT_WITHDRAW_WINDOW_MS);
  });

  it('never allows theirs, nor one already withdrawn', () => {
    expect(canWithdrawChat({ ...mine, from: 'them' }, SENT)).toBe(false);
    expect(canWithdrawChat({ ...mine, withdrawn: true }, SENT)).toBe(false);
    expect(canWithdrawChat({ ...mine, createdAt: 'not a time' }, SENT)).toBe(false);
  });
});

describe('orderContacts', () => {
  const contacts = (role: 'buyer' | 'seller', adSide: 'sell' | 'buy') =>
    orderContacts({ role, adSide, sellerContact: 'SEPA DE89 3704', buyerContact: adSide === 'buy' ? 'Telegram: @buyer' : null }).map(
      ({ label, value, testId }) => [testId, label, value],
    );

  it('on a sell ad: where the buyer pays, the seller’s own contact to the seller', () => {
    expect(contacts('buyer', 'sell')).toEqual([['order-seller-contact', 'web.p2p.order.sellerContact', 'SEPA DE89 3704']]);
    expect(contacts('seller', 'sell')).toEqual([['order-seller-contact', 'web.p2p.order.yourContact', 'SEPA DE89 3704']]);
  });

  it('on a buy ad: the seller reads where the buyer pays them and the buyer’s contact; the buyer where to pay and their own', () => {
    expect(contacts('seller', 'buy')).toEqual([
      ['order-seller-contact', 'web.p2p.order.buyerPaysYouAt', 'SEPA DE89 3704'],
      ['order-buyer-contact', 'web.p2p.order.buyerContact', 'Telegram: @buyer'],
    ]);
    expect(contacts('buyer', 'buy')).toEqual([
      ['order-seller-contact', 'web.p2p.order.paySellerAt', 'SEPA DE89 3704'],
      ['order-buyer-contact', 'web.p2p.order.yourBuyContact', 'Telegram: @buyer'],
    ]);
  });
});
