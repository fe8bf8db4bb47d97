import { randomUUID } from 'node:crypto';
import { parseAmount, transferPostings } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePlatformAccount, ensureUserAccount, postEntry } from '../../../src/persistence/ledger.store.ts';
import { createStaff, createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';
import { call } from '../../helpers/wallet.ts';

// Loan products in the back-office (issue 18, ADR 0036): proposed by one admin, applied only when a
// different admin approves (as earn's); a change of terms gives the product a new terms version,
// which only applications made after it accept.

let t: TestApp;
let alice: string;
let bob: string;
let compliance: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createStaff(t.app, t.db, 'loanadmin1', ['admin']);
  bob = await createStaff(t.app, t.db, 'loanadmin2', ['admin']);
  compliance = await createStaff(t.app, t.db, 'loancompliance1', ['compliance']);
});
afterAll(() => t?.close());

const proposal = (overrides: Record<string, unknown> = {}) => ({
  name: 'Pledge 30 days',
  cycleDays: 30,
  dailyRatePercent: '0.1',
  minAmount: '100',
  maxAmount: '50000',
  collateral: [
    { asset: 'BTC', ltvPercent: '65' },
    { asset: 'ETH', ltvPercent: '60' },
  ],
  marginCallLtvPercent: '80',
  liquidationLtvPercent: '90',
  open: true,
  ...overrides,
});
const propose = (token: string, body: Record<string, unknown>) => call(t.app, 'POST', '/home/admin/loan-products/changes', token, body, null);
const decide = (token: string, changeId: string, approve: boolean, note?: string) =>
  call(t.app, 'POST', `/home/admin/loan-products/changes/${changeId}/decision`, token, { approve, ...(note ? { note } : {}) }, null);
const listed = async (token = bob) => (await call(t.app, 'GET', '/home/admin/loan-products', token)).data;
const productOf = async (id: string) => (await listed()).products.find((each: { id: string }) => each.id === id);

describe('proposing and approving a loan product', () => {
  it('writes nothing until a second admin approves; the proposer cannot approve their own', async () => {
    const proposed = await propose(alice, proposal());
    expect(proposed.code).toBe(200);
    expect(proposed.data).toMatchObject({ status: 'pending', productId: null, proposedBy: 'loanadmin1', decidedBy: null, proposal: proposal() });
    expect((await listed()).products).toEqual([]);
    expect((await decide(alice, proposed.data.id, true)).msg).toBe('a second staff member must approve');
    expect((await decide(compliance, proposed.data.id, true)).msg).toBe('permission denied');

    const approved = await decide(bob, proposed.data.id, true, 'ratios checked');
    expect(approved.data).toMatchObject({ status: 'approved', decidedBy: 'loanadmin2', decisionNote: 'ratios checked' });
    expect(approved.data.productId).toMatch(/^\d+$/);
    expect((await listed()).products).toEqual([
      {
        id: approved.data.productId,
        name: 'Pledge 30 days',
        asset: 'USDT',
        cycleDays: 30,
        dailyRatePercent: '0.1000',
        dailyRatePpm: 1_000,
        minAmount: '100.000000',
        maxAmount: '50000.000000',
        collateral: [
          { asset: 'BTC', ltvPercent: '65.0000', ltvPpm: 650_000 },
          { asset: 'ETH', ltvPercent: '60.0000', ltvPpm: 600_000 },
        ],
        marginCallLtvPercent: '80.0000',
        liquidationLtvPercent: '90.0000',
        open: true,
        termsVersion: 1,
        outstandingLoans: 0,
        outstandingPrincipal: '0.000000',
      },
    ]);
    expect((await decide(bob, proposed.data.id, false)).msg).toBe('no longer pending review');
    const audit = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE action LIKE 'loans.change.%' ORDER BY id`);
    expect(audit.map((row) => row.action)).toEqual(['loans.change.proposed', 'loans.change.approved']);
  });

  it('refuses broken terms at once, naming the rule; only an admin may propose', async () => {
    const refused = async (overrides: Record<string, unknown>) => (await propose(alice, proposal(overrides))).data;
    expect(await refused({ dailyRatePercent: '1.5' })).toMatchObject({ field: 'terms', problem: 'rate' });
    expect(await refused({ dailyRatePercent: '0.00001' })).toMatchObject({ field: 'dailyRatePercent', problem: 'too_many_decimals' });
    expect(await refused({ maxAmount: '50' })).toMatchObject({ field: 'terms', problem: 'range' });
    expect(await refused({ collateral: [{ asset: 'BTC', ltvPercent: '65' }, { asset: 'BTC', ltvPercent: '50' }] })).toMatchObject({ field: 'terms', problem: 'collateral' });
    expect(await refused({ collateral: [{ asset: 'BTC', ltvPercent: '85' }] })).toMatchObject({ field: 'terms', problem: 'ratios' });
    expect(await refused({ marginCallLtvPercent: '95' })).toMatchObject({ field: 'terms', problem: 'ratios' });
    expect(await refused({ liquidationLtvPercent: '100.5' })).toMatchObject({ field: 'terms', problem: 'ratios' });
    expect((await propose(alice, proposal({ collateral: [{ asset: 'DOGE', ltvPercent: '50' }] }))).msg).toBe('parameter error');
    expect((await propose(alice, proposal({ cycleDays: 400 }))).msg).toBe('parameter error');
    expect((await propose(compliance, proposal())).msg).toBe('permission denied');
    expect((await propose(alice, { ...proposal(), productId: '999999' })).msg).toBe('product does not exist');
    const [count] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM loan_product_changes`);
    expect(count!.n).toBe(1);
  });
});

describe('changing a loan product', () => {
  it('raises the terms version when a term changes, not for the name or closing it', async () => {
    const created = await propose(alice, proposal({ name: 'Changing' }));
    const productId = (await decide(bob, created.data.id, true)).data.productId as string;

    const rate = await propose(bob, { ...proposal({ name: 'Changing', dailyRatePercent: '0.08' }), productId });
    expect(rate.data).toMatchObject({ status: 'pending', productId });
    expect(await productOf(productId)).toMatchObject({ dailyRatePercent: '0.1000', termsVersion: 1 });
    expect((await decide(alice, rate.data.id, true)).code).toBe(200);
    expect(await productOf(productId)).toMatchObject({ dailyRatePercent: '0.0800', dailyRatePpm: 800, termsVersion: 2 });

    // A renamed, closed product publishes the same terms: the version stays.
    const closing = await propose(alice, { ...proposal({ name: 'Changed', dailyRatePercent: '0.08', open: false }), productId });
    await decide(bob, closing.data.id, true);
    expect(await productOf(productId)).toMatchObject({ name: 'Changed', open: false, termsVersion: 2 });

    // The collateral in another order is the same collateral; another LTV is a new version.
    const reordered = proposal({ name: 'Changed', dailyRatePercent: '0.08', open: false, collateral: [{ asset: 'ETH', ltvPercent: '60' }, { asset: 'BTC', ltvPercent: '65' }] });
    await decide(bob, (await propose(alice, { ...reordered, productId })).data.id, true);
    expect(await productOf(productId)).toMatchObject({ termsVersion: 2 });
    const ltv = proposal({ name: 'Changed', dailyRatePercent: '0.08', open: true, collateral: [{ asset: 'BTC', ltvPercent: '50' }, { asset: 'USDT', ltvPercent: '75' }] });
    await decide(bob, (await propose(alice, { ...ltv, productId })).data.id, true);
    expect(await productOf(productId)).toMatchObject({
      open: true,
      termsVersion: 3,
      collateral: [
        { asset: 'BTC', ltvPercent: '50.0000', ltvPpm: 500_000 },
        { asset: 'USDT', ltvPercent: '75.0000', ltvPpm: 750_000 },
      ],
    });

    // A rejected change changes nothing, and keeps the note.
    const rejected = await decide(alice, (await propose(bob, { ...proposal({ name: 'Changed', cycleDays: 7 }), productId })).data.id, false, 'too short');
    expect(rejected.data).toMatchObject({ status: 'rejected', decidedBy: 'loanadmin1', decisionNote: 'too short', productId });
    expect(await productOf(productId)).toMatchObject({ cycleDays: 30, termsVersion: 3 });
  });

  it('lists outstanding loans, the lending treasury and the proposals (pending first); admins only', async () => {
    const before = await listed();
    expect(before.lender).toEqual({ accountId: null, balance: '0.000000' });

    // The lending treasury, funded from the platform treasury.
    const lenderId = await t.db.transaction(async (tx) => {
      const treasury = await ensurePlatformAccount(tx, 'treasury', 'USDT', { allowNegative: true });
      const lending = await ensurePlatformAccount(tx, 'treasury', 'USDT', { label: 'lending' });
      await postEntry(tx, { reason: 'loans.fund', postings: transferPostings(treasury, lending, 'USDT', parseAmount('250000', 6)), at: new Date() });
      return lending;
    });

    // Two passed loans and a pending one on the first product (rows as the loan use cases write them; the entries only stand in).
    const productId = before.products[0].id as string;
    const borrower = await registerViaApi(t.app, 'loanborrower1');
    const [upload] = await t.db.query<{ id: bigint }>(
      `INSERT INTO uploads (user_id, purpose, storage_key, format, width, height, size_bytes, created_at)
       VALUES ($1, 'loan_holding', $2, 'png', 1, 1, 1, now()) RETURNING id`,
      [borrower.userId, `test/${randomUUID()}`],
    );
    const coin = await ensureUserAccount(t.db, BigInt(borrower.userId), 'coin', 'BTC');
    const [entry] = await t.db.query<{ id: bigint }>('SELECT id FROM journal_entries ORDER BY id DESC LIMIT 1');
    const loan = async (no: string, status: 'pending' | 'passed', outstanding: string) => {
      const [hold] = await t.db.query<{ id: bigint }>(
        `INSERT INTO ledger_holds (account_id, amount_minor, status, reference_type, reference_id, placed_entry_id) VALUES ($1, 1000000, 'posted', 'loan', $2, $3) RETURNING id`,
        [coin, no, entry!.id],
      );
      await t.db.query(
        `INSERT INTO loans (loan_no, user_id, product_id, amount_minor, terms_version, cycle_days, daily_rate_ppm, margin_call_ltv_ppm, liquidation_ltv_ppm,
           agreement_accepted_at_ms, collateral_asset, collateral_minor, collateral_ltv_ppm, collateral_account_id, hold_id, pledge_entry_id, holding_upload_id,
           applied_at_ms, status, approvals_required, disburse_entry_id, principal_outstanding_minor)
         VALUES ($1, $2, $3, $4, 1, 30, 1000, 800000, 900000, 0, 'BTC', 1000000, 650000, $5, $6, $7, $8, 0, $9, 1, $10, $4)`,
        [no, borrower.userId, productId, outstanding, coin, hold!.id, entry!.id, upload!.id, status, status === 'passed' ? entry!.id : null],
      );
    };
    await loan('L-1', 'passed', '1500000000');
    await loan('L-2', 'passed', '250500000');
    await loan('L-3', 'pending', '999000000');

    const pending = await propose(alice, proposal({ name: 'Still pending' }));
    const after = await listed();
    expect(after.lender).toEqual({ accountId: lenderId.toString(), balance: '250000.000000' });
    expect(after.products[0]).toMatchObject({ id: productId, outstandingLoans: 2, outstandingPrincipal: '1750.500000' });
    expect(after.products[1]).toMatchObject({ outstandingLoans: 0, outstandingPrincipal: '0.000000' });
    expect(after.changes.items[0]).toMatchObject({ id: pending.data.id, status: 'pending' });
    expect(after.changes.items.slice(1).every((change: { status: string }) => change.status !== 'pending')).toBe(true);
    expect(after.changes).toMatchObject({ total: 8, page: 1 });
    expect((await call(t.app, 'GET', '/home/admin/loan-products', compliance)).msg).toBe('permission denied');
  });
});
