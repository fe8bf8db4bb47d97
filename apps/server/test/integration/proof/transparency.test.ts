import { transferPostings } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePlatformAccount, postEntry } from '../../../src/persistence/ledger.store.ts';
import { earnTreasuryAccount } from '../../../src/use-cases/earn/earn-support.ts';
import { fundEarnTreasury } from '../../../src/use-cases/earn/earn-products.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call, fund, walletUser, type WalletUser } from '../../helpers/wallet.ts';

// The public transparency page's data (issue 22): the platform's house accounts with their ledger
// balances and results by day, the earn yield paid, and the published rules — the very objects the
// users' own screens get, from the same functions.

let t: TestApp;
let alice: WalletUser;
const nowMs = Date.UTC(2026, 10, 28, 12, 0);
const DAY_MS = 86_400_000;

beforeAll(async () => {
  t = await createTestApp({}, { now: () => new Date(nowMs) });
  alice = await walletUser(t.app, t.db, 'transalice1');
  await fund(t.db, alice.userId, 'USDT', '100');
  await t.db.transaction(async (tx) => {
    // The contracts house won 7 USDT two days ago and lost 2 today; the earn treasury paid 1.5 USDT of interest today.
    const house = await ensurePlatformAccount(tx, 'options_house', 'USDT', { allowNegative: true });
    const treasury = await ensurePlatformAccount(tx, 'treasury', 'USDT', { allowNegative: true });
    await postEntry(tx, { reason: 'demo.fund', postings: transferPostings(treasury, house, 'USDT', 7_000_000n), at: new Date(nowMs - 2 * DAY_MS) });
    await postEntry(tx, { reason: 'demo.fund', postings: transferPostings(house, treasury, 'USDT', 2_000_000n), at: new Date(nowMs) });
    await fundEarnTreasury(tx, 'USDT', 50_000_000n, new Date(nowMs - 40 * DAY_MS));
    const earn = await earnTreasuryAccount(tx, 'USDT');
    await postEntry(tx, { reason: 'earn.interest', postings: transferPostings(earn, treasury, 'USDT', 1_500_000n), at: new Date(nowMs) });
    await postEntry(tx, { reason: 'earn.interest', postings: transferPostings(earn, treasury, 'USDT', 500_000n), at: new Date(nowMs - 35 * DAY_MS) });
  });
});
afterAll(() => t?.close());

describe('GET /home/transparency', () => {
  it('is public and shows the house accounts with their balances and results by UTC day', async () => {
    const answer = await call(t.app, 'GET', '/home/transparency', null);
    expect(answer.code).toBe(200);
    const houses = answer.data.houses as { kind: string; asset: string; balance: string; days: { day: string; change: string }[] }[];
    expect(houses.find((house) => house.kind === 'options_house')).toMatchObject({
      asset: 'USDT',
      balance: '5.000000',
      days: [
        { day: '2026-11-28', change: '-2.000000' },
        { day: '2026-11-26', change: '7.000000' },
      ],
    });
    // The earn treasury: funded 40 days ago (outside the 30 days shown), paid 0.5 and 1.5 USDT of interest.
    expect(houses.find((house) => house.kind === 'earn_treasury')).toMatchObject({ asset: 'USDT', balance: '48.000000', days: [{ day: '2026-11-28', change: '-1.500000' }] });
    expect(answer.data.earnYieldPaid).toEqual([{ asset: 'USDT', total: '2.000000', last30Days: '1.500000' }]);
    // No user's account is ever listed.
    expect(houses.every((house) => ['options_house', 'leverage_house', 'insurance_fund', 'fees', 'earn_treasury', 'lending_treasury'].includes(house.kind))).toBe(true);
  });

  it('publishes the rules exactly as the users’ own screens get them', async () => {
    const { rules } = (await call(t.app, 'GET', '/home/transparency', null)).data;
    const wallet = (await call(t.app, 'GET', '/home/wallet/overview', alice.token)).data;
    expect(rules.wallet).toEqual({ channels: wallet.channels, rules: wallet.rules });
    const options = (await call(t.app, 'GET', '/home/options/overview', alice.token)).data;
    expect(rules.options).toEqual({ asset: options.asset, products: options.products, symbols: options.symbols, rule: options.rule });
    const leverage = (await call(t.app, 'GET', '/home/leverage/overview', alice.token)).data;
    expect(rules.leverage).toEqual({ asset: leverage.asset, products: leverage.products, symbols: leverage.symbols, rules: leverage.rules });
    const loans = (await call(t.app, 'GET', '/home/loans/overview', alice.token)).data;
    expect(rules.loans).toEqual({ products: loans.products, policy: loans.policy });
    expect(rules.swap).toEqual({ spreadPercent: '0.20', feePercent: '0.10', quoteValidSeconds: 10 });
    expect(rules.p2p).toEqual({ releaseFeePercent: '0.10' });
    expect(rules.wallet.rules.twoPersonReview.correctionAdminAboveUsdt).toBe('1000.000000');
  });
});
