import { AppError } from '@keel/contracts';
import { LedgerError, parseAmount } from '@keel/domain';
import { parseUserAmount } from '../amount-input.ts';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../persistence/db.ts';
import { placeHold, takeFromHold } from '../../persistence/ledger-holds.store.ts';
import { ensureUserAccount, toMinor } from '../../persistence/ledger.store.ts';
import type { UserRow } from '../../persistence/users.repository.ts';
import { verificationStatesOf } from '../verification/submit-verification.ts';
import { type AdRow, FIAT_SCALE, findAdView, P2P_ASSET, P2P_SCALE } from './p2p-views.ts';

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
 * Posts a sell ad. Selling needs identity verification and a bound contact method (spec section
 * 5). The whole quantity is frozen at once (a hold on the seller's coin account named after the
 * ad), so a buyer's order is always backed by coins that cannot move elsewhere.
 */
export async function postAd(deps: Deps, seller: UserRow, input: AdTerms & { total: string; requestKey: string }) {
  const { tier } = await verificationStatesOf(deps.db, seller.id);
  if (tier === 0) throw new AppError('IDENTITY_VERIFICATION_REQUIRED');
  const contacts = Array.isArray(seller.contact_methods) ? seller.contact_methods : [];
  if (contacts.length === 0) throw new AppError('CONTACT_METHOD_REQUIRED');
  const totalMinor = parseUserAmount(input.total, P2P_SCALE, 'total');
  const terms = parseTerms(input, totalMinor);
  const now = deps.now();
  try {
    const adId = await deps.db.transaction(async (tx) => {
      const coin = await ensureUserAccount(tx, seller.id, 'coin', P2P_ASSET);
      const [{ id }] = (await tx.query<{ id: bigint }>(`SELECT nextval(pg_get_serial_sequence('p2p_ads', 'id')) AS id`)) as [{ id: bigint }];
      const hold = await placeHold(tx, {
        accountId: coin,
        amountMinor: totalMinor,
        referenceType: 'p2p_ad',
        referenceId: id.toString(),
        idempotencyKey: `p2p_ad:${seller.id}:${input.requestKey}`,
        at: now,
      });
      if (hold.replayed) {
        const [earlier] = await tx.query<{ id: bigint }>('SELECT id FROM p2p_ads WHERE hold_id = $1', [hold.holdId]);
        return earlier!.id;
      }
      await tx.query(
        `INSERT INTO p2p_ads (id, seller_id, asset, fiat, price_fiat_minor, min_minor, max_minor, total_minor, remaining_minor,
           payment_window_minutes, contact, remark, hold_id, created_at, updated_at)
         OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10, $11, $12, $13, $13)`,
        [
          id,
          seller.id,
          P2P_ASSET,
          input.fiat,
          terms.priceFiatMinor.toString(),
          terms.minMinor.toString(),
          terms.maxMinor.toString(),
          totalMinor.toString(),
          input.paymentWindowMinutes,
          input.contact,
          input.remark,
          hold.holdId,
          now,
        ],
      );
      return id;
    });
    return findAdView(deps.db, adId, seller.id);
  } catch (error) {
    if (error instanceof LedgerError && error.problem.kind === 'insufficient_balance') throw new AppError('INSUFFICIENT_BALANCE');
    throw error;
  }
}

/** The seller's own open ad, locked; someone else's is "not found", a closed one "no longer available". */
async function lockOwnOpenAd(tx: Queryable, adId: bigint, sellerId: bigint): Promise<AdRow> {
  const [ad] = await tx.query<AdRow>('SELECT * FROM p2p_ads WHERE id = $1 AND seller_id = $2 FOR UPDATE', [adId, sellerId]);
  if (!ad) throw new AppError('RECORD_NOT_FOUND');
  if (ad.status !== 'open') throw new AppError('AD_NOT_AVAILABLE');
  return ad;
}

/**
 * Edits an open ad's terms. What it still offers may only go down: the difference returns from
 * escrow to the seller's balance in one entry. Orders already placed keep the terms they were
 * placed at.
 */
export async function editAd(deps: Deps, sellerId: bigint, adId: bigint, input: AdTerms & { remaining: string }) {
  const remainingMinor = parseAmount(input.remaining, P2P_SCALE);
  if (remainingMinor < 0n) throw new AppError('WRONG_AMOUNT', { field: 'remaining', problem: 'not_positive' });
  const terms = parseTerms(input, remainingMinor);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const ad = await lockOwnOpenAd(tx, adId, sellerId);
    const currentMinor = toMinor(ad.remaining_minor);
    if (remainingMinor > currentMinor) throw new AppError('WRONG_PURCHASE_QUANTITY', { problem: 'remaining_only_goes_down', remaining: ad.remaining_minor });
    if (remainingMinor < currentMinor) {
      await takeFromHold(tx, { holdId: ad.hold_id, returnMinor: currentMinor - remainingMinor, reason: 'p2p.ad_reduced', at: now });
    }
    await tx.query(
      `UPDATE p2p_ads SET fiat = $2, price_fiat_minor = $3, min_minor = $4, max_minor = $5, payment_window_minutes = $6, contact = $7,
         remark = $8, remaining_minor = $9, updated_at = $10 WHERE id = $1`,
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
      ],
    );
  });
  return findAdView(deps.db, adId, sellerId);
}

/** Closes an ad: what it still offers returns to the seller; open orders keep their escrow until they end. */
export async function closeAd(deps: Deps, sellerId: bigint, adId: bigint) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const ad = await lockOwnOpenAd(tx, adId, sellerId);
    const remainingMinor = toMinor(ad.remaining_minor);
    if (remainingMinor > 0n) await takeFromHold(tx, { holdId: ad.hold_id, returnMinor: remainingMinor, reason: 'p2p.ad_closed', at: now });
    await tx.query(`UPDATE p2p_ads SET status = 'closed', remaining_minor = 0, closed_at = $2, updated_at = $2 WHERE id = $1`, [adId, now]);
  });
  return findAdView(deps.db, adId, sellerId);
}
