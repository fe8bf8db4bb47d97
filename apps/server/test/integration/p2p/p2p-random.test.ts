import { createPrng } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers } from '../../../src/jobs/handlers.ts';
import { JobRunner } from '../../../src/jobs/runner.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { escrowMismatches, trader } from '../../helpers/p2p.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { type Call, call, type WalletUser } from '../../helpers/wallet.ts';

// Issue 6, "must show": a seeded random run of P2P steps — post, edit and close ads, place, pay,
// cancel, release and expire orders — with the escrow of every ad equal to what it offers plus its
// open orders, and the ledger check passing, after EVERY step. The seed is printed; replay a
// failure with P2P_SEED=<seed> (and P2P_STEPS=<n>).

const seed = process.env.P2P_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
const steps = Number(process.env.P2P_STEPS ?? 150);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe(`P2P escrow under random steps (seed ${seed})`, () => {
  it('keeps every ad’s escrow equal to what it offers plus its open orders, and the ledger sound, after every step', async () => {
    console.log(`p2p random test: P2P_SEED=${seed} P2P_STEPS=${steps}`);
    const random = createPrng(seed);
    const pick = <T>(items: readonly T[]): T => items[random.nextUint32() % items.length]!;
    const sellers: WalletUser[] = [];
    const buyers: WalletUser[] = [];
    for (let index = 0; index < 3; index += 1) sellers.push(await trader(t.app, t.db, `rseller${index}${seed}`.slice(0, 32), '5000'));
    for (let index = 0; index < 6; index += 1) buyers.push(await trader(t.app, t.db, `rbuyer${index}${seed}`.slice(0, 32)));
    const ads: { id: string; seller: WalletUser }[] = [];
    const orders: { id: string; buyer: WalletUser; seller: WalletUser }[] = [];
    const counts: Record<string, number> = {};
    const expiryRunner = new JobRunner({ db: t.db, handlers: jobHandlers, now: () => new Date(Date.now() + 6 * 60_000) });

    /** Orders in a state, so each step mostly picks an order it applies to (the refusals are tested elsewhere). */
    const inState = async (status: string) => {
      const rows = await t.db.query<{ id: bigint }>('SELECT id FROM p2p_orders WHERE status = $1 ORDER BY id', [status]);
      const ids = new Set(rows.map((row) => row.id.toString()));
      const matching = orders.filter((order) => ids.has(order.id));
      return matching.length > 0 && random.nextFloat() < 0.9 ? matching : orders;
    };
    /**
     * Ads still open, likewise: an order or an edit on a closed ad is a refusal tested elsewhere, and
     * a run whose ads mostly closed early exercised almost no orders (seed 874231130: 44 of 49 orders
     * refused, and the check below failed).
     */
    const openAds = async () => {
      const rows = await t.db.query<{ id: bigint }>(`SELECT id FROM p2p_ads WHERE status = 'open' ORDER BY id`);
      const ids = new Set(rows.map((row) => row.id.toString()));
      const matching = ads.filter((ad) => ids.has(ad.id));
      return matching.length > 0 && random.nextFloat() < 0.9 ? matching : ads;
    };
    for (let stepIndex = 0; stepIndex < steps; stepIndex += 1) {
      const roll = random.nextFloat();
      let kind: string;
      let answer: Call | undefined;
      if (roll < 0.12 || ads.length === 0) {
        kind = 'post';
        const seller = pick(sellers);
        const total = 50 + (random.nextUint32() % 400);
        answer = await call(t.app, 'POST', '/home/p2p/ads', seller.token, {
          fiat: 'INR',
          price: '85.50',
          min: '1',
          max: '300',
          paymentWindowMinutes: 5,
          contact: 'UPI',
          total: `${total}.${random.nextUint32() % 1000}`,
        });
        if (answer.code === 200) ads.push({ id: answer.data.id, seller });
      } else if (roll < 0.45) {
        kind = 'order';
        const ad = pick(await openAds());
        const buyer = pick(buyers);
        answer = await call(t.app, 'POST', '/home/p2p/orders', buyer.token, { adId: ad.id, quantity: `${1 + (random.nextUint32() % 120)}.5` });
        if (answer.code === 200) orders.push({ id: answer.data.id, buyer, seller: ad.seller });
      } else if (roll < 0.62 && orders.length > 0) {
        kind = 'paid';
        const order = pick(await inState('awaiting_payment'));
        answer = await call(t.app, 'POST', `/home/p2p/orders/${order.id}/paid`, order.buyer.token);
      } else if (roll < 0.68 && orders.length > 0) {
        kind = 'cancel';
        const order = pick(await inState('awaiting_payment'));
        answer = await call(t.app, 'POST', `/home/p2p/orders/${order.id}/cancel`, order.buyer.token);
      } else if (roll < 0.82 && orders.length > 0) {
        kind = 'release';
        const order = pick(await inState('paid'));
        answer = await call(t.app, 'POST', `/home/p2p/orders/${order.id}/release`, order.seller.token, { paymentPassword: '135790' });
      } else if (roll < 0.86) {
        kind = 'close';
        const ad = pick(ads);
        answer = await call(t.app, 'POST', `/home/p2p/ads/${ad.id}/close`, ad.seller.token);
      } else if (roll < 0.95) {
        kind = 'edit';
        const ad = pick(await openAds());
        const current = await call(t.app, 'GET', '/home/p2p/ads?mine=true&pageSize=100', ad.seller.token);
        const remaining = (current.data.items as { id: string; remaining: string }[]).find((item) => item.id === ad.id)!.remaining;
        const lower = (BigInt(remaining.replace('.', '')) * BigInt(random.nextUint32() % 100)) / 100n;
        answer = await call(t.app, 'PUT', `/home/p2p/ads/${ad.id}`, ad.seller.token, {
          fiat: 'INR',
          price: '86',
          min: '1',
          max: '300',
          contact: 'UPI',
          remaining: `${lower / 1_000_000n}.${(lower % 1_000_000n).toString().padStart(6, '0')}`,
        });
      } else {
        kind = 'expire';
        await expiryRunner.drain();
      }
      const outcome = `${kind}:${answer ? (answer.code === 200 ? 'ok' : answer.msg) : 'ran'}`;
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      // The restriction after three cancellations is a rule of its own, not a failure of the run.
      expect(answer?.code === 500, `step ${stepIndex} ${outcome}`).toBe(false);
      expect(await escrowMismatches(t.db), `step ${stepIndex} ${outcome}`).toEqual([]);
      expect((await checkLedger(t.db)).problems, `step ${stepIndex} ${outcome}`).toEqual([]);
    }
    console.log('p2p random test outcomes', counts);
    // The run must have exercised the money-moving steps, not only refusals.
    expect(counts['order:ok'] ?? 0).toBeGreaterThan(5);
    expect((counts['release:ok'] ?? 0) + (counts['cancel:ok'] ?? 0)).toBeGreaterThan(2);
  });
});
