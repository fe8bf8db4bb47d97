import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers } from '../../../src/jobs/handlers.ts';
import { JobRunner } from '../../../src/jobs/runner.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { escrowMismatches, fiatBalance, postAd, trader } from '../../helpers/p2p.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call, coinBalance, fund, walletUser } from '../../helpers/wallet.ts';

// Issue 6 (first part): sell ads in escrow and orders against them — the flow with its messages,
// every refusal with its catalogue error, the durable expiry (once, with two job runners), the
// buyer's restriction after three cancellations, closing and editing ads, and BOLA. After every
// test the escrow equals what the ads offer plus their open orders, and the ledger check passes.

const USDT = 1_000_000n;
let t: TestApp;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp();
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

const order = (buyerToken: string, adId: string, quantity: string) => call(t.app, 'POST', '/home/p2p/orders', buyerToken, { adId, quantity });
const step = (token: string, orderId: string, what: 'paid' | 'cancel' | 'release', body?: unknown) =>
  call(t.app, 'POST', `/home/p2p/orders/${orderId}/${what}`, token, body);

async function lastMessage(userId: string) {
  const [row] = await t.db.query<{ title: string; body: string }>('SELECT title, body FROM messages WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [userId]);
  return row!;
}

describe('a sell ad and an order, through to release', () => {
  it('escrow on posting, the order placed, paid, released with the payment password: buyer gets the quantity less 0.1 %', async () => {
    const seller = await trader(t.app, t.db, name('seller'), '1000');
    const buyer = await trader(t.app, t.db, name('buyer'));
    const ad = await postAd(t.app, seller, '500');
    expect(ad).toMatchObject({ remaining: '500.000000', price: '85.50', fiat: 'INR', status: 'open', mine: true });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 500n * USDT, frozenMinor: 500n * USDT });
    const listed = await call(t.app, 'GET', '/home/p2p/ads?fiat=INR', buyer.token);
    expect(listed.data.items.find((item: { id: string }) => item.id === ad.id)).toMatchObject({ mine: false, side: 'sell', ownerName: seller.username });

    const placed = await order(buyer.token, ad.id, '100');
    expect(placed.data).toMatchObject({
      role: 'buyer',
      status: 'awaiting_payment',
      statusCode: 0,
      quantity: '100.000000',
      total: '8550.00',
      fee: '0.100000',
      buyerReceives: '99.900000',
      sellerContact: 'UPI seller@bank',
    });
    expect(placed.data.orderNo).toMatch(/^P\d{8}\d{8}$/);
    expect(Date.parse(placed.data.paymentDeadline) - Date.parse(placed.data.createdAt)).toBe(15 * 60_000);
    expect((await lastMessage(buyer.userId)).body).toContain('Please pay the seller');
    expect((await lastMessage(seller.userId)).body).toContain('New order on your ad');
    // Placing moves no money: the coins were in escrow already; the ad offers less.
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 500n * USDT, frozenMinor: 500n * USDT });
    expect((await call(t.app, 'GET', `/home/p2p/ads?mine=true`, seller.token)).data.items[0].remaining).toBe('400.000000');
    await soundBooks();

    const id = placed.data.id as string;
    // Each side's steps are its own.
    expect((await step(seller.token, id, 'paid')).data).toMatchObject({ problem: 'not_your_step' });
    expect((await step(seller.token, id, 'release', { paymentPassword: '135790' })).data).toMatchObject({ problem: 'wrong_state' });
    const paid = await step(buyer.token, id, 'paid');
    expect(paid.data).toMatchObject({ status: 'paid', statusCode: 1, paidAt: expect.any(String) });
    expect((await lastMessage(seller.userId)).body).toContain('The buyer marked the order paid (8550.00 INR)');
    expect((await step(buyer.token, id, 'cancel')).msg).toBe('the order is not in a state for this step');
    expect((await step(buyer.token, id, 'release', { paymentPassword: '135790' })).data).toMatchObject({ problem: 'not_your_step' });
    expect((await step(seller.token, id, 'release', { paymentPassword: '000000' })).msg).toBe('wrong payment password');

    const released = await step(seller.token, id, 'release', { paymentPassword: '135790' });
    expect(released.data).toMatchObject({ role: 'seller', status: 'released', statusCode: 2, closingEntryId: expect.stringMatching(/^\d+$/) });
    expect(await fiatBalance(t.db, buyer.userId)).toEqual({ availableMinor: 99_900_000n, frozenMinor: 0n });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 500n * USDT, frozenMinor: 400n * USDT });
    // P2P trades from and into the fiat accounts: neither coin account was touched.
    expect(await coinBalance(t.db, buyer.userId, 'USDT')).toEqual({ availableMinor: 0n, frozenMinor: 0n });
    expect(await coinBalance(t.db, seller.userId, 'USDT')).toEqual({ availableMinor: 0n, frozenMinor: 0n });
    // One entry: the seller's escrow −100, the buyer +99.9, the fee account +0.1.
    const postings = await t.db.query<{ amount_minor: string }>('SELECT amount_minor FROM postings WHERE entry_id = $1 ORDER BY amount_minor', [
      released.data.closingEntryId,
    ]);
    expect(postings.map((row) => BigInt(row.amount_minor))).toEqual([-100n * USDT, 100_000n, 99_900_000n]);
    expect((await lastMessage(buyer.userId)).body).toContain('Released');
    expect((await call(t.app, 'GET', '/home/p2p/orders?scope=completed', buyer.token)).data.items.map((item: { id: string }) => item.id)).toEqual([id]);
    expect((await call(t.app, 'GET', '/home/p2p/orders?scope=in_progress', seller.token)).data.items).toEqual([]);
    await soundBooks();
  });
});

describe('refusals, each with its catalogue error, changing nothing', () => {
  it('posting: identity verification, a contact method, the balance, coherent limits', async () => {
    const unverified = await walletUser(t.app, t.db, name('unver'));
    expect((await call(t.app, 'POST', '/home/p2p/ads', unverified.token, { fiat: 'INR', price: '85', min: '10', max: '20', contact: 'x', total: '50' })).msg).toBe(
      'identity verification required',
    );
    const noContact = await walletUser(t.app, t.db, name('nocontact'), { ready: true });
    expect((await call(t.app, 'POST', '/home/p2p/ads', noContact.token, { fiat: 'INR', price: '85', min: '10', max: '20', contact: 'x', total: '50' })).msg).toBe(
      'bind contact information first',
    );
    const seller = await trader(t.app, t.db, name('poor'), '100');
    const post = (patch: Record<string, unknown>) => call(t.app, 'POST', '/home/p2p/ads', seller.token, { fiat: 'INR', price: '85', min: '10', max: '20', contact: 'x', total: '50', ...patch });
    expect((await post({ total: '100.000001' })).msg).toBe('insufficient balance');
    // USDT in the coin account does not count: P2P sells from the fiat account.
    await fund(t.db, seller.userId, 'USDT', '500');
    expect((await post({ total: '150' })).msg).toBe('insufficient balance');
    expect(await coinBalance(t.db, seller.userId, 'USDT')).toEqual({ availableMinor: 500n * USDT, frozenMinor: 0n });
    expect((await post({ min: '30', max: '20' })).data).toMatchObject({ problem: 'min_above_max' });
    expect((await post({ min: '0.5' })).data).toMatchObject({ problem: 'min_below_floor' });
    expect((await post({ price: '85.001' })).msg).toBe('wrong amount');
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 100n * USDT, frozenMinor: 0n });
  });

  it('ordering: own ad, quantity outside min / max / what is left, identity verification, advanced above the threshold', async () => {
    const seller = await trader(t.app, t.db, name('seller'), '200000');
    const ad = await postAd(t.app, seller, '160000', { min: '10', max: '160000' });
    expect((await order(seller.token, ad.id, '20')).msg).toBe("cannot sell one's own sell order");
    const buyer = await trader(t.app, t.db, name('buyer'));
    expect((await order(buyer.token, ad.id, '9.99')).data).toMatchObject({ problem: 'below_min' });
    expect((await order(buyer.token, ad.id, '160000.000001')).data).toMatchObject({ problem: 'above_max' });
    expect((await order(buyer.token, ad.id, '0')).msg).toBe('wrong amount');
    // Above 150,000 USDT in one trade both sides need advanced verification.
    expect((await order(buyer.token, ad.id, '150001')).data).toEqual({ party: 'buyer' });
    const unverified = await walletUser(t.app, t.db, name('unver'));
    expect((await order(unverified.token, ad.id, '20')).msg).toBe('identity verification required');
    expect((await order(buyer.token, '999999', '20')).msg).toBe('record does not exist');
    const small = await postAd(t.app, await trader(t.app, t.db, name('seller'), '50'), '50', { min: '10', max: '50' });
    expect((await order(buyer.token, small.id, '40')).code).toBe(200);
    expect((await order(buyer.token, small.id, '20')).data).toMatchObject({ problem: 'above_remaining' });
    await soundBooks();
  });
});

describe('cancellations, closing and editing', () => {
  it('a cancelled order gives its quantity back to the ad; three in 24 h restrict ordering for 24 h', async () => {
    const seller = await trader(t.app, t.db, name('seller'), '1000');
    const buyer = await trader(t.app, t.db, name('buyer'));
    const ad = await postAd(t.app, seller, '500');
    for (let index = 0; index < 3; index += 1) {
      const placed = await order(buyer.token, ad.id, '50');
      const cancelled = await step(buyer.token, placed.data.id, 'cancel');
      expect(cancelled.data).toMatchObject({ status: 'cancelled', statusCode: 3, cancelReason: 'buyer' });
      expect((await lastMessage(seller.userId)).body).toBe('Order cancelled by the buyer. The coins went back to the ad.');
    }
    expect((await call(t.app, 'GET', '/home/p2p/ads?mine=true', seller.token)).data.items[0].remaining).toBe('500.000000');
    const restricted = await order(buyer.token, ad.id, '50');
    expect(restricted.msg).toBe('ordering restricted after repeated cancellations');
    expect(Date.parse(restricted.data.until) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    await soundBooks();
  });

  it('closing an ad returns what it offers; its open order keeps its escrow, and a cancellation then returns to the seller', async () => {
    const seller = await trader(t.app, t.db, name('seller'), '300');
    const buyer = await trader(t.app, t.db, name('buyer'));
    const ad = await postAd(t.app, seller, '300');
    const first = await order(buyer.token, ad.id, '100');
    const second = await order(buyer.token, ad.id, '50');
    const closed = await call(t.app, 'POST', `/home/p2p/ads/${ad.id}/close`, seller.token);
    expect(closed.data).toMatchObject({ status: 'closed', remaining: '0.000000' });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 150n * USDT, frozenMinor: 150n * USDT });
    expect((await order(buyer.token, ad.id, '20')).msg).toBe('the ad is no longer available');
    await step(buyer.token, second.data.id, 'cancel');
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 200n * USDT, frozenMinor: 100n * USDT });
    await step(buyer.token, first.data.id, 'paid');
    await step(seller.token, first.data.id, 'release', { paymentPassword: '135790' });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 200n * USDT, frozenMinor: 0n });
    expect(await fiatBalance(t.db, buyer.userId)).toEqual({ availableMinor: 99_900_000n, frozenMinor: 0n });
    await soundBooks();
  });

  it('editing an ad changes its terms; what it offers only goes down, and the difference returns', async () => {
    const seller = await trader(t.app, t.db, name('seller'), '300');
    const ad = await postAd(t.app, seller, '300');
    const edit = (patch: Record<string, unknown>) =>
      call(t.app, 'PUT', `/home/p2p/ads/${ad.id}`, seller.token, { fiat: 'INR', price: '86', min: '20', max: '100', contact: 'UPI', remark: '', remaining: '200', ...patch });
    const edited = await edit({});
    expect(edited.data).toMatchObject({ price: '86.00', min: '20.000000', remaining: '200.000000' });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 100n * USDT, frozenMinor: 200n * USDT });
    expect((await edit({ remaining: '250' })).data).toMatchObject({ problem: 'remaining_only_goes_down' });
    const other = await trader(t.app, t.db, name('other'));
    expect((await call(t.app, 'PUT', `/home/p2p/ads/${ad.id}`, other.token, { fiat: 'INR', price: '1', min: '1', max: '1', contact: 'x', remaining: '0' })).msg).toBe(
      'record does not exist',
    );
    await soundBooks();
  });

  it('editing an ad down to 0 closes it: everything it offered returns, no buyer can order, its open order keeps its escrow (issue 13)', async () => {
    const seller = await trader(t.app, t.db, name('seller'), '300');
    const buyer = await trader(t.app, t.db, name('buyer'));
    const ad = await postAd(t.app, seller, '300');
    const open = await order(buyer.token, ad.id, '100');
    const edited = await call(t.app, 'PUT', `/home/p2p/ads/${ad.id}`, seller.token, {
      fiat: 'INR',
      price: '86',
      min: '20',
      max: '100',
      contact: 'UPI',
      remark: '',
      remaining: '0',
    });
    expect(edited.data).toMatchObject({ status: 'closed', remaining: '0.000000' });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 200n * USDT, frozenMinor: 100n * USDT });
    expect((await call(t.app, 'GET', '/home/p2p/ads', buyer.token)).data.items.map((item: { id: string }) => item.id)).not.toContain(ad.id);
    expect((await order(buyer.token, ad.id, '20')).msg).toBe('the ad is no longer available');
    await step(buyer.token, open.data.id, 'cancel');
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 300n * USDT, frozenMinor: 0n });
    await soundBooks();
  });
});

describe('the payment window ends by a durable job', () => {
  it('expires an unpaid order exactly once with two job runners, returning the quantity to the ad; a paid one is left alone', async () => {
    const seller = await trader(t.app, t.db, name('seller'), '500');
    const buyer = await trader(t.app, t.db, name('buyer'));
    const ad = await postAd(t.app, seller, '500', { paymentWindowMinutes: 5 });
    const unpaid = await order(buyer.token, ad.id, '100');
    const paid = await order(buyer.token, ad.id, '50');
    await step(buyer.token, paid.data.id, 'paid');
    const later = () => new Date(Date.now() + 6 * 60_000);
    const db2 = await t.testDb.openAnother();
    // After commit, each runner reports the jobs it finished (main.ts announces expiries to both sides then).
    const finished: string[] = [];
    const afterCommit = async (job: { kind: string; payload: Record<string, unknown> }) => {
      if (job.kind === 'p2p.order.expire') finished.push(String(job.payload.orderId));
    };
    const runners = [
      new JobRunner({ db: t.db, handlers: jobHandlers, now: later, afterCommit }),
      new JobRunner({ db: db2, handlers: jobHandlers, now: later, afterCommit }),
    ];
    await Promise.all(runners.map((runner) => runner.drain()));
    expect(finished.filter((id) => id === unpaid.data.id)).toEqual([unpaid.data.id]);

    const expired = await call(t.app, 'GET', `/home/p2p/orders/${unpaid.data.id}`, buyer.token);
    expect(expired.data).toMatchObject({ status: 'cancelled', cancelReason: 'expired' });
    expect((await call(t.app, 'GET', `/home/p2p/orders/${paid.data.id}`, buyer.token)).data.status).toBe('paid');
    expect((await call(t.app, 'GET', '/home/p2p/ads?mine=true', seller.token)).data.items[0].remaining).toBe('450.000000');
    const jobs = await t.db.query<{ status: string; attempts: number }>(`SELECT status, attempts FROM jobs WHERE kind = 'p2p.order.expire' AND payload->>'orderId' = $1`, [
      unpaid.data.id,
    ]);
    expect(jobs).toEqual([{ status: 'done', attempts: 1 }]);
    const notices = await t.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM messages WHERE user_id = $1 AND body LIKE 'Order cancelled: the payment window ended%'`, [
      seller.userId,
    ]);
    expect(notices[0]!.count).toBe(1);
    // Too late to mark paid.
    expect((await step(buyer.token, unpaid.data.id, 'paid')).data).toMatchObject({ problem: 'wrong_state' });
    await soundBooks();
  });
});

describe('a third user reaches no order or ad of others', () => {
  it('reading and every step answer "record does not exist"; nothing changes', async () => {
    const seller = await trader(t.app, t.db, name('seller'), '200');
    const buyer = await trader(t.app, t.db, name('buyer'));
    const mallory = await trader(t.app, t.db, name('mallory'));
    const ad = await postAd(t.app, seller, '200');
    const placed = await order(buyer.token, ad.id, '50');
    const id = placed.data.id as string;
    expect((await call(t.app, 'GET', `/home/p2p/orders/${id}`, mallory.token)).msg).toBe('record does not exist');
    for (const what of ['paid', 'cancel'] as const) expect((await step(mallory.token, id, what)).msg).toBe('record does not exist');
    expect((await step(mallory.token, id, 'release', { paymentPassword: '135790' })).msg).toBe('record does not exist');
    expect((await call(t.app, 'POST', `/home/p2p/ads/${ad.id}/close`, mallory.token)).msg).toBe('record does not exist');
    expect((await call(t.app, 'GET', '/home/p2p/orders?scope=in_progress', mallory.token)).data.items).toEqual([]);
    expect((await call(t.app, 'GET', `/home/p2p/orders/${id}`, buyer.token)).data.status).toBe('awaiting_payment');
    await soundBooks();
  });
});
