import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call } from '../../helpers/wallet.ts';
import { earnUser, fundTreasury, subscribe } from './earn-helpers.ts';

// Earn products in the back-office (issue 17, ADR 0035): proposed by one admin, applied only when a
// different admin approves; a change of terms reaches only new subscriptions.

let t: TestApp;
let alice: string;
let bob: string;
let finance: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createStaff(t.app, t.db, 'earnadmin1', ['admin']);
  bob = await createStaff(t.app, t.db, 'earnadmin2', ['admin']);
  finance = await createStaff(t.app, t.db, 'earnfinance1', ['finance']);
  await fundTreasury(t.db, '100000');
});
afterAll(() => t?.close());

const proposal = (overrides: Record<string, unknown> = {}) => ({
  kind: 'lockup',
  name: 'Mining 5 days',
  asset: 'USDT',
  cycleDays: 5,
  dailyRatePercent: '0.3',
  penaltyRatePercent: '0.4',
  payoutTimeUtc: '00:00',
  earlyRedemption: true,
  minAmount: '100',
  maxAmount: '10000',
  userQuota: '20000',
  totalQuota: '100000',
  open: true,
  ...overrides,
});
const propose = (token: string, body: Record<string, unknown>) => call(t.app, 'POST', '/home/admin/earn/changes', token, body, null);
const decide = (token: string, changeId: string, approve: boolean, note?: string) =>
  call(t.app, 'POST', `/home/admin/earn/changes/${changeId}/decision`, token, { approve, ...(note ? { note } : {}) }, null);
const products = async (token: string) => (await call(t.app, 'GET', '/home/earn/products', token)).data.products;

describe('proposing and approving a product', () => {
  it('writes nothing until a second admin approves; the proposer cannot approve their own', async () => {
    const user = await earnUser(t.app, t.db, 'earnstaff1', '1000');
    const proposed = await propose(alice, proposal());
    expect(proposed.code).toBe(200);
    expect(proposed.data).toMatchObject({ status: 'pending', productId: null, proposedBy: 'earnadmin1', decidedBy: null });
    expect(await products(user.token)).toEqual([]);
    expect((await decide(alice, proposed.data.id, true)).msg).toBe('a second staff member must approve');
    expect((await decide(finance, proposed.data.id, true)).msg).toBe('permission denied');

    const approved = await decide(bob, proposed.data.id, true, 'terms checked against the treasury');
    expect(approved.data).toMatchObject({ status: 'approved', decidedBy: 'earnadmin2', decisionNote: 'terms checked against the treasury' });
    expect(approved.data.productId).toMatch(/^\d+$/);
    expect(await products(user.token)).toEqual([
      expect.objectContaining({ id: approved.data.productId, dailyRatePercent: '0.3000', penaltyRatePercent: '0.4000', termsVersion: 1, open: true }),
    ]);
    expect((await decide(bob, proposed.data.id, false)).msg).toBe('no longer pending review');
    const audit = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE action LIKE 'earn.change.%' ORDER BY id`);
    expect(audit.map((row) => row.action)).toEqual(['earn.change.proposed', 'earn.change.approved']);
  });

  it('refuses broken terms at once, and an admin only may propose', async () => {
    const refused = async (overrides: Record<string, unknown>) => (await propose(alice, proposal(overrides))).data;
    expect(await refused({ dailyRatePercent: '1.5' })).toMatchObject({ field: 'terms', problem: 'daily_rate' });
    expect(await refused({ dailyRatePercent: '0.00001' })).toMatchObject({ field: 'dailyRatePercent', problem: 'too_many_decimals' });
    expect(await refused({ earlyRedemption: false })).toMatchObject({ field: 'terms', problem: 'penalty_without_redemption' });
    expect(await refused({ maxAmount: '50' })).toMatchObject({ field: 'terms', problem: 'amount_range' });
    expect(await refused({ asset: 'DOGE' })).toMatchObject({ field: 'asset', problem: 'unknown' });
    expect((await propose(alice, proposal({ payoutTimeUtc: '24:00' }))).msg).toBe('parameter error');
    expect((await propose(finance, proposal())).msg).toBe('permission denied');
    expect((await propose(alice, { ...proposal(), productId: '999999' })).msg).toBe('product does not exist');
  });
});

describe('changing a product', () => {
  it('gives changed terms a new version that reaches only new subscriptions', async () => {
    const created = await propose(alice, proposal({ name: 'Changing' }));
    const productId = (await decide(bob, created.data.id, true)).data.productId as string;
    const user = await earnUser(t.app, t.db, 'earnstaff2', '2000');
    const before = await subscribe(t.app, user, productId, '1000');
    expect(before.data).toMatchObject({ dailyRatePercent: '0.3000', termsVersion: 1 });

    const change = await propose(bob, { ...proposal({ name: 'Changing', dailyRatePercent: '0.25' }), productId });
    expect((await propose(bob, { ...proposal({ name: 'Changing', kind: 'financial' }), productId })).data).toMatchObject({ field: 'kind' });
    expect((await decide(alice, change.data.id, true)).code).toBe(200);
    const [product] = (await products(user.token)).filter((each: { id: string }) => each.id === productId);
    expect(product).toMatchObject({ dailyRatePercent: '0.2500', termsVersion: 2 });

    // The subscription sold under version 1 keeps 0.3 %; one naming version 1 now is refused.
    const kept = await call(t.app, 'GET', `/home/earn/subscriptions/${before.data.id}`, user.token);
    expect(kept.data).toMatchObject({ dailyRatePercent: '0.3000', dailyInterest: '3.000000', termsVersion: 1 });
    const stale = await subscribe(t.app, user, productId, '500');
    expect(stale).toMatchObject({ msg: 'parameter error', data: { field: 'termsVersion', expected: 2 } });
    const fresh = await call(t.app, 'POST', '/home/earn/subscriptions', user.token, { productId, amount: '500', paymentPassword: '135790', termsVersion: 2 });
    expect(fresh.data).toMatchObject({ dailyRatePercent: '0.2500', dailyInterest: '1.250000', termsVersion: 2 });

    // Closing it to new subscriptions changes no terms: the version stays.
    const closing = await propose(alice, { ...proposal({ name: 'Changing', dailyRatePercent: '0.25', open: false }), productId });
    await decide(bob, closing.data.id, true);
    const [closed] = (await products(user.token)).filter((each: { id: string }) => each.id === productId);
    expect(closed).toMatchObject({ open: false, termsVersion: 2 });
    const refused = await call(t.app, 'POST', '/home/earn/subscriptions', user.token, { productId, amount: '100', paymentPassword: '135790', termsVersion: 2 });
    expect(refused.msg).toBe('trading is closed for this product');

    // A total quota below what is active now is refused on approval, and nothing changes.
    const shrink = await propose(alice, { ...proposal({ name: 'Changing', dailyRatePercent: '0.25', minAmount: '1', userQuota: '100', totalQuota: '1000' }), productId });
    expect((await decide(bob, shrink.data.id, true)).data).toMatchObject({ field: 'totalQuota', problem: 'below_active' });
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('lists the products with their active principal, the treasury and the proposals, pending first', async () => {
    const pending = await propose(alice, proposal({ name: 'Still pending' }));
    const listed = await call(t.app, 'GET', '/home/admin/earn/products', bob);
    expect(listed.code).toBe(200);
    expect(listed.data.changes.items[0]).toMatchObject({ id: pending.data.id, status: 'pending' });
    expect(listed.data.products.find((each: { name: string }) => each.name === 'Changing')).toMatchObject({ activeSubscriptions: 2, activePrincipal: '1500.000000' });
    expect(listed.data.treasuries).toEqual([expect.objectContaining({ asset: 'USDT' })]);
    expect((await call(t.app, 'GET', '/home/admin/earn/products', finance)).msg).toBe('permission denied');
  });
});
