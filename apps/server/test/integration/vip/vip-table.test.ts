import { parseVipLevels } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { findOrderView } from '../../../src/use-cases/p2p/p2p-views.ts';
import { computeVipLevels } from '../../../src/use-cases/vip/vip-levels.ts';
import { postAd, trader } from '../../helpers/p2p.ts';
import { createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';
import { call, fund } from '../../helpers/wallet.ts';

// Issue 20, VIP (ADR 0046): the table is the operator's configuration (VIP_LEVELS), not a constant.
// The published table, the daily job's rule and every discounted fee read the configured table;
// a released P2P order keeps the discount it was charged when the table later changes.

describe('VIP levels from the configured table', () => {
  let t: TestApp;
  const nowMs = Date.parse('2026-11-29T10:00:00Z');
  const now = () => new Date(nowMs);
  // Two levels: 25 % off from 1,000 USDT of balance, 50 % off from 5,000 (or on application from 3,000).
  const TABLE = '1/25/3/-/1000,2/50/4/-/5000/2500000/3000';
  beforeAll(async () => {
    t = await createTestApp({ VIP_LEVELS: TABLE, SWAP_SPREAD_BPS: '20' }, { now, market: true });
  });
  afterAll(() => t.close());

  const runJob = () => computeVipLevels({ db: t.db, now, market: t.market!.service, config: t.config });

  it('publishes the configured table, not the default one', async () => {
    const answer = await call(t.app, 'GET', '/home/vip/levels', null);
    expect(answer.code).toBe(200);
    expect(answer.data.levels).toEqual([
      expect.objectContaining({ level: 0, feeDiscountBps: 0, extraDailyWithdrawals: 0, minBalanceUsdt: null, byApplication: null }),
      expect.objectContaining({ level: 1, feeDiscountBps: 2500, extraDailyWithdrawals: 3, minVolume30dUsdt: null, minBalanceUsdt: '1000' }),
      expect.objectContaining({ level: 2, feeDiscountBps: 5000, minBalanceUsdt: '5000', byApplication: { minVolume30dUsdt: '2500000', minBalanceUsdt: '3000' } }),
    ]);
  });

  it('the daily job grants by the configured thresholds and the swap fee takes the configured discount', async () => {
    await t.market!.record([{ symbol: 'BTC/USDT', price: '90000.00000000', atMs: nowMs - 100 }]);
    const user = await registerViaApi(t.app, 'viptable01');
    // 1,200 USDT: level 1 under this table (the default table would give level 0).
    await fund(t.db, user.userId, 'USDT', '1200');
    await runJob();
    const mine = await call(t.app, 'GET', '/home/vip/mine', user.token);
    expect(mine.data).toMatchObject({ level: 1, progress: { next: 2, volume: null, balance: { have: '1200.000000', need: '5000.000000' } } });
    // The day's computation is the user's history: what the rule read and what it gave.
    expect(mine.data.history).toEqual([{ day: '2026-11-29', level: 1, ruleLevel: 1, volume30dUsdt: '0.000000', balanceUsdt: '1200.000000' }]);
    // The change is told once, with why and what the level gives; a second run of the day tells nothing.
    expect(await runJob()).toBe(0);
    const messages = await call(t.app, 'GET', '/home/user/messages?page=1&pageSize=20', user.token);
    const told = (messages.data.items as { title: string; body: string }[]).filter((each) => each.title.includes('VIP'));
    expect(told).toEqual([
      expect.objectContaining({
        title: 'Your VIP level is now 1',
        body: expect.stringMatching(/from 0 to 1 on 2026-11-29 \(UTC\), by the published rule: 30-day swap volume 0\.000000 USDT, balance 1200\.000000 USDT\. Level 1 takes 25 % off/),
      }),
    ]);
    expect(told[0]!.body).toContain('3 more withdrawal requests a day');

    const quote = await call(t.app, 'POST', '/home/assets/swap/quote', user.token, { fromAsset: 'USDT', toAsset: 'BTC', amount: '100' });
    // Fee 111 sat before the discount; 25 % off = 27.75 → 27 sat (rounded down); 84 charged.
    expect(quote.data).toMatchObject({ vipLevel: 1, vipDiscountBps: 2500, feeBeforeDiscount: '0.00000111', vipDiscount: '0.00000027', fee: '0.00000084' });
    const executed = await call(t.app, 'POST', '/home/assets/swap', user.token, { quoteId: quote.data.quoteId }, 'vip-table-swap-1');
    expect(executed.code).toBe(200);
    const [entry] = await t.db.query<{ memo: string }>('SELECT memo FROM journal_entries WHERE id = $1', [executed.data.entryId]);
    expect(entry!.memo).toContain('VIP 1: fee 0.00000111 BTC less 25 % (0.00000027 BTC) = 0.00000084 BTC');
  });

  it('a released P2P order keeps the discount it was charged after the table changes', async () => {
    const seller = await trader(t.app, t.db, 'viptableseller', '1000');
    const buyer = await trader(t.app, t.db, 'viptablebuyer');
    await fund(t.db, buyer.userId, 'USDT', '6000');
    await runJob();
    const ad = await postAd(t.app, seller, '500');
    const placed = await call(t.app, 'POST', '/home/p2p/orders', buyer.token, { adId: ad.id, quantity: '100' });
    // 0.1 % of 100 = 0.1; level 2 here is 50 % off.
    expect(placed.data).toMatchObject({ vipLevel: 2, vipDiscountBps: 5000, fee: '0.050000', buyerReceives: '99.950000' });
    await call(t.app, 'POST', `/home/p2p/orders/${placed.data.id}/paid`, buyer.token);
    const released = await call(t.app, 'POST', `/home/p2p/orders/${placed.data.id}/release`, seller.token, { paymentPassword: '135790' });
    expect(released.data).toMatchObject({ status: 'released', fee: '0.050000', vipLevel: 2, vipDiscountBps: 5000 });
    const postings = await t.db.query<{ amount_minor: string }>('SELECT amount_minor FROM postings WHERE entry_id = $1 ORDER BY amount_minor', [
      released.data.closingEntryId,
    ]);
    expect(postings.map((row) => BigInt(row.amount_minor))).toEqual([-100_000_000n, 50_000n, 99_950_000n]);

    // The operator restarts with a smaller table: the order still shows what was charged…
    const smaller = parseVipLevels('1/10/1/-/1000');
    const after = await findOrderView(t.db, BigInt(placed.data.id), BigInt(buyer.userId), smaller);
    expect(after).toMatchObject({ fee: '0.050000', vipLevel: 2, vipDiscountBps: 5000 });
    // …while an order not yet released shows what the buyer's stored level 2 gives now: level 1's 10 %.
    const open = await call(t.app, 'POST', '/home/p2p/orders', buyer.token, { adId: ad.id, quantity: '10' });
    const openUnderSmaller = await findOrderView(t.db, BigInt(open.data.id), BigInt(buyer.userId), smaller);
    expect(openUnderSmaller).toMatchObject({ vipLevel: 1, vipDiscountBps: 1000, fee: '0.009000' });
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });
});
