import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/persistence/db.ts';
import { toMinor } from '../../src/persistence/ledger.store.ts';
import { call, fund, walletUser, type WalletUser } from './wallet.ts';

// Helpers for the P2P tests (issue 6): verified traders with contact methods, ads, and the escrow
// invariant: each ad's hold equals what it still offers plus its orders that hold escrow.

/**
 * A verified trader with a contact method; `usdt` is credited to their fiat account, the account P2P
 * trades from (sell ads and sales hold on it, purchases land in it; decisions page, "Account types").
 */
export async function trader(app: FastifyInstance, db: Db, name: string, usdt = '0'): Promise<WalletUser> {
  const user = await walletUser(app, db, name, { ready: true });
  const contacts = await call(app, 'PUT', '/home/user/contact-methods', user.token, { methods: [{ kind: 'telegram', value: `@${name}` }] });
  if (contacts.code !== 200) throw new Error(`contact methods: ${contacts.msg}`);
  if (usdt !== '0') await fund(db, user.userId, 'USDT', usdt, 'fiat');
  return user;
}

/** A user's fiat-account balance of `asset` (zero when the account does not exist). */
export async function fiatBalance(db: Db, userId: string, asset = 'USDT') {
  const [row] = await db.query<{ available_minor: string; frozen_minor: string }>(
    `SELECT available_minor, frozen_minor FROM ledger_accounts WHERE user_id = $1 AND kind = 'fiat' AND asset = $2`,
    [userId, asset],
  );
  return { availableMinor: BigInt(row?.available_minor ?? 0), frozenMinor: BigInt(row?.frozen_minor ?? 0) };
}

export const adTerms = { fiat: 'INR', price: '85.50', min: '10', max: '200', paymentWindowMinutes: 15, contact: 'UPI seller@bank', remark: 'IMPS only' };

export async function postAd(app: FastifyInstance, seller: WalletUser, total: string, terms: Partial<typeof adTerms> = {}) {
  const answer = await call(app, 'POST', '/home/p2p/ads', seller.token, { ...adTerms, ...terms, total });
  if (answer.code !== 200) throw new Error(`post ad: ${answer.msg} ${JSON.stringify(answer.data)}`);
  return answer.data as { id: string; remaining: string };
}

/**
 * Every sell ad's escrow (its hold, or nothing once the hold closed) against what it offers plus
 * its open orders. Buy ads hold nothing (their orders' holds are proved by the ledger check).
 */
export async function escrowMismatches(db: Db) {
  const rows = await db.query<{ id: bigint; held: string | null; remaining_minor: string; open_orders: string }>(
    `SELECT a.id, CASE WHEN h.status = 'open' THEN h.amount_minor ELSE 0 END AS held, a.remaining_minor,
       COALESCE((SELECT sum(quantity_minor) FROM p2p_orders o WHERE o.ad_id = a.id AND o.status IN ('awaiting_payment', 'paid', 'appealing')), 0) AS open_orders
     FROM p2p_ads a JOIN ledger_holds h ON h.id = a.hold_id`,
  );
  return rows
    .map((row) => {
      const expected = toMinor(row.remaining_minor) + toMinor(row.open_orders);
      return { adId: row.id.toString(), expected, held: toMinor(row.held ?? 0) };
    })
    .filter((row) => row.expected !== row.held);
}

/** A buy ad of `buyer`'s wanting `total` USDT (nothing is held). */
export async function postBuyAd(app: FastifyInstance, buyer: WalletUser, total: string, terms: Partial<typeof adTerms> = {}) {
  const answer = await call(app, 'POST', '/home/p2p/ads', buyer.token, { ...adTerms, contact: 'UPI buyer@bank', ...terms, side: 'buy', total });
  if (answer.code !== 200) throw new Error(`post buy ad: ${answer.msg} ${JSON.stringify(answer.data)}`);
  return answer.data as { id: string; remaining: string };
}
