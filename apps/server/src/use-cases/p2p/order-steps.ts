import { AppError } from '@keel/contracts';
import { discountMemo, formatAmount, type P2pCommand, p2pOrderTransition, p2pReleaseSplitWithVip, type VipLevel } from '@keel/domain';
import { vipTermsOfUser } from '../vip/vip-levels.ts';
import type { Deps } from '../../deps.ts';
import type { JobHandler } from '../../jobs/runner.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { takeFromHold } from '../../persistence/ledger-holds.store.ts';
import { ensurePlatformAccount, ensureUserAccount, toMinor } from '../../persistence/ledger.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { checkPaymentPassword } from '../user/check-payment-password.ts';
import { announceOrder, tellParties } from './p2p-notices.ts';
import { type AdRow, findOrderView, type OrderRow, type OrderView } from './p2p-views.ts';

type Actor = { kind: 'user'; userId: bigint } | { kind: 'system' } | { kind: 'staff' };

/**
 * One step of an order, inside the caller's transaction. Locks, in this order: the order, its ad,
 * then (inside takeFromHold) the escrow hold — the ad's for a sell ad, the order's own for a buy ad
 * (issue 19) — and the ledger accounts in id order: the order every P2P writer uses. The domain decides; here its effect is applied:
 * - back to the ad: the quantity is offered again (or, the ad being closed, returned to the seller);
 * - release: one entry pays the escrow out, the quantity less 0.1 % to the buyer's fiat account (P2P
 *   purchases land there), the fee to the fees account;
 * - refund: the escrow returns to the seller's balance (the account the hold is on: their fiat account).
 * Returns the order as it was before the step, or null when a system step no longer applies (e.g.
 * the expiry job of an order paid meanwhile); a user's or staff step that does not apply throws.
 */
export async function applyStep(
  tx: Queryable,
  orderId: bigint,
  actor: Actor,
  command: P2pCommand,
  at: Date,
  /** The configured VIP table: a release charges the buyer's fee at their level now. */
  vipLevels: readonly VipLevel[],
): Promise<OrderRow | null> {
  const [order] = await tx.query<OrderRow>('SELECT * FROM p2p_orders WHERE id = $1 FOR UPDATE', [orderId]);
  const party = order && actor.kind === 'user' ? (order.buyer_id === actor.userId ? 'buyer' : order.seller_id === actor.userId ? 'seller' : null) : null;
  // Someone else's order is "not found": its existence is not told.
  if (!order || (actor.kind === 'user' && party === null)) throw new AppError('RECORD_NOT_FOUND');
  // Each user step belongs to one side; from the other side it is simply not a step of theirs.
  const stepSide = command.kind === 'mark_paid' || command.kind === 'cancel' ? 'buyer' : command.kind === 'release' ? 'seller' : null;
  if (actor.kind === 'user' && stepSide !== null && party !== stepSide) throw new AppError('ORDER_STATE_CHANGED', { problem: 'not_your_step', role: party });
  // An appeal opens once the payment window has passed again after "paid": the seller's time to check and release.
  const appealAfterMs = order.payment_deadline.getTime() - order.created_at.getTime();
  const outcome = p2pOrderTransition(
    { status: order.status, paymentDeadlineMs: order.payment_deadline.getTime(), paidAtMs: order.paid_at?.getTime() ?? null },
    command,
    at.getTime(),
    appealAfterMs,
  );
  if (!outcome.ok) {
    if (actor.kind === 'system') return null;
    throw new AppError('ORDER_STATE_CHANGED', { problem: outcome.problem, status: order.status });
  }
  const [ad] = await tx.query<AdRow>('SELECT * FROM p2p_ads WHERE id = $1 FOR UPDATE', [order.ad_id]);
  const quantityMinor = toMinor(order.quantity_minor);
  // The escrow: the order's own hold on a buy ad (the seller's coins held on their fiat account when
  // they sold into it), the ad's hold on a sell ad.
  const escrowHoldId = order.hold_id ?? ad!.hold_id!;
  let closingEntryId: bigint | null = null;
  if (outcome.effect === 'return_to_ad') {
    // The quantity is wanted or offered again while the ad is open.
    if (ad!.status === 'open') {
      await tx.query('UPDATE p2p_ads SET remaining_minor = remaining_minor + $2, updated_at = $3 WHERE id = $1', [ad!.id, quantityMinor.toString(), at]);
    }
    // The seller's coins: back to them from the order's hold (a buy ad), or from a closed sell ad's hold.
    if (order.hold_id !== null) {
      await takeFromHold(tx, { holdId: order.hold_id, returnMinor: quantityMinor, reason: 'p2p.order_cancelled', memo: `P2P order ${order.order_no}`, at });
    } else if (ad!.status !== 'open') {
      await takeFromHold(tx, { holdId: ad!.hold_id!, returnMinor: quantityMinor, reason: 'p2p.order_cancelled', at });
    }
  } else if (outcome.effect === 'release_to_buyer') {
    // The buyer pays the fee: their VIP level now applies, and the entry's memo shows the discount (ADR 0046).
    if (vipLevels.length === 0) throw new Error('a release needs the VIP table');
    const releaseVip = await vipTermsOfUser(tx, vipLevels, order.buyer_id);
    const split = p2pReleaseSplitWithVip(quantityMinor, releaseVip);
    const scale = await assetScaleOf(tx, order.asset);
    const vipMemo = discountMemo(split, (minor) => `${formatAmount(minor, scale)} ${order.asset}`);
    // The level and its discount are kept on the order: what was charged stays shown if the table changes.
    await tx.query('UPDATE p2p_orders SET release_vip_level = $2, release_vip_discount_bps = $3 WHERE id = $1', [order.id, releaseVip.level, releaseVip.feeDiscountBps]);
    const buyerFiat = await ensureUserAccount(tx, order.buyer_id, 'fiat', order.asset);
    const fees = await ensurePlatformAccount(tx, 'fees', order.asset);
    ({ entryId: closingEntryId } = await takeFromHold(tx, {
      holdId: escrowHoldId,
      payouts: [{ toAccountId: buyerFiat, amountMinor: split.toBuyerMinor }, ...(split.feeMinor > 0n ? [{ toAccountId: fees, amountMinor: split.feeMinor }] : [])],
      reason: 'p2p.release',
      memo: vipMemo ? `P2P order ${order.order_no} · ${vipMemo}` : `P2P order ${order.order_no}`,
      at,
    }));
  } else if (outcome.effect === 'refund_to_seller') {
    ({ entryId: closingEntryId } = await takeFromHold(tx, { holdId: escrowHoldId, returnMinor: quantityMinor, reason: 'p2p.refund', memo: `P2P order ${order.order_no}`, at }));
  }
  const ended = outcome.status === 'released' || outcome.status === 'cancelled' || outcome.status === 'refunded';
  await tx.query(
    `UPDATE p2p_orders SET status = $2, paid_at = COALESCE(paid_at, $3), ended_at = $4, cancel_reason = $5, closing_entry_id = COALESCE($6, closing_entry_id)
     WHERE id = $1`,
    [
      order.id,
      outcome.status,
      outcome.status === 'paid' ? at : null,
      ended ? at : null,
      outcome.status === 'cancelled' ? (command.kind === 'expire' ? 'expired' : 'buyer') : null,
      closingEntryId,
    ],
  );
  await tellParties(tx, order.id, outcome.notice, at);
  return order;
}

async function assetScaleOf(tx: Queryable, asset: string): Promise<number> {
  const [row] = await tx.query<{ scale: number }>('SELECT scale FROM ledger_assets WHERE code = $1', [asset]);
  return Number(row!.scale);
}

/** Through the API, a step's answer (the order as the user then sees it) commits with the step (ADR 0019). */
type StepAnswer = IdempotentRequest<OrderView> | undefined;

async function userStep(
  deps: Deps,
  user: UserRow,
  orderId: bigint,
  command: P2pCommand,
  idempotency: StepAnswer,
  alsoInTransaction?: (tx: Queryable, at: Date) => Promise<void>,
) {
  const at = deps.now();
  const { order, view } = await deps.db.transaction(async (tx) => {
    const before = await applyStep(tx, orderId, { kind: 'user', userId: user.id }, command, at, deps.config.VIP_LEVELS);
    await alsoInTransaction?.(tx, at);
    const after = await findOrderView(tx, orderId, user.id, deps.config.VIP_LEVELS);
    await idempotency?.answerInTransaction(tx, after);
    return { order: before, view: after };
  });
  if (order) await announceOrder(deps, order, view.status);
  return view;
}

export const markOrderPaid = (deps: Deps, buyer: UserRow, orderId: bigint, idempotency?: StepAnswer) =>
  userStep(deps, buyer, orderId, { kind: 'mark_paid', by: 'buyer' }, idempotency);
export const cancelOrder = (deps: Deps, buyer: UserRow, orderId: bigint, idempotency?: StepAnswer) =>
  userStep(deps, buyer, orderId, { kind: 'cancel', by: 'buyer' }, idempotency);

/** The seller releases with the payment password (checked first, outside the transaction). */
export async function releaseOrder(deps: Deps, seller: UserRow, orderId: bigint, paymentPassword: string, idempotency?: StepAnswer) {
  // A party check before the password, so nobody but the seller can probe it through an order.
  await findOrderView(deps.db, orderId, seller.id, deps.config.VIP_LEVELS);
  await checkPaymentPassword(deps, seller, paymentPassword);
  return userStep(deps, seller, orderId, { kind: 'release', by: 'seller' }, idempotency);
}

/**
 * The durable expiry of an unpaid order (job `p2p.order.expire`, due at the payment deadline). It
 * runs in the job's transaction, so the cancellation and the job's "done" mark commit together:
 * however many runners there are, an order expires once. An order paid or cancelled meanwhile is
 * left as it is.
 */
export const expireOrderJob: JobHandler = async (tx, job) => {
  // Never before the deadline (the runner's clock may differ from this process's).
  const at = new Date(Math.max(Date.now(), job.run_at.getTime()));
  // An expiry only ever cancels (the machine releases nothing on expiry), so it reads no VIP table.
  await applyStep(tx, BigInt(String(job.payload.orderId)), { kind: 'system' }, { kind: 'expire' }, at, []);
};

/**
 * Either side appeals a paid order the seller has not released within the window; the escrow stays
 * frozen, and the appeal (who, why) is recorded with the step, for support staff.
 */
export async function appealOrder(deps: Deps, user: UserRow, orderId: bigint, reason: string, idempotency?: StepAnswer) {
  const { role } = await findOrderView(deps.db, orderId, user.id, deps.config.VIP_LEVELS);
  return userStep(deps, user, orderId, { kind: 'appeal', by: role }, idempotency, async (tx, at) => {
    await tx.query('INSERT INTO p2p_appeals (order_id, opened_by, reason, opened_at) VALUES ($1, $2, $3, $4)', [orderId, user.id, reason, at]);
  });
}

/** After an expiry job committed: both sides' connections hear that the order ended. */
export async function announceExpiry(deps: Pick<Deps, 'db' | 'events' | 'logger'>, job: { kind: string; payload: Record<string, unknown> }) {
  if (job.kind !== 'p2p.order.expire') return;
  const [order] = await deps.db.query<{ id: bigint; buyer_id: bigint; seller_id: bigint; status: string }>(
    'SELECT id, buyer_id, seller_id, status FROM p2p_orders WHERE id = $1',
    [BigInt(String(job.payload.orderId))],
  );
  if (order?.status === 'cancelled') await announceOrder(deps, order, order.status);
}
