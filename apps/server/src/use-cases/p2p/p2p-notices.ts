import { formatAmount, type P2pNotice } from '@keel/domain';
import type { MessageKey } from '@keel/locales';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { publishToUser } from '../../realtime/publish.ts';
import { messageUser } from '../wallet/wallet-support.ts';
import { FIAT_SCALE, P2P_SCALE } from './p2p-views.ts';
import { toMinor } from '../../persistence/ledger.store.ts';

/** Each step's message of spec section 4, to each side; `placed` tells the seller of a new order. */
export type PartyNotice = P2pNotice | 'placed';

const bodyKeys: Record<PartyNotice, MessageKey> = {
  placed_please_pay: 'notify.p2p.placed_please_pay',
  placed: 'notify.p2p.placed',
  paid_waiting_for_seller: 'notify.p2p.paid_waiting_for_seller',
  seller_should_confirm: 'notify.p2p.seller_should_confirm',
  released_to_buyer: 'notify.p2p.released_to_buyer',
  cancelled: 'notify.p2p.cancelled',
  expired: 'notify.p2p.expired',
  appealed: 'notify.p2p.appealed',
  refunded: 'notify.p2p.refunded',
};

/** Sends the buyer and the seller of an order their message for a step, in each one's language. */
export async function tellParties(tx: Queryable, orderId: bigint, notice: { buyer: PartyNotice; seller: PartyNotice }, at: Date): Promise<void> {
  const [order] = await tx.query<{ order_no: string; buyer_id: bigint; seller_id: bigint; quantity_minor: string; total_fiat_minor: string; fiat: string; asset: string }>(
    'SELECT order_no, buyer_id, seller_id, quantity_minor, total_fiat_minor, fiat, asset FROM p2p_orders WHERE id = $1',
    [orderId],
  );
  if (!order) return;
  const vars = {
    orderNo: order.order_no,
    quantity: formatAmount(toMinor(order.quantity_minor), P2P_SCALE),
    asset: order.asset,
    total: formatAmount(toMinor(order.total_fiat_minor), FIAT_SCALE),
    fiat: order.fiat,
  };
  for (const [userId, which] of [
    [order.buyer_id, notice.buyer],
    [order.seller_id, notice.seller],
  ] as const) {
    await messageUser(tx, userId, { title: 'notify.p2p.title', body: bodyKeys[which] }, vars, at);
  }
}

/**
 * After the step's transaction has committed: both sides' open connections hear that the order
 * changed (and that a system message waits), so their pages refetch. Never throws.
 */
export async function announceOrder(deps: Pick<Deps, 'events' | 'logger'>, order: { id: bigint; buyer_id: bigint; seller_id: bigint }, status: string) {
  for (const userId of [order.buyer_id, order.seller_id]) {
    await publishToUser(deps, userId, { kind: 'p2p.order', orderId: order.id.toString(), status });
    await publishToUser(deps, userId, { kind: 'message', unread: true });
  }
}
