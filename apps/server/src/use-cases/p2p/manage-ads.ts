import { AppError } from '@keel/contracts';
import { LedgerError } from '@keel/domain';
import { parseUserAmount } from '../amount-input.ts';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import type { IdempotentRequest } from '../../persistence/idempotency.store.ts';
import { placeHold, takeFromHold } from '../../persistence/ledger-holds.store.ts';
import { ensureUserAccount, toMinor } from '../../persistence/ledger.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { verificationStatesOf } from '../verification/submit-verification.ts';
import { type AdRow, type AdView, FIAT_SCALE, findAdView, P2P_ASSET, P2P_SCALE, type P2pAdSide } from './p2p-views.ts';

export interface AdTerms {
  fiat: string;
  price: string;
  min: string;
  max: string;
  paymentWindowMinutes: number;
  contact: string;
  remark: string;
}

/** The smallest order an ad may allow: 1 USDT. */
export const MIN_ORDER_MINOR = 10n ** BigInt(P2P_SCALE);

/** The ad's limits in minor units: min ≤ max, and min no more than what it offers ("wrong purchase quantity" otherwise). */
function parseTerms(terms: AdTerms, offeredMinor: bigint) {
  const parsed = {
    priceFiatMinor: parseUserAmount(terms.price, FIAT_SCALE, 'price'),
    minMinor: parseUserAmount(terms.min, P2P_SCALE, 'min'),
    maxMinor: parseUserAmount(terms.max, P2P_SCALE, 'max'),
  };
  // A published floor: below one USDT the 0.1 % fee, rounded up, would eat a visible part of an order.
  if (parsed.minMinor < MIN_ORDER_MINOR) throw new AppError('WRONG_PURCHASE_QUANTITY', { problem: 'min_below_floor', floor: '1' });
  if (parsed.minMinor > parsed.maxMinor) throw new AppError('WRONG_PURCHASE_QUANTITY', { problem: 'min_above_max' });
  if (offeredMinor > 0n && parsed.minMinor > offeredMinor) throw new AppError('WRONG_PURCHASE_QUANTITY', { problem: 'min_above_total' });
  return parsed;
}

/**
 * The ad as its owner sees it, read in the transaction that changed it; through the API it is
 * also the request's answer, committed with the change (ADR 0019). The transaction's last step.
 */
async function answerAd(tx: Queryable, adId: bigint, ownerId: bigint, idempotency: IdempotentRequest<AdView> | undefined) {
  const view = await findAdView(tx, adId, ownerId);
  await idempotency?.answerInTransaction(tx, view);
  return view;
}

/**
 * Posts an ad (spec section 5: trading needs identity verification and a bound contact method).
 * A sell ad freezes its whole quantity at once (a hold on the seller's fiat account named after
 * the ad: P2P trades from the fiat account, decisions page "Account types"), so a buyer's order is
 * always backed by coins that cannot move elsewhere. A buy ad (issue 19) holds nothing: it states
 * what the buyer wants, and each seller who sells into it has the order's quantity held on their
 * own fiat account at that moment.
 */
export async function postAd(
  deps: Deps,
  owner: UserRow,
  input: AdTerms & { side: P2pAdSide; total: string; requestKey: string },
  idempotency?: IdempotentRequest<AdView>,
) {
  const { tier } = await verificationStatesOf(deps.db, owner.id);
  if (tier === 0) throw new AppError('IDENTITY_VERIFICATION_REQUIRED');
  const contacts = Array.isArray(owner.contact_methods) ? owner.contact_methods : [];
  if (contacts.length === 0) throw new AppError('CONTACT_METHOD_REQUIRED');
  const totalMinor = parseUserAmount(input.total, P2P_SCALE, 'total');
  const terms = parseTerms(input, totalMinor);
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const [{ id }] = (await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('p2p_ads', 'id')) AS id`)) as [{ id: bigint }];
      let holdId: bigint | null = null;
      if (input.side === 'sell') {
        const fiatAccount = await ensureUserAccount(tx, owner.id, 'fiat', P2P_ASSET);
        const hold = await placeHold(tx, {
          accountId: fiatAccount,
          amountMinor: totalMinor,
          referenceType: 'p2p_ad',
          referenceId: id.toString(),
          idempotencyKey: `p2p_ad:${owner.id}:${input.requestKey}`,
          at: now,
        });
        if (hold.replayed) {
          const [earlier] = await tx.query<{ id: bigint }>('SELECT id FROM p2p_ads WHERE hold_id = $1', [hold.holdId]);
          return answerAd(tx, earlier!.id, owner.id, idempotency);
        }
        holdId = hold.holdId;
      } else {
        // A retry after an unknown outcome finds the ad its key made instead of posting a second.
        const [earlier] = await tx.query<{ id: bigint }>('SELECT id FROM p2p_ads WHERE owner_id = $1 AND request_key = $2', [owner.id, input.requestKey]);
        if (earlier) return answerAd(tx, earlier.id, owner.id, idempotency);
      }
      await tx.query(
        `INSERT INTO p2p_ads (id, owner_id, side, asset, fiat, price_fiat_minor, min_minor, max_minor, total_minor, remaining_minor,
           payment_window_minutes, contact, remark, hold_id, request_key, created_at, updated_at)
         OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $11, $12, $13, $14, $15, $15)`,
        [
          id,
          owner.id,
          input.side,
          P2P_ASSET,
          input.fiat,
          terms.priceFiatMinor.toString(),
          terms.minMinor.toString(),
          terms.maxMinor.toString(),
          totalMinor.toString(),
          input.paymentWindowMinutes,
          input.contact,
          input.remark,
          holdId,
          input.side === 'buy' ? input.requestKey : null,
          now,
        ],
      );
      return answerAd(tx, id, owner.id, idempotency);
    });
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }
}

/** The owner's own open ad, locked; someone else's is "not found", a closed one "no longer available". */
async function lockOwnOpenAd(tx: Queryable, adId: bigint, ownerId: bigint): Promise<AdRow> {
  const [ad] = await tx.query<AdRow>('SELECT * FROM p2p_ads WHERE id = $1 AND owner_id = $2 FOR UPDATE', [adId, ownerId]);
  if (!ad) throw new AppError('RECORD_NOT_FOUND');
  if (ad.status !== 'open') throw new AppError('AD_NOT_AVAILABLE');
  return ad;
}

/**
 * Edits an open ad's terms. What it still offers (or, a buy ad, still wants) may only go down: on a
 * sell ad the difference returns from escrow to the seller's balance in one entry; down to 0 closes
 * the ad. Orders already placed keep the terms they were placed at.
 */
export async function editAd(deps: Deps, ownerId: bigint, adId: bigint, input: AdTerms & { remaining: string }, idempotency?: IdempotentRequest<AdView>) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    // Whose ad it is comes first: a stranger learns nothing about it, not even that their terms were malformed.
    const ad = await lockOwnOpenAd(tx, adId, ownerId);
    const remainingMinor = parseUserAmount(input.remaining, P2P_SCALE, 'remaining', { allowZero: true });
    const terms = parseTerms(input, remainingMinor);
    const currentMinor = toMinor(ad.remaining_minor);
    if (remainingMinor > currentMinor) throw new AppError('WRONG_PURCHASE_QUANTITY', { problem: 'remaining_only_goes_down', remaining: ad.remaining_minor });
    if (remainingMinor < currentMinor && ad.hold_id !== null) {
      await takeFromHold(tx, { holdId: ad.hold_id, returnMinor: currentMinor - remainingMinor, reason: 'p2p.ad_reduced', at: now });
    }
    // Nothing left to offer is a closed ad (issue 13): an open one at 0 would sit in the seller's
    // list looking live while no one can order from it. Its open orders keep their escrow.
    const closesNow = remainingMinor === 0n;
    await tx.query(
      `UPDATE p2p_ads SET fiat = $2, price_fiat_minor = $3, min_minor = $4, max_minor = $5, payment_window_minutes = $6, contact = $7,
         remark = $8, remaining_minor = $9, updated_at = $10,
         status = CASE WHEN $11 THEN 'closed' ELSE status END, closed_at = CASE WHEN $11 THEN $10 ELSE closed_at END
       WHERE id = $1`,
      [
        adId,
        input.fiat,
        terms.priceFiatMinor.toString(),
        terms.minMinor.toString(),
        terms.maxMinor.toString(),
        input.paymentWindowMinutes,
        input.contact,
        input.remark,
        remainingMinor.toString(),
        now,
        closesNow,
      ],
    );
    return answerAd(tx, adId, ownerId, idempotency);
  });
}

/** Closes an ad: what a sell ad still offers returns to the seller; open orders keep their escrow until they end. */
export async function closeAd(deps: Deps, ownerId: bigint, adId: bigint, idempotency?: IdempotentRequest<AdView>) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const ad = await lockOwnOpenAd(tx, adId, ownerId);
    const remainingMinor = toMinor(ad.remaining_minor);
    if (remainingMinor > 0n && ad.hold_id !== null) await takeFromHold(tx, { holdId: ad.hold_id, returnMinor: remainingMinor, reason: 'p2p.ad_closed', at: now });
    await tx.query(`UPDATE p2p_ads SET status = 'closed', remaining_minor = 0, closed_at = $2, updated_at = $2 WHERE id = $1`, [adId, now]);
    return answerAd(tx, adId, ownerId, idempotency);
  });
}
