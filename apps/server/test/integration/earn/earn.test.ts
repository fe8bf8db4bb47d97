import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferPostings } from '@keel/domain';
import type { Queryable } from '../../../src/persistence/db.ts';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { ensurePlatformAccount, postEntry } from '../../../src/persistence/ledger.store.ts';
import { earnTreasuryAccount } from '../../../src/use-cases/earn/earn-support.ts';
import type { EventBus } from '../../../src/realtime/event-bus.ts';
import { announceSettled, payDueInterest } from '../../../src/use-cases/earn/pay-interest.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call } from '../../helpers/wallet.ts';
import { accountBalance, addProduct, earnTreasuryBalance, earnUser, fundTreasury, specProduct, subscribe, usdt } from './earn-helpers.ts';

// Earn (issue 17): the spec's two worked examples through the API with the clock moved day by day,
// catch-up after downtime, every refusal leaving nothing behind, a retry under the same key, and
// 200 racing subscriptions against a quota of 50.

let t: TestApp;
// 1 December 2026, 10:00 UTC: with a 00:00 payout time, day 1 is paid on the 2nd at 00:00.
let nowMs = Date.UTC(2026, 11, 1, 10, 0, 0);

beforeAll(async () => {
  t = await createTestApp({}, { now: () => new Date(nowMs) });
  await fundTreasury(t.db, '100000');
});
afterAll(() => t?.close());

const pay = () => payDueInterest({ db: t.db, now: () => new Date(nowMs) });
const detail = async (token: string, id: string) => (await call(t.app, 'GET', `/home/earn/subscriptions/${id}`, token)).data;
const expectLedgerWhole = async () => expect((await checkLedger(t.db)).problems).toEqual([]);

describe('the spec’s lock-up example: 10,000 USDT at 0.3 % a day for 5 days', () => {
  it('pays 30 USDT each day at the payout time and returns the principal at maturity', async () => {
    nowMs = Date.UTC(2026, 11, 1, 10, 0, 0);
    const productId = await addProduct(t.db, specProduct());
    const user = await earnUser(t.app, t.db, 'earnspec1', '10000');
    const treasuryBefore = await earnTreasuryBalance(t.db);

    const subscribed = await subscribe(t.app, user, productId, '10000');
    expect(subscribed.code).toBe(200);
    expect(subscribed.data).toMatchObject({
      principal: '10000.000000',
      dailyRatePercent: '0.3000',
      dailyInterest: '30.000000',
      estimatedIncome: '150.000000',
      cycleDays: 5,
      paidDays: 0,
      remainingDays: 5,
      status: 'active',
      subscribedAtMs: nowMs,
      nextPayoutAtMs: Date.UTC(2026, 11, 2),
      maturesAtMs: Date.UTC(2026, 11, 6),
      // 0.4 % × 5 days × 10,000.
      penaltyIfRedeemedNow: '200.000000',
    });
    expect(subscribed.data.subscriptionNo).toMatch(/^E20261201\d{8}$/);
    // One entry: the coin account's 10,000 into the DeFi account's frozen part.
    expect(await accountBalance(t.db, user.userId, 'coin')).toEqual({ available: 0n, frozen: 0n });
    expect(await accountBalance(t.db, user.userId, 'defi')).toEqual({ available: 0n, frozen: usdt('10000') });
    await expectLedgerWhole();

    // Nothing before the payout time.
    nowMs = Date.UTC(2026, 11, 1, 23, 59, 59);
    expect(await pay()).toEqual([]);

    for (let day = 1; day <= 5; day += 1) {
      nowMs = Date.UTC(2026, 11, 1 + day, 0, 0, 2);
      const settled = await pay();
      expect(settled).toHaveLength(1);
      expect(settled[0]).toMatchObject({ daysPaid: 1, matured: day === 5 });
      // The same moment again: nothing more.
      expect(await pay()).toEqual([]);
      const view = await detail(user.token, subscribed.data.id);
      expect(view.paidDays).toBe(day);
      expect(view.interestPaid).toBe(`${30 * day}.000000`);
      expect(view.payouts[0]).toMatchObject({ day, dueAtMs: Date.UTC(2026, 11, 1 + day), interest: '30.000000' });
      expect(view.payouts[0].entryId).toMatch(/^\d+$/);
      const coin = await accountBalance(t.db, user.userId, 'coin');
      expect(coin.available).toBe(usdt(String(30 * day)) + (day === 5 ? usdt('10000') : 0n));
      await expectLedgerWhole();
    }

    const done = await detail(user.token, subscribed.data.id);
    expect(done).toMatchObject({ status: 'completed', closedAtMs: Date.UTC(2026, 11, 6, 0, 0, 2), returned: '10000.000000', penalty: null, nextPayoutAtMs: null });
    expect(done.payouts.map((payout: { day: number }) => payout.day)).toEqual([5, 4, 3, 2, 1]);
    expect(await accountBalance(t.db, user.userId, 'defi')).toEqual({ available: 0n, frozen: 0n });
    expect(treasuryBefore - (await earnTreasuryBalance(t.db))).toBe(usdt('150'));
    // Ended: listed with the ended ones.
    const ended = await call(t.app, 'GET', '/home/earn/subscriptions?scope=ended', user.token);
    expect(ended.data.items.map((item: { id: string }) => item.id)).toEqual([subscribed.data.id]);
  });
});

describe('the spec’s early redemption: 0.4 %, 3 days left, 1,000 USDT → 12 USDT', () => {
  it('returns the principal less the penalty, keeps the interest paid, and gives the penalty to the treasury', async () => {
    nowMs = Date.UTC(2026, 11, 10, 10, 0, 0);
    const productId = await addProduct(t.db, specProduct({ name: 'Financial 5 days', kind: 'financial' }));
    const user = await earnUser(t.app, t.db, 'earnspec2', '1000');
    const subscribed = await subscribe(t.app, user, productId, '1000');
    expect(subscribed.code).toBe(200);

    // Two days paid (3 USDT each): three remain.
    nowMs = Date.UTC(2026, 11, 12, 0, 0, 1);
    await pay();
    nowMs = Date.UTC(2026, 11, 12, 9, 0, 0);
    const before = await detail(user.token, subscribed.data.id);
    expect(before).toMatchObject({ paidDays: 2, remainingDays: 3, interestPaid: '6.000000', penaltyIfRedeemedNow: '12.000000' });
    const treasuryBefore = await earnTreasuryBalance(t.db);

    const redeemed = await call(t.app, 'POST', `/home/earn/subscriptions/${subscribed.data.id}/redeem`, user.token, { paymentPassword: '135790' });
    expect(redeemed.code).toBe(200);
    expect(redeemed.data).toMatchObject({ status: 'redeemed', penalty: '12.000000', returned: '988.000000', interestPaid: '6.000000', closedAtMs: nowMs });
    // 6 of interest + 988 back.
    expect(await accountBalance(t.db, user.userId, 'coin')).toEqual({ available: usdt('994'), frozen: 0n });
    expect(await accountBalance(t.db, user.userId, 'defi')).toEqual({ available: 0n, frozen: 0n });
    expect((await earnTreasuryBalance(t.db)) - treasuryBefore).toBe(usdt('12'));
    // Nothing more is paid on it (the next two days, within the session's lifetime).
    nowMs = Date.UTC(2026, 11, 14, 1);
    expect((await pay()).map((each) => each.subscriptionId.toString())).not.toContain(subscribed.data.id);
    // A second redemption: it has ended.
    const again = await call(t.app, 'POST', `/home/earn/subscriptions/${subscribed.data.id}/redeem`, user.token, { paymentPassword: '135790' });
    expect(again.msg).toBe('the subscription has ended');
    await expectLedgerWhole();
  });

  it('pays a day that came due before redeeming, so it is not counted as remaining', async () => {
    nowMs = Date.UTC(2026, 11, 21, 10, 0, 0);
    const productId = await addProduct(t.db, specProduct({ name: 'Catch-up redeem' }));
    const user = await earnUser(t.app, t.db, 'earnspec3', '1000');
    const subscribed = await subscribe(t.app, user, productId, '1000');
    // Day 1 came due at midnight; no payout pass has run.
    nowMs = Date.UTC(2026, 11, 22, 8, 0, 0);
    const redeemed = await call(t.app, 'POST', `/home/earn/subscriptions/${subscribed.data.id}/redeem`, user.token, { paymentPassword: '135790' });
    expect(redeemed.data).toMatchObject({ paidDays: 1, interestPaid: '3.000000', penalty: '16.000000', returned: '984.000000' });
    expect((await accountBalance(t.db, user.userId, 'coin')).available).toBe(usdt('987'));
    await expectLedgerWhole();
  });
});

describe('downtime', () => {
  it('pays every missed day once, each with the day it belongs to', async () => {
    nowMs = Date.UTC(2027, 0, 4, 12, 0, 0);
    const productId = await addProduct(t.db, specProduct({ name: 'Downtime', payoutMinuteUtc: 8 * 60 }));
    const user = await earnUser(t.app, t.db, 'earndown1', '2000');
    const subscribed = await subscribe(t.app, user, productId, '2000');
    // Three payout times pass with the job down: the 5th, 6th and 7th at 08:00.
    nowMs = Date.UTC(2027, 0, 7, 9, 0, 0);
    const settled = await pay();
    expect(settled).toEqual([expect.objectContaining({ daysPaid: 3, matured: false })]);
    const view = await detail(user.token, subscribed.data.id);
    expect(view.payouts.map((payout: { day: number; dueAtMs: number }) => [payout.day, payout.dueAtMs])).toEqual([
      [3, Date.UTC(2027, 0, 7, 8)],
      [2, Date.UTC(2027, 0, 6, 8)],
      [1, Date.UTC(2027, 0, 5, 8)],
    ]);
    expect(view).toMatchObject({ interestPaid: '18.000000', nextPayoutAtMs: Date.UTC(2027, 0, 8, 8) });
    expect(await pay()).toEqual([]);
    await expectLedgerWhole();
    // What was paid reaches the user's screens as one event per user and pass.
    const published: [string, unknown][] = [];
    const events = { publish: async (channel: string, event: unknown) => void published.push([channel, event]) } as unknown as EventBus;
    await announceSettled({ events, logger: t.app.log }, [...settled, { ...settled[0]!, subscriptionId: 1n }]);
    expect(published).toEqual([[`user:${user.userId}`, { kind: 'earn.subscription', subscriptionId: '1', status: 'active' }]]);
  });
});

describe('refusals', () => {
  it('refuses each rule with its catalogue error and leaves nothing behind', async () => {
    nowMs = Date.UTC(2027, 1, 1, 10, 0, 0);
    const productId = await addProduct(t.db, specProduct({ name: 'Refusals', userQuotaMinor: usdt('1500'), totalQuotaMinor: usdt('1000000') }));
    const locked = await addProduct(t.db, specProduct({ name: 'No early exit', earlyRedemption: false, penaltyRatePpm: 0 }));
    const user = await earnUser(t.app, t.db, 'earnrefuse1', '1200');
    const stranger = await earnUser(t.app, t.db, 'earnrefuse2', '0');
    const [{ count: before }] = (await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM earn_subscriptions')) as [{ count: number }];
    const refusal = async (body: Record<string, unknown>, who = user) =>
      (await call(t.app, 'POST', '/home/earn/subscriptions', who.token, { productId, amount: '100', paymentPassword: '135790', termsVersion: 1, ...body })).msg;

    expect(await refusal({ productId: '999999' })).toBe('product does not exist');
    expect(await refusal({ amount: '12.3.4' })).toBe('wrong amount');
    expect(await refusal({ amount: '100.0000001' })).toBe('wrong amount');
    expect(await refusal({ amount: '99.99' })).toBe('amount out of range');
    expect(await refusal({ amount: '100000.01' })).toBe('amount out of range');
    expect(await refusal({ paymentPassword: '000000' })).toBe('wrong payment password');
    expect(await refusal({ termsVersion: 2 })).toBe('parameter error');
    expect(await refusal({ amount: '1300' })).toBe('insufficient balance');
    expect(await refusal({}, stranger)).toBe('insufficient balance');
    // Without the acknowledgement.
    const fresh = await earnUser(t.app, t.db, 'earnrefuse3', '500');
    await t.db.query('DELETE FROM earn_acknowledgements WHERE user_id = $1', [fresh.userId]);
    expect(await refusal({}, fresh)).toBe('risk disclosure not accepted');
    // Quota: 1,500 per user.
    expect((await subscribe(t.app, user, productId, '1000')).code).toBe(200);
    await call(t.app, 'POST', '/home/earn/subscriptions', user.token, {}); // a malformed body: refused, nothing written
    await t.db.query(`UPDATE earn_products SET open = false WHERE id = $1`, [locked]);
    expect(await refusal({ productId: locked })).toBe('trading is closed for this product');
    const { fund } = await import('../../helpers/wallet.ts');
    await fund(t.db, user.userId, 'USDT', '1000');
    const over = await call(t.app, 'POST', '/home/earn/subscriptions', user.token, { productId, amount: '600', paymentPassword: '135790', termsVersion: 1 });
    expect(over).toMatchObject({ msg: 'purchase limit exceeded', data: { rule: 'user_quota' } });
    const [{ count: after }] = (await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM earn_subscriptions')) as [{ count: number }];
    expect(after - before).toBe(1);
    await expectLedgerWhole();
  });

  it('sells no promise the earn treasury cannot keep', async () => {
    nowMs = Date.UTC(2027, 1, 2, 10, 0, 0);
    const [{ owed }] = (await t.db.query<{ owed: string }>(`SELECT owed_minor::text AS owed FROM earn_obligations WHERE asset = 'USDT'`)) as [{ owed: string }];
    const free = (await earnTreasuryBalance(t.db)) - BigInt(owed);
    // 1 % a day for 100 days promises the whole principal: more than is free once the principal is above it.
    const generous = await addProduct(
      t.db,
      specProduct({ name: 'Generous', dailyRatePpm: 10_000, cycleDays: 100, maxAmountMinor: usdt('1000000'), userQuotaMinor: usdt('1000000') }),
    );
    const user = await earnUser(t.app, t.db, 'earncover1', '1000000');
    const tooMuch = (free / 1_000_000n + 1n).toString();
    const refused = await subscribe(t.app, user, generous, tooMuch);
    expect(refused).toMatchObject({ msg: 'purchase limit exceeded', data: { rule: 'treasury_cover' } });
    expect((await subscribe(t.app, user, generous, (free / 1_000_000n).toString())).code).toBe(200);
    await expectLedgerWhole();
    // Funded again, the next promises can be sold.
    await fundTreasury(t.db, '100000');
  });

  it('refuses an early redemption the product does not allow, and another user’s subscription', async () => {
    nowMs = Date.UTC(2027, 1, 3, 10, 0, 0);
    const productId = await addProduct(t.db, specProduct({ name: 'Held to maturity', earlyRedemption: false, penaltyRatePpm: 0 }));
    const user = await earnUser(t.app, t.db, 'earnheld1', '500');
    const other = await earnUser(t.app, t.db, 'earnheld2', '0');
    const subscribed = await subscribe(t.app, user, productId, '500');
    expect(subscribed.data.penaltyIfRedeemedNow).toBeNull();
    const path = `/home/earn/subscriptions/${subscribed.data.id}/redeem`;
    expect((await call(t.app, 'POST', path, user.token, { paymentPassword: '135790' })).msg).toBe('early redemption not allowed for this product');
    expect((await call(t.app, 'POST', path, other.token, { paymentPassword: '135790' })).msg).toBe('record does not exist');
    expect((await call(t.app, 'GET', `/home/earn/subscriptions/${subscribed.data.id}`, other.token)).msg).toBe('record does not exist');
  });
});

describe('idempotency and races', () => {
  it('answers a retry under the same key with the first subscription and moves the money once', async () => {
    nowMs = Date.UTC(2027, 2, 1, 10, 0, 0);
    const productId = await addProduct(t.db, specProduct({ name: 'Retry' }));
    const user = await earnUser(t.app, t.db, 'earnretry1', '1000');
    const first = await subscribe(t.app, user, productId, '400', 'earn-retry-key');
    const second = await subscribe(t.app, user, productId, '400', 'earn-retry-key');
    expect(second.data).toEqual(first.data);
    expect(await accountBalance(t.db, user.userId, 'coin')).toEqual({ available: usdt('600'), frozen: 0n });
  });

  it('200 concurrent subscriptions against a quota of 50: exactly 50', async () => {
    nowMs = Date.UTC(2027, 2, 2, 10, 0, 0);
    const productId = await addProduct(t.db, specProduct({ name: 'Quota 50', totalQuotaMinor: usdt('5000'), userQuotaMinor: usdt('5000') }));
    const users = await Promise.all(Array.from({ length: 20 }, (_, index) => earnUser(t.app, t.db, `earnrace${index}`, '1000')));
    const answers = await Promise.all(users.flatMap((user) => Array.from({ length: 10 }, () => subscribe(t.app, user, productId, '100'))));
    const codes = answers.map((answer) => answer.msg);
    expect(codes.filter((msg) => msg === 'success')).toHaveLength(50);
    expect(codes.filter((msg) => msg !== 'success').every((msg) => msg === 'purchase limit exceeded')).toBe(true);
    const [product] = await t.db.query<{ active: string }>('SELECT active_minor::text AS active FROM earn_products WHERE id = $1', [productId]);
    expect(product!.active).toBe(usdt('5000').toString());
    const overview = await call(t.app, 'GET', '/home/earn/products', users[0]!.token);
    expect(overview.data.products.find((each: { id: string }) => each.id === productId)).toMatchObject({ remainingQuota: '0.000000' });
    await expectLedgerWhole();
  });
});

describe('the overview', () => {
  it('shows each product’s terms and quota, and the treasury that pays the yield with its ledger balance and what it owes', async () => {
    const user = await earnUser(t.app, t.db, 'earnview1', '0');
    const overview = await call(t.app, 'GET', '/home/earn/products?kind=lockup', user.token);
    expect(overview.code).toBe(200);
    expect(overview.data.products.every((each: { kind: string }) => each.kind === 'lockup')).toBe(true);
    expect(overview.data.products[0]).toMatchObject({ dailyRatePercent: '0.3000', penaltyRatePercent: '0.4000', payoutTimeUtc: '00:00', cycleDays: 5 });
    const [treasury] = overview.data.treasuries;
    expect(treasury.asset).toBe('USDT');
    expect(BigInt(treasury.balance.replace('.', ''))).toBe(await earnTreasuryBalance(t.db));
    const [{ owed }] = (await t.db.query<{ owed: string }>(`SELECT owed_minor::text AS owed FROM earn_obligations WHERE asset = 'USDT'`)) as [{ owed: string }];
    expect(BigInt(treasury.owed.replace('.', ''))).toBe(BigInt(owed));
    expect(overview.data.acknowledgement).toMatchObject({ version: 1 });
    expect(overview.data.acknowledgement.acceptedAt).not.toBeNull();
  });
});

describe('the ledger check', () => {
  it('names a payout row gone, a principal hold changed, an obligation off and a stray treasury posting', async () => {
    const rollback = new Error('rolled back on purpose');
    const problemsAfter = async (change: string | ((tx: Queryable) => Promise<unknown>)) => {
      let problems: string[] = [];
      await t.db
        .transaction(async (tx) => {
          if (typeof change === 'string') await tx.query(change);
          else await change(tx);
          problems = (await checkLedger(tx)).problems;
          throw rollback;
        })
        .catch((error) => {
          if (error !== rollback) throw error;
        });
      return problems.join('\n');
    };
    expect(await problemsAfter('DELETE FROM earn_payouts WHERE (subscription_id, day) IN (SELECT subscription_id, day FROM earn_payouts LIMIT 1)')).toContain(
      'interest paid differs from their payouts',
    );
    expect(
      await problemsAfter(
        `UPDATE ledger_holds SET amount_minor = amount_minor - 1 WHERE id = (SELECT hold_id FROM earn_subscriptions WHERE status = 'active' LIMIT 1)`,
      ),
    ).toContain('earn subscriptions whose principal hold does not match');
    expect(await problemsAfter(`UPDATE earn_obligations SET owed_minor = owed_minor + 1`)).toContain('earn obligations that differ');
    // An entry that is not funding, interest or a penalty.
    const stray = async (tx: Queryable) => {
      const treasury = await ensurePlatformAccount(tx, 'treasury', 'USDT', { allowNegative: true });
      const earn = await earnTreasuryAccount(tx, 'USDT');
      await postEntry(tx, { reason: 'demo.fund', postings: transferPostings(treasury, earn, 'USDT', 1n), at: new Date() });
    };
    expect(await problemsAfter(stray)).toContain('earn treasury postings');
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });
});
