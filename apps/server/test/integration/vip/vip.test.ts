import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { computeVipLevels } from '../../../src/use-cases/vip/vip-levels.ts';
import { createStaff, createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';
import { postAd, trader } from '../../helpers/p2p.ts';
import { leverageTrader } from '../leverage/leverage-helpers.ts';
import { call as apiCall, bindAddress, fund, verifyUser, walletUser } from '../../helpers/wallet.ts';

// Issue 20, VIP (ADR 0046): levels come from the published rule by the daily job (here at a moved
// clock) or from an application staff may approve only where the rule allows; every swap fee uses
// the level at the time and the journal entry shows the discount.

interface Envelope<T = Record<string, unknown>> {
  code: number;
  msg: string;
  data: T;
}

const DAY_MS = 86_400_000;

describe('VIP levels', () => {
  let t: TestApp;
  let nowMs = Date.parse('2026-11-29T10:00:00Z');
  const now = () => new Date(nowMs);
  beforeAll(async () => {
    t = await createTestApp({ SWAP_SPREAD_BPS: '20', WITHDRAWAL_DAILY_COUNT: '3' }, { now, market: true });
  });
  afterAll(() => t.close());

  const setPrice = (symbol: string, price: string) => t.market!.record([{ symbol, price, atMs: nowMs - 100 }]);
  const runJob = () => computeVipLevels({ db: t.db, now, market: t.market!.service, config: t.config });
  const call = async <T>(method: 'GET' | 'POST', url: string, token: string | null, payload?: unknown, key?: string) =>
    (
      await t.app.inject({
        method,
        url,
        headers: { ...(token ? { authorization: token } : {}), ...(key ? { 'idempotency-key': key } : {}) },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      })
    ).json() as Envelope<T>;

  it('publishes the table without a token', async () => {
    const answer = await call<{ levels: { level: number; feeDiscountBps: number; byApplication: unknown }[] }>('GET', '/home/vip/levels', null);
    expect(answer.code).toBe(200);
    expect(answer.data.levels.map((each) => [each.level, each.feeDiscountBps])).toEqual([
      [0, 0],
      [1, 1000],
      [2, 2000],
      [3, 3000],
      [4, 4000],
    ]);
  });

  it('VIP discount applied to a swap fee and shown (quote, journal entry and records)', async () => {
    await setPrice('BTC/USDT', '90000.00000000');
    const user = await registerViaApi(t.app, 'vipswap01');
    // 60,000 USDT: the balance rule of level 2 (50,000).
    await fund(t.db, user.userId, 'USDT', '60000');
    expect((await call<{ level: number }>('GET', '/home/vip/mine', user.token)).data.level).toBe(0);
    await runJob();
    const mine = await call<{ level: number; source: string; balanceUsdt: string; progress: { next: number } }>('GET', '/home/vip/mine', user.token);
    expect(mine.data).toMatchObject({ level: 2, source: 'rule', balanceUsdt: '60000.000000', progress: { next: 3 } });

    await setPrice('BTC/USDT', '90000.00000000');
    const quote = await call<Record<string, unknown> & { quoteId: string }>('POST', '/home/assets/swap/quote', user.token, {
      fromAsset: 'USDT',
      toAsset: 'BTC',
      amount: '100',
    });
    expect(quote.code).toBe(200);
    // Gross 0.00110888 BTC; fee 0.1 % = 110.888 sat → 111 sat before the discount; 20 % off = 22.2 → 22 sat; 89 charged.
    expect(quote.data).toMatchObject({
      grossReceive: '0.00110888',
      feeBeforeDiscount: '0.00000111',
      vipLevel: 2,
      vipDiscountBps: 2000,
      vipDiscount: '0.00000022',
      fee: '0.00000089',
      estimatedReceive: '0.00110799',
    });
    const executed = await call<{ entryId: string; received: string }>('POST', '/home/assets/swap', user.token, { quoteId: quote.data.quoteId }, 'vip-swap-1');
    expect(executed.code).toBe(200);
    expect(executed.data.received).toBe('0.00110799');

    // The journal entry shows the discount, and the fee account got the discounted fee.
    const [entry] = await t.db.query<{ memo: string }>('SELECT memo FROM journal_entries WHERE id = $1', [executed.data.entryId]);
    expect(entry!.memo).toBe('100.000000 USDT → 0.00110799 BTC · VIP 2: fee 0.00000111 BTC less 20 % (0.00000022 BTC) = 0.00000089 BTC');
    const [feePosting] = await t.db.query<{ amount: string }>(
      `SELECT p.amount_minor::text AS amount FROM postings p JOIN ledger_accounts a ON a.id = p.account_id WHERE p.entry_id = $1 AND a.kind = 'fees'`,
      [executed.data.entryId],
    );
    expect(feePosting!.amount).toBe('89');
    // The user's records show it too.
    const records = await call<{ items: { entryId: string; memo: string | null }[] }>('GET', '/home/assets/records?page=1&pageSize=20', user.token);
    expect(records.data.items.find((each) => each.entryId === executed.data.entryId)?.memo).toContain('VIP 2: fee 0.00000111 BTC less 20 %');
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('a level-0 swap charges the plain fee and its memo names no discount', async () => {
    await setPrice('BTC/USDT', '90000.00000000');
    const user = await registerViaApi(t.app, 'vipswap02');
    await fund(t.db, user.userId, 'USDT', '1000');
    const quote = await call<Record<string, unknown> & { quoteId: string }>('POST', '/home/assets/swap/quote', user.token, { fromAsset: 'USDT', toAsset: 'BTC', amount: '100' });
    expect(quote.data).toMatchObject({ vipLevel: 0, vipDiscountBps: 0, vipDiscount: '0.00000000', fee: '0.00000111', feeBeforeDiscount: '0.00000111' });
    const executed = await call<{ entryId: string }>('POST', '/home/assets/swap', user.token, { quoteId: quote.data.quoteId }, 'vip-swap-2');
    const [entry] = await t.db.query<{ memo: string }>('SELECT memo FROM journal_entries WHERE id = $1', [executed.data.entryId]);
    expect(entry!.memo).toBe('100.000000 USDT → 0.00110777 BTC');
  });

  it('the daily job gives the level of the 30-day volume at a moved clock, once per (user, day)', async () => {
    await setPrice('BTC/USDT', '100000.00000000');
    const user = await registerViaApi(t.app, 'vipvolume1');
    await fund(t.db, user.userId, 'BTC', '1');
    // Sell 0.6 BTC: 60,000 USDT of volume (level 1's threshold is 50,000).
    const quote = await call<{ quoteId: string }>('POST', '/home/assets/swap/quote', user.token, { fromAsset: 'BTC', toAsset: 'USDT', amount: '0.6' });
    expect((await call('POST', '/home/assets/swap', user.token, { quoteId: quote.data.quoteId }, 'vip-vol-1')).code).toBe(200);

    // The next day: the job sees 60,000 of volume (level 1) and 99,880 of balance (level 2): the higher wins.
    nowMs += DAY_MS;
    await setPrice('BTC/USDT', '100000.00000000');
    await runJob();
    const [run] = await t.db.query<{ volume: string; rule_level: number; level: number }>(
      'SELECT volume_30d_usdt_minor::text AS volume, rule_level, level FROM vip_level_runs WHERE user_id = $1',
      [user.userId],
    );
    expect(run).toEqual({ volume: '60000000000', rule_level: 2, level: 2 });
    // A second run the same day computes nothing again.
    expect(await runJob()).toBe(0);
    expect(await t.db.query('SELECT 1 FROM vip_level_runs WHERE user_id = $1', [user.userId])).toHaveLength(1);

    // 31 days later with the price fallen: the volume is out of the window, the balance is
    // 59,880 USDT + 0.4 BTC at 10,000 = 63,880: still level 2, now by the balance alone.
    nowMs += 31 * DAY_MS;
    await setPrice('BTC/USDT', '10000.00000000');
    await runJob();
    // (The session has expired a month on: read the rows.)
    const [later] = await t.db.query<{ volume: string; level: number }>(
      'SELECT r.volume_30d_usdt_minor::text AS volume, v.level FROM vip_level_runs r JOIN vip_levels v ON v.user_id = r.user_id WHERE r.user_id = $1 ORDER BY r.day DESC LIMIT 1',
      [user.userId],
    );
    expect(later).toEqual({ volume: '0', level: 2 });
    expect(await t.db.query('SELECT 1 FROM vip_level_runs WHERE user_id = $1', [user.userId])).toHaveLength(2);
  });

  it('the P2P release fee uses the buyer’s level at release, and the entry and the order show the discount', async () => {
    const seller = await trader(t.app, t.db, 'vipp2pseller', '1000');
    const buyer = await trader(t.app, t.db, 'vipp2pbuyer');
    // 250,000 USDT of balance on the buyer's coin account: level 3 (30 % off) by the rule.
    await fund(t.db, buyer.userId, 'USDT', '250000');
    await runJob();
    const ad = await postAd(t.app, seller, '500');
    const placed = await apiCall(t.app, 'POST', '/home/p2p/orders', buyer.token, { adId: ad.id, quantity: '100' });
    expect(placed.data).toMatchObject({ fee: '0.070000', feeBeforeDiscount: '0.100000', vipLevel: 3, vipDiscountBps: 3000, buyerReceives: '99.930000' });
    await apiCall(t.app, 'POST', `/home/p2p/orders/${placed.data.id}/paid`, buyer.token);
    const released = await apiCall(t.app, 'POST', `/home/p2p/orders/${placed.data.id}/release`, seller.token, { paymentPassword: '135790' });
    expect(released.data).toMatchObject({ status: 'released', fee: '0.070000', vipLevel: 3 });
    const postings = await t.db.query<{ amount_minor: string }>('SELECT amount_minor FROM postings WHERE entry_id = $1 ORDER BY amount_minor', [
      released.data.closingEntryId,
    ]);
    expect(postings.map((row) => BigInt(row.amount_minor))).toEqual([-100_000_000n, 70_000n, 99_930_000n]);
    const [entry] = await t.db.query<{ memo: string }>('SELECT memo FROM journal_entries WHERE id = $1', [released.data.closingEntryId]);
    expect(entry!.memo).toBe(`P2P order ${released.data.orderNo} · VIP 3: fee 0.100000 USDT less 30 % (0.030000 USDT) = 0.070000 USDT`);
    // The order keeps the level of its release: a later change of level does not rewrite its fee.
    await t.db.query('UPDATE vip_levels SET level = 0 WHERE user_id = $1', [buyer.userId]);
    const later = await apiCall(t.app, 'GET', `/home/p2p/orders/${placed.data.id}`, buyer.token);
    expect(later.data).toMatchObject({ fee: '0.070000', vipLevel: 3 });
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('leverage and futures fees: opening and closing charge the discounted fee, each entry naming it', async () => {
    const user = await leverageTrader(t.app, t.db, 'vipleverage1', '60000');
    await runJob();
    await t.market!.record([{ symbol: 'BTC/USDT', price: '50000', atMs: nowMs - 50 }]);
    const opened = await apiCall(t.app, 'POST', '/home/leverage/positions', user.token, { product: 'futures', symbol: 'BTC/USDT', side: 'long', margin: '100', leverage: 20 });
    expect(opened.code).toBe(200);
    // Notional 2,000 USDT; fee 0.1 % = 2 USDT; VIP 2 takes 20 %: 1.6 USDT charged.
    const feeOf = async (reason: string) => {
      const [row] = await t.db.query<{ memo: string; fee: string }>(
        `SELECT e.memo, p.amount_minor::text AS fee FROM journal_entries e JOIN postings p ON p.entry_id = e.id JOIN ledger_accounts a ON a.id = p.account_id
          WHERE e.reason = $1 AND e.reference_id = $2 AND a.kind = 'fees'`,
        [reason, opened.data.id],
      );
      return row!;
    };
    expect(await feeOf('leverage.open')).toEqual({ memo: 'VIP 2: fee 2.000000 USDT less 20 % (0.400000 USDT) = 1.600000 USDT', fee: '1600000' });
    await t.market!.record([{ symbol: 'BTC/USDT', price: '50000', atMs: nowMs - 40 }]);
    const closed = await apiCall(t.app, 'POST', `/home/leverage/positions/${opened.data.id}/close`, user.token, {});
    expect(closed.code).toBe(200);
    const close = await feeOf('leverage.close');
    const before = /fee ([\d.]+) USDT less 20 % \(([\d.]+) USDT\) = ([\d.]+) USDT$/.exec(close.memo);
    expect(before, close.memo).not.toBeNull();
    expect(Number(before![3]) * 1e6).toBe(Number(close.fee));
    expect(Number(close.fee)).toBeLessThan(2_000_000);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('the daily withdrawal count of the published rules adds the level’s extra requests, and the refusal names the level', async () => {
    const user = await walletUser(t.app, t.db, 'vipwithdraw1', { ready: true });
    await fund(t.db, user.userId, 'USDT', '60000');
    await runJob(); // VIP 2: two more requests a day.
    const addressId = await bindAddress(t.app, t.db, user, 'tron', { usableNow: true });
    const withdraw = () => apiCall(t.app, 'POST', '/home/wallet/withdrawals', user.token, { channel: 'USDT-TRC20', addressId, amount: '20', paymentPassword: '135790' });
    const limit = t.config.WITHDRAWAL_DAILY_COUNT;
    for (let i = 0; i < limit + 2; i += 1) expect((await withdraw()).code, `request ${i + 1}`).toBe(200);
    const refused = await withdraw();
    expect(refused.data).toEqual({ rule: 'daily_count', limit: limit + 2, used: limit + 2, vipLevel: 2, vipExtra: 2 });
  });

  it('applying needs advanced verification; staff approve only what the rule allows on application, recorded and audited', async () => {
    const user = await registerViaApi(t.app, 'vipapply01');
    const refused = await call('POST', '/home/vip/applications', user.token, { level: 3 });
    expect(refused.msg).toBe('advanced verification required');

    await verifyUser(t.db, user.userId, ['identity', 'advanced']);
    // Level 2 is reached only by the rule, never on application.
    expect((await call<{ reason: string }>('POST', '/home/vip/applications', user.token, { level: 2 })).data).toEqual({ reason: 'not_by_application' });
    const applied = await call<{ id: string; status: string }>('POST', '/home/vip/applications', user.token, { level: 3, note: 'Market maker' });
    expect(applied.data).toMatchObject({ status: 'in_review' });
    expect((await call<{ reason: string }>('POST', '/home/vip/applications', user.token, { level: 4 })).data).toEqual({ reason: 'already_in_review' });

    const compliance = await createStaff(t.app, t.db, 'vipcompliance', ['compliance']);
    const support = await createStaff(t.app, t.db, 'vipsupport', ['support']);
    expect((await call('GET', '/home/admin/vip/applications', support)).code).toBe(403);
    const queue = await call<{ items: { id: string; userName: string }[] }>('GET', '/home/admin/vip/applications', compliance);
    expect(queue.data.items.map((each) => each.id)).toContain(applied.data.id);

    // Without the application threshold (500,000 volume or 100,000 balance) staff cannot approve.
    const tooEarly = await call<{ reason: string }>('POST', `/home/admin/vip/applications/${applied.data.id}/decision`, compliance, { decision: 'approve' });
    expect(tooEarly.msg).toBe('vip application not allowed');
    expect(tooEarly.data).toEqual({ reason: 'threshold_not_met' });

    await fund(t.db, user.userId, 'USDT', '120000');
    const approved = await call<{ status: string; reviewedBy: string; balanceUsdt: string }>(
      'POST',
      `/home/admin/vip/applications/${applied.data.id}/decision`,
      compliance,
      { decision: 'approve' },
    );
    expect(approved.data).toMatchObject({ status: 'approved', reviewedBy: 'vipcompliance', balanceUsdt: '120000.000000' });
    const mine = await call<{ level: number; source: string }>('GET', '/home/vip/mine', user.token);
    expect(mine.data).toMatchObject({ level: 3, source: 'application' });
    const [audit] = await t.db.query<{ action: string; target_id: string }>(`SELECT action, target_id FROM audit_log WHERE action LIKE 'vip.%'`);
    expect(audit).toEqual({ action: 'vip.application.approve', target_id: user.userId });
    // The applicant is told, with what the level gives and for how long.
    const messages = await call<{ items: { title: string; body: string }[] }>('GET', '/home/user/messages?page=1&pageSize=20', user.token);
    const decision = messages.data.items.find((each) => each.title === 'VIP application approved: level 3');
    expect(decision?.body).toContain('takes 30 % off the swap, P2P release, leveraged and futures fees and gives 5 more withdrawal requests a day');
    expect(decision?.body).toContain('lasts 30 days');

    // The daily job keeps a valid application's level above the rule's (120,000 balance → level 2 by the rule).
    nowMs += DAY_MS;
    await runJob();
    expect((await call<{ level: number; source: string }>('GET', '/home/vip/mine', user.token)).data).toMatchObject({ level: 3, source: 'application' });
  });
});
