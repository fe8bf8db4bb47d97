import type { ContractData, getP2pOrderContract, listP2pAdsContract, listP2pChatContract, p2pOrderStatuses } from '@keel/contracts';
import type { MessageKey } from '@keel/locales';

/**
 * The pure rules of the P2P screens: what an order lets each side do now, the spec's message for
 * its state, the payment countdown and the chat's withdrawal window. The server decides every step;
 * these only choose what the screen offers, so a button is never shown for a step the server would
 * certainly refuse (and where the server's clock decides — the appeal window — the refusal is
 * shown in words instead).
 */

export type P2pOrder = ContractData<typeof getP2pOrderContract>;
export type P2pAd = ContractData<typeof listP2pAdsContract>['items'][number];
export type P2pChatMessage = ContractData<typeof listP2pChatContract>['items'][number];
export type P2pOrderStatus = (typeof p2pOrderStatuses)[number];
export type P2pRole = P2pOrder['role'];

/** Spec section 9: a chat message may be withdrawn within 10 minutes of sending it. */
export const CHAT_WITHDRAW_WINDOW_MS = 10 * 60_000;

/**
 * How often an open chat and an order in progress ask the server again on their own while the push
 * connection is down (`useFallbackPolling`). Changes come as push events (`p2p.chat`, `p2p.order`),
 * and every reconnect refetches what they follow.
 */
export const CHAT_FALLBACK_POLL_MS = 30_000;
export const ORDER_FALLBACK_POLL_MS = 30_000;

/** Orders whose escrow is still held: something may still happen to them. */
export function isOrderInProgress(status: P2pOrderStatus): boolean {
  return status === 'awaiting_payment' || status === 'paid' || status === 'appealing';
}

/**
 * Milliseconds left to pay, for an order awaiting payment; null otherwise. Counted on this device's
 * clock towards the server's deadline, but never more than the whole window (deadline − placed):
 * a device clock running behind cannot show more time than the ad gives.
 */
export function paymentRemainingMs(order: Pick<P2pOrder, 'status' | 'paymentDeadline' | 'createdAt'>, nowMs: number): number | null {
  if (order.status !== 'awaiting_payment') return null;
  const deadline = Date.parse(order.paymentDeadline);
  if (Number.isNaN(deadline)) return null;
  const created = Date.parse(order.createdAt);
  const windowMs = Number.isNaN(created) ? Number.POSITIVE_INFINITY : Math.max(0, deadline - created);
  return Math.min(Math.max(0, deadline - nowMs), windowMs);
}

/** A countdown as "m:ss", or "h:mm:ss" from an hour up; partial seconds count as a whole second. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${ss}` : `${minutes}:${ss}`;
}

export interface OrderActions {
  /** The buyer says the fiat was sent (only while the window is open). */
  markPaid: boolean;
  /** The buyer calls the order off before marking it paid. */
  cancel: boolean;
  /** The seller, having received the fiat, releases the escrow. */
  release: boolean;
  /** Either side, once the order is paid; the server says whether the appeal window has opened. */
  appeal: boolean;
}

const NONE: OrderActions = { markPaid: false, cancel: false, release: false, appeal: false };

/** What the caller may do with the order now, by their side and the order's state (spec sections 4 and 6). */
export function orderActions(order: Pick<P2pOrder, 'role' | 'status' | 'paymentDeadline' | 'createdAt'>, nowMs: number): OrderActions {
  switch (order.status) {
    case 'awaiting_payment': {
      if (order.role !== 'buyer') return NONE;
      const remaining = paymentRemainingMs(order, nowMs);
      return { ...NONE, markPaid: remaining !== null && remaining > 0, cancel: true };
    }
    case 'paid':
      return { ...NONE, release: order.role === 'seller', appeal: true };
    default:
      return NONE;
  }
}

/**
 * When an appeal opens, by the server's published rule: the payment window again, counted from the
 * moment the order was marked paid (the seller's time to check and release). Null when not paid.
 */
export function appealOpensAtMs(order: Pick<P2pOrder, 'status' | 'paidAt' | 'paymentDeadline' | 'createdAt'>): number | null {
  if (order.status !== 'paid' || order.paidAt === null) return null;
  const paid = Date.parse(order.paidAt);
  const windowMs = Date.parse(order.paymentDeadline) - Date.parse(order.createdAt);
  if (Number.isNaN(paid) || Number.isNaN(windowMs)) return null;
  return paid + Math.max(0, windowMs);
}

export const orderStatusKeys: Record<P2pOrderStatus, MessageKey> = {
  awaiting_payment: 'web.p2p.status.awaiting_payment',
  paid: 'web.p2p.status.paid',
  released: 'web.p2p.status.released',
  cancelled: 'web.p2p.status.cancelled',
  appealing: 'web.p2p.status.appealing',
  refunded: 'web.p2p.status.refunded',
};

/** The colour family of a status badge. */
export function orderStatusTone(status: P2pOrderStatus): 'pending' | 'good' | 'bad' | 'ended' {
  if (status === 'awaiting_payment' || status === 'paid') return 'pending';
  if (status === 'released') return 'good';
  if (status === 'appealing') return 'bad';
  return 'ended';
}

/**
 * The spec's message for the order's state, as this side reads it (section 4): "order placed,
 * please pay"; "buyer marked paid, waiting for the seller"; "seller should confirm"; "released to
 * the buyer"; "order cancelled" — and Keel's words for the appeal and its refund.
 */
export function orderStatusMessageKey(order: Pick<P2pOrder, 'role' | 'status' | 'cancelReason'>): MessageKey {
  const buyer = order.role === 'buyer';
  switch (order.status) {
    case 'awaiting_payment':
      return buyer ? 'web.p2p.message.placedPleasePay' : 'web.p2p.message.placedWaitForPayment';
    case 'paid':
      return buyer ? 'web.p2p.message.paidWaitingForSeller' : 'web.p2p.message.sellerShouldConfirm';
    case 'released':
      return 'web.p2p.message.releasedToBuyer';
    case 'cancelled':
      return order.cancelReason === 'expired' ? 'web.p2p.message.cancelledExpired' : 'web.p2p.message.cancelled';
    case 'appealing':
      return 'web.p2p.message.appealing';
    case 'refunded':
      return 'web.p2p.message.refunded';
  }
}

/** A contact an order shows: its label, the text, and its test id. */
export interface OrderContact {
  label: MessageKey;
  value: string;
  testId: 'order-seller-contact' | 'order-buyer-contact';
}

/**
 * The contacts an order shows to this side. Where the buyer pays is always `sellerContact`: a sell
 * ad's contact, or the payment details the seller gave when selling into a buy ad (issue 19). An
 * order on a buy ad also shows the buy ad's contact, the buyer's. Each is labelled as this side
 * reads it.
 */
export function orderContacts(order: Pick<P2pOrder, 'role' | 'adSide' | 'sellerContact' | 'buyerContact'>): OrderContact[] {
  const buyer = order.role === 'buyer';
  if (order.adSide === 'sell') {
    return [{ label: buyer ? 'web.p2p.order.sellerContact' : 'web.p2p.order.yourContact', value: order.sellerContact, testId: 'order-seller-contact' }];
  }
  const contacts: OrderContact[] = [
    { label: buyer ? 'web.p2p.order.paySellerAt' : 'web.p2p.order.buyerPaysYouAt', value: order.sellerContact, testId: 'order-seller-contact' },
  ];
  if (order.buyerContact !== null) {
    contacts.push({ label: buyer ? 'web.p2p.order.yourBuyContact' : 'web.p2p.order.buyerContact', value: order.buyerContact, testId: 'order-buyer-contact' });
  }
  return contacts;
}

/** The page of the order for the caller's side of it. */
export function orderPath(order: Pick<P2pOrder, 'id' | 'role'>): string {
  return order.role === 'buyer' ? `/trade/shopping/trading/buy_detail/${order.id}` : `/trade/shopping/trading/sell_detail/${order.id}`;
}

export function chatPath(orderId: string): string {
  return `/trade/shopping/trading/contact/${orderId}`;
}

/** Milliseconds left to withdraw one of my messages; 0 when it cannot be withdrawn (theirs, withdrawn, too old). */
export function chatWithdrawRemainingMs(message: Pick<P2pChatMessage, 'from' | 'withdrawn' | 'createdAt'>, nowMs: number): number {
  if (message.from !== 'me' || message.withdrawn) return 0;
  const sent = Date.parse(message.createdAt);
  if (Number.isNaN(sent)) return 0;
  return Math.max(0, Math.min(CHAT_WITHDRAW_WINDOW_MS, sent + CHAT_WITHDRAW_WINDOW_MS - nowMs));
}

export function canWithdrawChat(message: Pick<P2pChatMessage, 'from' | 'withdrawn' | 'createdAt'>, nowMs: number): boolean {
  return chatWithdrawRemainingMs(message, nowMs) > 0;
}

/** The image of a chat message, fetched with the session token. */
export function chatImagePath(orderId: string, messageId: string): string {
  return `/home/p2p/orders/${encodeURIComponent(orderId)}/chat/${encodeURIComponent(messageId)}/image`;
}
