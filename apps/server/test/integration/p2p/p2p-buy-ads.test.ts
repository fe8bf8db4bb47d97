import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers } from '../../../src/jobs/handlers.ts';
import { JobRunner } from '../../../src/jobs/runner.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { escrowMismatches, fiatBalance, postAd, postBuyAd, trader } from '../../helpers/p2p.ts';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call, coinBalance, fund, walletUser } from '../../helpers/wallet.ts';

// P2P buy ads (issue 19): a buyer states what they want and holds nothing; a seller sells into the
// ad and their coins are held at that moment on their fiat account, in the order's own hold, with
// the payment details they give; the same order machine then runs — paid, released with the
// seller's payment password (the buyer's fiat account receives the quantity less 0.1 %), cancelled
// or expired (the seller's coins back, the quantity wanted again), appealed and resolved by
// support. Nobody trades with their own ad, either side. After every test the ledger check passes
// (it proves each buy-ad order's hold, and that it is on the seller's fiat account).

const USDT = 1_000_000n;
let t: TestApp;
let support: string;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp();
  support = await createStaff(t.app, t.db, 'buyadsupport', ['support']);
});
afterAll(() => t.close());

const name = (prefix: string) => {
  counter += 1;
  return `${prefix}${counter}x${Date.now().toString(36)}`.slice(0, 32);
};

async function soundBooks() {
  expect(await escrowMismatches(t.db)).toEqual([]);
  expect((await checkLedger(t.db)).problems).toEqual([]);
}

/** Sells into a buy ad with payment details (`null`: none given). */
const sellInto = (sellerToken: string, adId: string, quantity: string, contact: string | null = 'UPI seller@bank') =>
  call(t.app, 'POST', '/home/p2p/orders', sellerToken, { adId, quantity, ...(contact === null ? {} : { contact }) });
const step = (token: string, orderId: string, what: 'paid' | 'cancel' | 'release' | 'appeal', body?: unknown) =>
  call(t.app, 'POST', `/home/p2p/orders/${orderId}/${what}`, token, body);
const adOf = async (token: string, adId: string) =>
  ((await call(t.app, 'GET', '/home/p2p/ads?mine=true', token)).data.items as { id: string; remaining: string; status: string }[]).find((ad) => ad.id === adId)!;

describe('a buy ad, sold into, through to release', () => {
  it('holds nothing when posted; the seller’s coins are held when they sell into it; release pays the buyer the quantity less 0.1 %', async () => {
    const buyer = await trader(t.app, t.db, name('bbuyer'));
    const seller = await trader(t.app, t.db, name('bseller'), '300');
    const ad = await postBuyAd(t.app, buyer, '500');
    expect(ad).toMatchObject({ side: 'buy', ownerName: buyer.username, remaining: '500.000000', mine: true, status: 'open' });
    expect(await fiatBalance(t.db, buyer.userId)).toEqual({ availableMinor: 0n, frozenMinor: 0n });

    // The market of buy ads lists it; the market of sell ads does not.
    const buyAds = await call(t.app, 'GET', '/home/p2p/ads?side=buy', seller.token);
    expect(buyAds.data.items.map((item: { id: string }) => item.id)).toContain(ad.id);
    const sellAds = await call(t.app, 'GET', '/home/p2p/ads', seller.token);
    expect(sellAds.data.items.map((item: { id: string }) => item.id)).not.toContain(ad.id);

    const placed = await sellInto(seller.token, ad.id, '200', 'SEPA DE89 3704 0044 0532 0130 00');
    expect(placed).toMatchObject({
      code: 200,
      data: {
        adSide: 'buy',
        role: 'seller',
        status: 'awaiting_payment',
        quantity: '200.000000',
        total: '17100.00',
        buyerName: buyer.username,
        sellerName: seller.username,
        sellerContact: 'SEPA DE89 3704 0044 0532 0130 00',
        buyerContact: 'UPI buyer@bank',
      },
    });
    const orderId = placed.data.id as string;
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 100n * USDT, frozenMinor: 200n * USDT });
    expect((await adOf(buyer.token, ad.id)).remaining).toBe('300.000000');
    // The buyer sees the order as the buyer, with where to pay.
    expect((await call(t.app, 'GET', `/home/p2p/orders/${orderId}`, buyer.token)).data).toMatchObject({ role: 'buyer', sellerContact: 'SEPA DE89 3704 0044 0532 0130 00' });
    await soundBooks();

    // Only the buyer marks paid; only the seller releases, with the payment password.
    expect((await step(seller.token, orderId, 'paid')).data).toMatchObject({ problem: 'not_your_step' });
    expect((await step(buyer.token, orderId, 'paid')).data).toMatchObject({ status: 'paid' });
    expect((await step(buyer.token, orderId, 'release', { paymentPassword: '135790' })).code).not.toBe(200);
    expect((await step(seller.token, orderId, 'release', { paymentPassword: '000000' })).msg).toBe('wrong payment password');
    const released = await step(seller.token, orderId, 'release', { paymentPassword: '135790' });
    expect(released.data).toMatchObject({ status: 'released', fee: '0.200000', buyerReceives: '199.800000' });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 100n * USDT, frozenMinor: 0n });
    expect(await fiatBalance(t.db, buyer.userId)).toEqual({ availableMinor: 199_800_000n, frozenMinor: 0n });
    const [hold] = await t.db.query<{ status: string }>('SELECT h.status FROM ledger_holds h JOIN p2p_orders o ON o.hold_id = h.id WHERE o.id = $1', [orderId]);
    expect(hold!.status).toBe('posted');
    await soundBooks();
  });

  it('refuses, moving nothing: one’s own ad either side, no payment details, not enough coins, a quantity out of range', async () => {
    const buyer = await trader(t.app, t.db, name('bbuyer'), '100');
    const poorSeller = await trader(t.app, t.db, name('bpoor'), '20');
    const ad = await postBuyAd(t.app, buyer, '100');
    const sellAd = await postAd(t.app, poorSeller, '20', { min: '10', max: '20' });

    expect(await sellInto(buyer.token, ad.id, '10')).toMatchObject({ code: 400, msg: "cannot sell one's own sell order" });
    expect(await call(t.app, 'POST', '/home/p2p/orders', poorSeller.token, { adId: sellAd.id, quantity: '10' })).toMatchObject({
      code: 400,
      msg: "cannot sell one's own sell order",
    });
    expect(await sellInto(poorSeller.token, ad.id, '10', null)).toMatchObject({ code: 400, msg: 'parameter error', data: { fields: [{ field: 'body.contact', message: 'this field is required' }] } });
    expect(await sellInto(poorSeller.token, ad.id, '10', '   ')).toMatchObject({ code: 400, msg: 'parameter error' });
    // The sell ad holds 20 of their 20: nothing is left to sell into the buy ad; USDT in the coin
    // account does not count (selling holds on the fiat account).
    await fund(t.db, poorSeller.userId, 'USDT', '50');
    expect(await sellInto(poorSeller.token, ad.id, '10')).toMatchObject({ code: 400, msg: 'insufficient balance' });
    expect(await coinBalance(t.db, poorSeller.userId, 'USDT')).toEqual({ availableMinor: 50n * USDT, frozenMinor: 0n });
    expect(await sellInto(poorSeller.token, ad.id, '5')).toMatchObject({ code: 400, msg: 'wrong purchase quantity' });
    const unverified = await walletUser(t.app, t.db, name('bunver'));
    expect(await sellInto(unverified.token, ad.id, '10')).toMatchObject({ code: 400, msg: 'identity verification required' });
    expect((await adOf(buyer.token, ad.id)).remaining).toBe('100.000000');
    expect(await t.db.query('SELECT 1 FROM p2p_orders WHERE ad_id = $1', [ad.id])).toEqual([]);
    await soundBooks();
  });
});

describe('a buy-ad order that ends without a release', () => {
  it('cancelled by the buyer, or expired by the durable job: the seller’s coins come back, the quantity is wanted again', async () => {
    const buyer = await trader(t.app, t.db, name('bbuyer'));
    const seller = await trader(t.app, t.db, name('bseller'), '100');
    const ad = await postBuyAd(t.app, buyer, '100', { paymentWindowMinutes: 5 });
    const cancelled = await sellInto(seller.token, ad.id, '40');
    const expiring = await sellInto(seller.token, ad.id, '30');
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 30n * USDT, frozenMinor: 70n * USDT });
    // The seller cannot cancel; the buyer can.
    expect((await step(seller.token, cancelled.data.id, 'cancel')).data).toMatchObject({ problem: 'not_your_step' });
    expect((await step(buyer.token, cancelled.data.id, 'cancel')).data).toMatchObject({ status: 'cancelled', cancelReason: 'buyer' });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 70n * USDT, frozenMinor: 30n * USDT });
    expect((await adOf(buyer.token, ad.id)).remaining).toBe('70.000000');

    const later = () => new Date(Date.now() + 6 * 60_000);
    await new JobRunner({ db: t.db, handlers: jobHandlers, now: later }).drain();
    expect((await call(t.app, 'GET', `/home/p2p/orders/${expiring.data.id}`, seller.token)).data).toMatchObject({ status: 'cancelled', cancelReason: 'expired' });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 100n * USDT, frozenMinor: 0n });
    expect((await adOf(buyer.token, ad.id)).remaining).toBe('100.000000');
    await soundBooks();
  });

  it('an appeal refunded by support returns the seller’s coins; a closed buy ad leaves its open orders running', async () => {
    const buyer = await trader(t.app, t.db, name('bbuyer'));
    const seller = await trader(t.app, t.db, name('bseller'), '100');
    const ad = await postBuyAd(t.app, buyer, '100');
    const appealed = await sellInto(seller.token, ad.id, '50');
    const running = await sellInto(seller.token, ad.id, '20');
    await step(buyer.token, appealed.data.id, 'paid');
    // The appeal opens once the payment window (15 minutes) has passed again after "paid".
    await t.db.query(`UPDATE p2p_orders SET created_at = created_at - interval '20 minutes', paid_at = paid_at - interval '20 minutes', payment_deadline = payment_deadline - interval '20 minutes' WHERE id = $1`, [
      appealed.data.id,
    ]);
    expect((await step(seller.token, appealed.data.id, 'appeal', { reason: 'No money arrived' })).data).toMatchObject({ status: 'appealing' });
    const resolved = await call(t.app, 'POST', `/home/admin/p2p/appeals/${appealed.data.id}/resolve`, support, { outcome: 'refund', note: 'No payment shown' });
    expect(resolved.data).toMatchObject({ resolution: 'refund', order: { status: 'refunded' } });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 80n * USDT, frozenMinor: 20n * USDT });

    const closed = await call(t.app, 'POST', `/home/p2p/ads/${ad.id}/close`, buyer.token);
    expect(closed.data).toMatchObject({ status: 'closed', remaining: '0.000000' });
    expect((await sellInto(seller.token, ad.id, '10')).msg).toBe('the ad is no longer available');
    await step(buyer.token, running.data.id, 'paid');
    expect((await step(seller.token, running.data.id, 'release', { paymentPassword: '135790' })).data).toMatchObject({ status: 'released' });
    expect(await fiatBalance(t.db, buyer.userId)).toEqual({ availableMinor: 19_980_000n, frozenMinor: 0n });
    await soundBooks();
  });
});

describe('sellers racing into one buy ad', () => {
  it('10 sellers × 10 USDT into an ad wanting 50: exactly 5 orders, each backed by its own hold', async () => {
    const buyer = await trader(t.app, t.db, name('bbuyer'));
    const ad = await postBuyAd(t.app, buyer, '50');
    const sellers = await Promise.all(Array.from({ length: 10 }, (_, index) => trader(t.app, t.db, name(`brace${index}`), '10')));
    const answers = await Promise.all(sellers.map((seller) => sellInto(seller.token, ad.id, '10')));
    expect(answers.filter((answer) => answer.code === 200)).toHaveLength(5);
    expect(answers.filter((answer) => answer.code !== 200).every((answer) => answer.msg === 'wrong purchase quantity')).toBe(true);
    const frozen = await Promise.all(sellers.map(async (seller) => (await fiatBalance(t.db, seller.userId)).frozenMinor));
    expect(frozen.filter((minor) => minor === 10n * USDT)).toHaveLength(5);
    expect(frozen.filter((minor) => minor === 0n)).toHaveLength(5);
    expect((await adOf(buyer.token, ad.id)).remaining).toBe('0.000000');
    await soundBooks();
  });
});
