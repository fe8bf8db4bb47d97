import { AppError, parameterErrorField } from '@keel/contracts';
import { fiatTradeDecision, LedgerError, mulDiv, orderingRestrictedUntilMs, orderQuantityProblem } from '@keel/domain';
import { parseUserAmount } from '../amount-input.ts';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { enqueueJob } from '../../jobs/runner.ts';
import { placeHold } from '../../persistence/ledger-holds.store.ts';
import { ensureUserAccount, toMinor } from '../../persistence/ledger.store.ts';
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
 * Places an order: a buyer buys from a sell ad, or (issue 19) a seller sells into a buy ad — the
 * caller takes the other side of the ad. On a sell ad the coins are already in the ad's escrow,
 * so placing moves no money: the quantity moves from what the ad offers to the order. On a buy ad
 * the seller's coins are held now, on their fiat account, in a hold named after the order, and the
 * seller gives the payment details the buyer is to pay. Refusals: one's own ad, either side
 * ("cannot sell one's own sell order"); a quantity outside min, max or what is left ("wrong
 * purchase quantity"); identity verification (both sides) and the advanced-verification
 * thresholds; the 24 h restriction after three cancellations (of the one placing); on a buy ad,
 * no payment details, or not enough balance. The expiry of the payment window is a durable job
 * enqueued in the same transaction, so it happens even if nobody looks. Through the API the
 * answer commits with the order (`idempotency`, ADR 0019): a retry after a crash replays it
 * instead of placing another. Locks: the ad, then (placeHold) the seller's fiat account.
 */
export async function placeOrder(
  deps: Deps,
  taker: UserRow,
  input: { adId: bigint; quantity: string; remark: string; contact?: string; requestKey?: string },
  idempotency?: IdempotentRequest<OrderView>,
) {
  const quantityMinor = parseUserAmount(input.quantity, P2P_SCALE);
  const now = deps.now();
  const nowMs = now.getTime();
  const takerTier = (await verificationStatesOf(deps.db, taker.id)).tier;
  if (takerTier === 0) throw new AppError('IDENTITY_VERIFICATION_REQUIRED');
  const cancellations = await deps.db.query<{ ended_at: Date }>(
    `SELECT ended_at FROM p2p_orders WHERE buyer_id = $1 AND status = 'cancelled' AND ended_at >= $2`,
    [taker.id, new Date(nowMs - 2 * DAY_MS)],
  );
  const restrictedUntilMs = orderingRestrictedUntilMs(
    cancellations.map((row) => row.ended_at.getTime()),
    nowMs,
  );
  if (restrictedUntilMs !== null) throw new AppError('ORDERING_RESTRICTED', { until: new Date(restrictedUntilMs).toISOString() });

  try {
    const { view, parties } = await deps.db.transaction(async (tx) => {
      const [ad] = await tx.query<AdRow>('SELECT * FROM p2p_ads WHERE id = $1 FOR UPDATE', [input.adId]);
      if (!ad) throw new AppError('RECORD_NOT_FOUND');
      if (ad.status !== 'open') throw new AppError('AD_NOT_AVAILABLE');
      if (ad.owner_id === taker.id) throw new AppError('CANNOT_SELL_OWN_ORDER');
      const sellingIntoBuyAd = ad.side === 'buy';
      const sellerContact = sellingIntoBuyAd ? (input.contact ?? '').trim() : null;
      if (sellingIntoBuyAd && !sellerContact) throw new AppError('PARAMETER_ERROR', { fields: [parameterErrorField('body.contact', 'required')] });
      const buyerId = sellingIntoBuyAd ? ad.owner_id : taker.id;
      const sellerId = sellingIntoBuyAd ? taker.id : ad.owner_id;
      const problem = orderQuantityProblem(quantityMinor, {
        minMinor: toMinor(ad.min_minor),
        maxMinor: toMinor(ad.max_minor),
        remainingMinor: toMinor(ad.remaining_minor),
      });
      if (problem) throw new AppError('WRONG_PURCHASE_QUANTITY', { problem });
      for (const [party, userId] of [
        ['buyer', buyerId],
        ['seller', sellerId],
      ] as const) {
        const tier = userId === taker.id ? takerTier : (await verificationStatesOf(tx, userId)).tier;
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
      let holdId: bigint | null = null;
      if (sellingIntoBuyAd) {
        const fiatAccount = await ensureUserAccount(tx, sellerId, 'fiat', ad.asset);
        const hold = await placeHold(tx, {
          accountId: fiatAccount,
          amountMinor: quantityMinor,
          referenceType: 'p2p_order',
          referenceId: id.toString(),
          ...(input.requestKey ? { idempotencyKey: `p2p_order:${sellerId}:${input.requestKey}` } : {}),
          at: now,
        });
        if (hold.replayed) {
          const [earlier] = await tx.query<{ id: bigint }>('SELECT id FROM p2p_orders WHERE hold_id = $1', [hold.holdId]);
          const placed = await findOrderView(tx, earlier!.id, taker.id, deps.config.VIP_LEVELS);
          await idempotency?.answerInTransaction(tx, placed);
          return { view: placed, parties: { buyerId, sellerId } };
        }
        holdId = hold.holdId;
      }
      // The order number a person reads and quotes: P, the UTC day, the id.
      const orderNo = `P${now.toISOString().slice(0, 10).replaceAll('-', '')}${id.toString().padStart(8, '0')}`;
      await tx.query(
        `INSERT INTO p2p_orders (id, order_no, ad_id, buyer_id, seller_id, asset, fiat, quantity_minor, price_fiat_minor, total_fiat_minor, remark,
           payment_deadline, created_at, ad_side, hold_id, seller_contact)
         OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
        [
          id,
          orderNo,
          ad.id,
          buyerId,
          sellerId,
          ad.asset,
          ad.fiat,
          quantityMinor.toString(),
          priceFiatMinor.toString(),
          totalFiatMinor.toString(),
          input.remark,
          deadline,
          now,
          ad.side,
          holdId,
          sellerContact,
        ],
      );
      await tx.query('UPDATE p2p_ads SET remaining_minor = remaining_minor - $2, updated_at = $3 WHERE id = $1', [ad.id, quantityMinor.toString(), now]);
      await enqueueJob(tx, { kind: EXPIRE_P2P_ORDER_JOB, key: `${EXPIRE_P2P_ORDER_JOB}:${id}`, payload: { orderId: id.toString() }, runAt: deadline });
      await tellParties(tx, id, { buyer: 'placed_please_pay', seller: 'placed' }, now);
      const placed = await findOrderView(tx, id, taker.id, deps.config.VIP_LEVELS);
      await idempotency?.answerInTransaction(tx, placed);
      return { view: placed, parties: { buyerId, sellerId } };
    });
    await announceOrder(deps, { id: BigInt(view.id), buyer_id: parties.buyerId, seller_id: parties.sellerId }, view.status);
    return view;
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }
}
