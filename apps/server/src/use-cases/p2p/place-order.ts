import { AppError } from '@keel/contracts';
import { fiatTradeDecision, mulDiv, orderingRestrictedUntilMs, orderQuantityProblem } from '@keel/domain';
import { parseUserAmount } from '../amount-input.ts';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { enqueueJob } from '../../jobs/runner.ts';
import { toMinor } from '../../persistence/ledger.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { verificationStatesOf } from '../verification/submit-verification.ts';
import { announceOrder, tellParties } from './p2p-notices.ts';
import { type AdRow, findOrderView, type OrderView, P2P_SCALE } from './p2p-views.ts';

export const EXPIRE_P2P_ORDER_JOB = 'p2p.order.expire';
const DAY_MS = 86_400_000;
const USDT_ONE = 10n ** BigInt(P2P_SCALE);

/** Quantities of a user's fiat trades (as buyer or seller) in the last 30 days that were not called off. */
async function tradedLast30DaysMinor(db: Queryable, userId: bigint, nowMs: number): Promise<bigint> {
  const [row] = await db.query<{ total: string }>(
    `SELECT COALESCE(sum(quantity_minor), 0) AS total FROM p2p_orders
     WHERE (buyer_id = $1 OR seller_id = $1) AND created_at >= $2 AND status NOT IN ('cancelled', 'refunded')`,
    [userId, new Date(nowMs - 30 * DAY_MS)],
  );
  return toMinor(row!.total);
}

/** Whole USDT, rounded up, as the published thresholds are stated. */
const wholeUsdt = (minor: bigint) => mulDiv(minor, 1n, USDT_ONE, 'ceil');

/**
 * Places an order on a sell ad. The coins are already in the ad's escrow, so placing moves no
 * money: the quantity moves from what the ad offers to the order. Refusals: the buyer's own ad,
 * a quantity outside min, max or what is left ("wrong purchase quantity"), identity verification
 * (both sides) and the advanced-verification thresholds, the 24 h restriction after three
 * cancellations. The expiry of the payment window is a durable job enqueued in the same
 * transaction, so it happens even if nobody looks. Through the API the answer commits with the
 * order (`idempotency`, ADR 0019): a retry after a crash replays it instead of placing another.
 */
export async function placeOrder(
  deps: Deps,
  buyer: UserRow,
  input: { adId: bigint; quantity: string; remark: string },
  idempotency?: IdempotentRequest<OrderView>,
) {
  const quantityMinor = parseUserAmount(input.quantity, P2P_SCALE);
  const now = deps.now();
  const nowMs = now.getTime();
  const buyerTier = (await verificationStatesOf(deps.db, buyer.id)).tier;
  if (buyerTier === 0) throw new AppError('IDENTITY_VERIFICATION_REQUIRED');
  const cancellations = await deps.db.query<{ ended_at: Date }>(
    `SELECT ended_at FROM p2p_orders WHERE buyer_id = $1 AND status = 'cancelled' AND ended_at >= $2`,
    [buyer.id, new Date(nowMs - 2 * DAY_MS)],
  );
  const restrictedUntilMs = orderingRestrictedUntilMs(
    cancellations.map((row) => row.ended_at.getTime()),
    nowMs,
  );
  if (restrictedUntilMs !== null) throw new AppError('ORDERING_RESTRICTED', { until: new Date(restrictedUntilMs).toISOString() });

  const { view, sellerId } = await deps.db.transaction(async (tx) => {
    const [ad] = await tx.query<AdRow>('SELECT * FROM p2p_ads WHERE id = $1 FOR UPDATE', [input.adId]);
    if (!ad) throw new AppError('RECORD_NOT_FOUND');
    if (ad.status !== 'open') throw new AppError('AD_NOT_AVAILABLE');
    if (ad.seller_id === buyer.id) throw new AppError('CANNOT_SELL_OWN_ORDER');
    const problem = orderQuantityProblem(quantityMinor, {
      minMinor: toMinor(ad.min_minor),
      maxMinor: toMinor(ad.max_minor),
      remainingMinor: toMinor(ad.remaining_minor),
    });
    if (problem) throw new AppError('WRONG_PURCHASE_QUANTITY', { problem });
    const sellerTier = (await verificationStatesOf(tx, ad.seller_id)).tier;
    for (const [party, userId, tier] of [
      ['buyer', buyer.id, buyerTier],
      ['seller', ad.seller_id, sellerTier],
    ] as const) {
      const decision = fiatTradeDecision(tier, { amountUsdt: wholeUsdt(quantityMinor), last30DaysUsdt: wholeUsdt(await tradedLast30DaysMinor(tx, userId, nowMs)) });
      if (!decision.allowed) {
        throw new AppError(decision.needs === 'identity' ? 'IDENTITY_VERIFICATION_REQUIRED' : 'ADVANCED_VERIFICATION_REQUIRED', { party });
      }
    }
    const priceFiatMinor = toMinor(ad.price_fiat_minor);
    // What the buyer pays, in fiat hundredths, rounded up: the seller is never paid less than the price.
    const totalFiatMinor = mulDiv(quantityMinor, priceFiatMinor, USDT_ONE, 'ceil');
    const deadline = new Date(nowMs + ad.payment_window_minutes * 60_000);
    const [{ id }] = (await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('p2p_orders', 'id')) AS id`)) as [{ id: bigint }];
    // The order number a person reads and quotes: P, the UTC day, the id.
    const orderNo = `P${now.toISOString().slice(0, 10).replaceAll('-', '')}${id.toString().padStart(8, '0')}`;
    await tx.query(
      `INSERT INTO p2p_orders (id, order_no, ad_id, buyer_id, seller_id, asset, fiat, quantity_minor, price_fiat_minor, total_fiat_minor, remark,
         payment_deadline, created_at)
       OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [id, orderNo, ad.id, buyer.id, ad.seller_id, ad.asset, ad.fiat, quantityMinor.toString(), priceFiatMinor.toString(), totalFiatMinor.toString(), input.remark, deadline, now],
    );
    await tx.query('UPDATE p2p_ads SET remaining_minor = remaining_minor - $2, updated_at = $3 WHERE id = $1', [ad.id, quantityMinor.toString(), now]);
    await enqueueJob(tx, { kind: EXPIRE_P2P_ORDER_JOB, key: `${EXPIRE_P2P_ORDER_JOB}:${id}`, payload: { orderId: id.toString() }, runAt: deadline });
    await tellParties(tx, id, { buyer: 'placed_please_pay', seller: 'placed' }, now);
    const placed = await findOrderView(tx, id, buyer.id);
    await idempotency?.answerInTransaction(tx, placed);
    return { view: placed, sellerId: ad.seller_id };
  });
  await announceOrder(deps, { id: BigInt(view.id), buyer_id: buyer.id, seller_id: sellerId }, view.status);
  return view;
}
