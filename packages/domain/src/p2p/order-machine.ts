import { feeOf } from '../money/amount.ts';
import { type DiscountedFee, discountFee, type VipTerms } from '../vip/levels.ts';

/**
 * The fiat P2P order (spec section 4, decisions page, issue 6) as a pure state machine. The seller's
 * coins sit in escrow (the ad's ledger hold) from the moment the order is placed; the fiat moves
 * outside Keel. Each command answers the new state and what it does to the escrow, or why it is
 * refused; the server applies the answer in one transaction.
 *
 *   awaiting_payment (0) ──buyer marks paid──▶ paid (1) ──seller releases──▶ released (2)
 *        │  buyer cancels / window ends                │ either side appeals after the window
 *        ▼                                             ▼
 *    cancelled  (quantity back to the ad)          appealing ──staff──▶ released (2) | refunded
 */

export type P2pOrderStatus = 'awaiting_payment' | 'paid' | 'released' | 'cancelled' | 'appealing' | 'refunded';

/** The spec's numeric codes of the first three states; the others are Keel's. */
export const p2pStatusCodes: Record<P2pOrderStatus, number> = {
  awaiting_payment: 0,
  paid: 1,
  released: 2,
  cancelled: 3,
  appealing: 4,
  refunded: 5,
};

/** The spec's trading fee, 0.1 %, taken from the escrowed coins on release. */
export const P2P_FEE_BPS = 10n;

export interface P2pOrderState {
  status: P2pOrderStatus;
  /** End of the payment window: an unpaid order expires then. */
  paymentDeadlineMs: number;
  paidAtMs: number | null;
}

export type P2pCommand =
  | { kind: 'mark_paid'; by: 'buyer' }
  | { kind: 'cancel'; by: 'buyer' }
  | { kind: 'expire' }
  | { kind: 'release'; by: 'seller' }
  | { kind: 'appeal'; by: 'buyer' | 'seller' }
  | { kind: 'resolve'; outcome: 'release' | 'refund' };

/**
 * What a step does to the escrow: nothing; the order's quantity goes back to the ad (still frozen,
 * offered again); the coins go to the buyer less the fee; or they return to the seller's balance.
 */
export type P2pEffect = 'none' | 'return_to_ad' | 'release_to_buyer' | 'refund_to_seller';

/** Which message of spec section 4 each side gets for a step. */
export type P2pNotice = 'placed_please_pay' | 'paid_waiting_for_seller' | 'seller_should_confirm' | 'released_to_buyer' | 'cancelled' | 'expired' | 'appealed' | 'refunded';

export type P2pProblem = 'wrong_state' | 'payment_window_over' | 'appeal_too_early';

export type P2pOutcome =
  | { ok: true; status: P2pOrderStatus; effect: P2pEffect; notice: { buyer: P2pNotice; seller: P2pNotice } }
  | { ok: false; problem: P2pProblem };

const refuse = (problem: P2pProblem): P2pOutcome => ({ ok: false, problem });

/**
 * One command at `nowMs`. `appealAfterMs` is how long after marking paid an appeal opens: the
 * seller first gets the chance to release (decisions page: the payment window).
 */
export function p2pOrderTransition(state: P2pOrderState, command: P2pCommand, nowMs: number, appealAfterMs: number): P2pOutcome {
  switch (command.kind) {
    case 'mark_paid':
      if (state.status !== 'awaiting_payment') return refuse('wrong_state');
      if (nowMs >= state.paymentDeadlineMs) return refuse('payment_window_over');
      return { ok: true, status: 'paid', effect: 'none', notice: { buyer: 'paid_waiting_for_seller', seller: 'seller_should_confirm' } };
    case 'cancel':
      if (state.status !== 'awaiting_payment') return refuse('wrong_state');
      return { ok: true, status: 'cancelled', effect: 'return_to_ad', notice: { buyer: 'cancelled', seller: 'cancelled' } };
    case 'expire':
      // The job may run late, never early: before the deadline the buyer still has time.
      if (state.status !== 'awaiting_payment' || nowMs < state.paymentDeadlineMs) return refuse('wrong_state');
      return { ok: true, status: 'cancelled', effect: 'return_to_ad', notice: { buyer: 'expired', seller: 'expired' } };
    case 'release':
      if (state.status !== 'paid') return refuse('wrong_state');
      return { ok: true, status: 'released', effect: 'release_to_buyer', notice: { buyer: 'released_to_buyer', seller: 'released_to_buyer' } };
    case 'appeal':
      if (state.status !== 'paid' || state.paidAtMs === null) return refuse('wrong_state');
      if (nowMs < state.paidAtMs + appealAfterMs) return refuse('appeal_too_early');
      return { ok: true, status: 'appealing', effect: 'none', notice: { buyer: 'appealed', seller: 'appealed' } };
    case 'resolve':
      if (state.status !== 'appealing') return refuse('wrong_state');
      return command.outcome === 'release'
        ? { ok: true, status: 'released', effect: 'release_to_buyer', notice: { buyer: 'released_to_buyer', seller: 'released_to_buyer' } }
        : { ok: true, status: 'refunded', effect: 'refund_to_seller', notice: { buyer: 'refunded', seller: 'refunded' } };
  }
}

/** Escrow is still held for an order in these states (the ad's hold covers it). */
export function holdsEscrow(status: P2pOrderStatus): boolean {
  return status === 'awaiting_payment' || status === 'paid' || status === 'appealing';
}

/** How the escrowed quantity is paid out on release: to the buyer, less the 0.1 % fee (rounded up). */
export function p2pReleaseSplit(quantityMinor: bigint): { toBuyerMinor: bigint; feeMinor: bigint } {
  const feeMinor = feeOf(quantityMinor, P2P_FEE_BPS);
  return { toBuyerMinor: quantityMinor - feeMinor, feeMinor };
}

/**
 * The release split with the buyer's VIP discount (ADR 0046): the buyer pays the fee, so the
 * buyer's level at release applies; the fee rounds up before the discount, the discount down.
 */
export function p2pReleaseSplitWithVip(quantityMinor: bigint, buyerVip: VipTerms): { toBuyerMinor: bigint } & DiscountedFee {
  const fee = discountFee(feeOf(quantityMinor, P2P_FEE_BPS), buyerVip);
  return { toBuyerMinor: quantityMinor - fee.feeMinor, ...fee };
}

export type QuantityProblem = 'below_min' | 'above_max' | 'above_remaining' | 'not_positive';

/** An order's quantity against the ad: within min and max, and no more than the ad has left. */
export function orderQuantityProblem(quantityMinor: bigint, ad: { minMinor: bigint; maxMinor: bigint; remainingMinor: bigint }): QuantityProblem | null {
  if (quantityMinor <= 0n) return 'not_positive';
  if (quantityMinor < ad.minMinor) return 'below_min';
  if (quantityMinor > ad.maxMinor) return 'above_max';
  if (quantityMinor > ad.remainingMinor) return 'above_remaining';
  return null;
}

export const CANCELLATIONS_BEFORE_RESTRICTION = 3;
export const CANCELLATION_WINDOW_MS = 24 * 3_600_000;
export const ORDERING_RESTRICTION_MS = 24 * 3_600_000;

/**
 * Three buyer cancellations within 24 h restrict ordering for 24 h from the third (issue 6).
 * Expired orders count as the buyer's cancellations too: leaving an order unpaid blocks the ad just
 * the same. Returns until when ordering is restricted, or null.
 */
export function orderingRestrictedUntilMs(cancelledAtMs: readonly number[], nowMs: number): number | null {
  const times = [...cancelledAtMs].sort((a, b) => a - b);
  let until: number | null = null;
  for (let index = CANCELLATIONS_BEFORE_RESTRICTION - 1; index < times.length; index += 1) {
    const first = times[index - (CANCELLATIONS_BEFORE_RESTRICTION - 1)]!;
    const last = times[index]!;
    if (last - first <= CANCELLATION_WINDOW_MS) until = Math.max(until ?? 0, last + ORDERING_RESTRICTION_MS);
  }
  return until !== null && until > nowMs ? until : null;
}
