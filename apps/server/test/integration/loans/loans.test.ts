import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import type { EventBus } from '../../../src/realtime/event-bus.ts';
import { sweepLoans } from '../../../src/use-cases/loans/liquidate-loans.ts';
import { lendingTreasuryAccount } from '../../../src/use-cases/loans/loans-support.ts';
import { ensurePlatformAccount, postEntry } from '../../../src/persistence/ledger.store.ts';
import { transferPostings } from '@keel/domain';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call } from '../../helpers/wallet.ts';
import { addLoanProduct, apply, borrower, btc, coin, decide, fundLender, lenderBalance, loanTerms, repay, usdt } from './loans-helpers.ts';

// Loans (issue 18): applied, approved and repaid through the API with the clock moved; rejected;
// two approvals above the published amount; liquidated at the due date and early by a price move,
// each at a recorded tick it names; every refusal leaves nothing behind; a retry under the same key
// answers the first application; racing applications never pass the available credit.

const DAY_MS = 86_400_000;
let t: TestApp;
let nowMs = Date.UTC(2026, 11, 1, 10, 0, 0);
let compliance: string;
let compliance2: string;
let productId: string;

let reviewerCount = 0;
/** Two compliance members logged in at the test's clock (a staff session lasts hours; the tests move days). */
async function freshReviewers() {
  reviewerCount += 1;
  compliance = await createStaff(t.app, t.db, `loancompliance${reviewerCount}a`, ['compliance']);
  compliance2 = await createStaff(t.app, t.db, `loancompliance${reviewerCount}b`, ['compliance']);
}

beforeAll(async () => {
  // Sessions outlive the tests' moves of the clock (up to 31 days each).
  t = await createTestApp({ SESSION_TTL_HOURS: String(24 * 90) }, { now: () => new Date(nowMs), market: true });
  await freshReviewers();
  await fundLender(t.db, '1000000');
  productId = await addLoanProduct(t.db);
});
afterAll(() => t?.close());

/** The market at the test's clock: BTC and ETH recorded now. */
async function prices(btcPrice = '60000', ethPrice = '3000') {
  const ticks = await t.market!.record([
    { symbol: 'BTC/USDT', price: btcPrice, atMs: nowMs },
    { symbol: 'ETH/USDT', price: ethPrice, atMs: nowMs },
  ]);
  await expect.poll(() => t.market!.service.latest('BTC/USDT')?.tickId).toBe(ticks[0]!.tickId);
  return ticks;
}
const published: unknown[] = [];
const events = { publish: async (_channel: string, event: unknown) => void published.push(event) } as unknown as EventBus;
const sweep = () => sweepLoans({ db: t.db, now: () => new Date(nowMs), market: t.market!.service, config: t.config, events, logger: t.app.log });
/** Moves money between the platform treasury and the lending treasury by a journal entry (positive: into lending). */
const moveLenderFunds = (amountMinor: bigint) =>
  t.db.transaction(async (tx) => {
    const platform = await ensurePlatformAccount(tx, 'treasury', 'USDT', { allowNegative: true });
    const lender = await lendingTreasuryAccount(tx);
    const postings = amountMinor > 0n ? transferPostings(platform, lender, 'USDT', amountMinor) : transferPostings(lender, platform, 'USDT', -amountMinor);
    await postEntry(tx, { reason: 'loan.fund', postings, at: new Date(nowMs) });
  });
/** The system messages a user was sent, oldest first. */
const messagesOf = async (userId: string) =>
  t.db.query<{ title: string; body: string }>('SELECT title, body FROM messages WHERE user_id = $1 ORDER BY id', [userId]);
const expectLedgerWhole = async () => expect((await checkLedger(t.db)).problems).toEqual([]);
const detail = async (token: string, id: string) => {
  const answer = await call(t.app, 'GET', `/home/loans/${id}`, token);
  if (answer.code !== 200) throw new Error(`loan ${id}: ${JSON.stringify(answer)}`);
  return answer.data;
};

describe('applied, approved, repaid', () => {
  it('pledges the collateral, pays the principal on approval, and on early repayment charges the days begun and returns the pledge', async () => {
    nowMs += DAY_MS;
    await freshReviewers();
    await prices();
    const user = await borrower(t.app, t.db, 'loanuser1', { BTC: '1', USDT: '100' });
    // The photo through the real upload pipeline.
    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 10, g: 90, b: 160 } } }).png().toBuffer();
    const uploaded = (
      await t.app.inject({ method: 'POST', url: '/home/uploads/image?purpose=loan_holding', headers: { authorization: user.token, 'content-type': 'image/png' }, payload: png })
    ).json();
    expect(uploaded.code).toBe(200);
    user.photo = uploaded.data.uploadId;

    const overview = (await call(t.app, 'GET', '/home/loans/overview', user.token)).data;
    expect(overview.credit).toMatchObject({ tier: 1, score: 600, cap: '10000.000000', committed: '0.000000', available: '10000.000000' });
    expect(overview.prices.find((each: { asset: string }) => each.asset === 'BTC')).toMatchObject({ price: '60000.00000000' });
    expect(overview.lender.balance).toBe('1000000.000000');

    const agreement = await call(t.app, 'GET', `/home/loans/agreement?productId=${productId}&amount=1000&collateralAsset=BTC&collateralAmount=0.05`, user.token);
    expect(agreement.data).toMatchObject({
      version: 1,
      interest: '30.000000',
      totalDue: '1030.000000',
      collateralValue: '3000.000000',
      pledgeCredit: '1950.000000',
      // 1,030 ÷ (0.8 × 0.05) and ÷ (0.9 × 0.05).
      marginCallPrice: '25750.00000000',
      liquidationPrice: '22888.88888889',
    });

    const applied = await apply(t.app, user, productId, { amount: '1000', collateralAmount: '0.05' });
    expect(applied.code).toBe(200);
    expect(applied.data).toMatchObject({ status: 'pending', amount: '1000.000000', interest: '30.000000', totalDue: '1030.000000', approvalsRequired: 1 });
    expect(applied.data.loanNo).toMatch(/^L20261202\d{8}$/);
    expect(await coin(t.db, user.userId, 'BTC')).toEqual({ available: btc('0.95'), frozen: btc('0.05') });

    // The reviewer sees the photo (audited) and the borrower's credit, then approves.
    const photo = await t.app.inject({ method: 'GET', url: `/home/admin/loans/${applied.data.id}/holding-photo`, headers: { authorization: compliance } });
    expect(photo.statusCode).toBe(200);
    expect((await sharp(photo.rawPayload).metadata()).width).toBe(32);
    const [audited] = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_type = 'loan' AND target_id = $1`, [applied.data.id]);
    expect(audited?.action).toBe('upload.view');
    const queue = (await call(t.app, 'GET', '/home/admin/loans?status=pending', compliance)).data;
    expect(queue.items.map((each: { id: string }) => each.id)).toContain(applied.data.id);

    const lenderBefore = await lenderBalance(t.db);
    const approved = await decide(t.app, compliance, applied.data.id, 'approve');
    expect(approved.code).toBe(200);
    expect(approved.data).toMatchObject({ status: 'passed', startedAtMs: nowMs, dueAtMs: nowMs + 30 * DAY_MS, owedNow: '1001.000000', daysBegun: 1 });
    expect(await coin(t.db, user.userId, 'USDT')).toMatchObject({ available: usdt('1100') });
    expect(await lenderBalance(t.db)).toBe(lenderBefore - usdt('1000'));
    expect((await call(t.app, 'GET', '/home/loans/overview', user.token)).data.credit).toMatchObject({ committed: '1000.000000', available: '9000.000000' });
    expect((await messagesOf(user.userId)).at(-1)).toEqual({
      title: `Loan ${applied.data.loanNo} paid out`,
      body: `1000.000000 USDT has been paid into your coin account. Total due: 1030.000000 USDT by ${new Date(nowMs + 30 * DAY_MS).toISOString().slice(0, 16).replace('T', ' ')} (UTC). Repaying early costs interest only for the days begun.`,
    });

    // Day 10 (9 days and a bit later): 10 days begun → 10 USDT of interest.
    nowMs += 9 * DAY_MS + 3_600_000;
    await prices();
    expect(await detail(user.token, applied.data.id)).toMatchObject({ daysBegun: 10, owedNow: '1010.000000', health: 'healthy' });
    const repaid = await repay(t.app, user, applied.data.id, { full: true });
    expect(repaid.code).toBe(200);
    expect(repaid.data).toMatchObject({ status: 'repaid', interestPaid: '10.000000', repaid: '1010.000000', principalOutstanding: '0.000000' });
    expect(repaid.data.repayments).toHaveLength(1);
    expect(await coin(t.db, user.userId, 'USDT')).toMatchObject({ available: usdt('90') });
    expect(await coin(t.db, user.userId, 'BTC')).toEqual({ available: btc('1'), frozen: 0n });
    expect(await lenderBalance(t.db)).toBe(lenderBefore + usdt('10'));
    // Repaid on time: the score rises by 15.
    expect((await call(t.app, 'GET', '/home/loans/overview', user.token)).data.credit).toMatchObject({ score: 615, committed: '0.000000' });
    expect((await repay(t.app, user, applied.data.id, { full: true })).msg).toBe('the loan is not outstanding');
    await expectLedgerWhole();
  });

  it('a partial repayment pays interest first; the rest is owed on the principal left', async () => {
    nowMs += DAY_MS;
    await freshReviewers();
    await prices();
    const user = await borrower(t.app, t.db, 'loanuser2', { BTC: '1', USDT: '2000' });
    const applied = await apply(t.app, user, productId, { amount: '1000', collateralAmount: '0.1' });
    await decide(t.app, compliance, applied.data.id, 'approve');
    nowMs += 4 * DAY_MS + 1;
    await prices();
    // Day 5: 5 USDT of interest; 505 pays it and 500 of principal.
    const partial = await repay(t.app, user, applied.data.id, { full: false, amount: '505' });
    expect(partial.data).toMatchObject({ status: 'passed', principalOutstanding: '500.000000', interestPaid: '5.000000', owedNow: '500.000000' });
    expect((await repay(t.app, user, applied.data.id, { full: false, amount: '500.000001' })).msg).toBe('amount out of range');
    nowMs += 10 * DAY_MS;
    await prices();
    // Day 15: 10 more days on 500 → 5.
    const rest = await repay(t.app, user, applied.data.id, { full: true });
    expect(rest.data).toMatchObject({ status: 'repaid', interestPaid: '10.000000', repaid: '1010.000000' });
    await expectLedgerWhole();
  });
});

describe('review', () => {
  it('a rejection stores the reason and returns the pledge', async () => {
    nowMs += DAY_MS;
    await freshReviewers();
    await prices();
    const user = await borrower(t.app, t.db, 'loanuser3', { ETH: '2' });
    const applied = await apply(t.app, user, productId, { amount: '2000', collateralAsset: 'ETH', collateralAmount: '2' });
    expect(applied.code).toBe(200);
    expect(await coin(t.db, user.userId, 'ETH')).toMatchObject({ frozen: 2n * 10n ** 18n });
    expect((await decide(t.app, compliance, applied.data.id, 'reject')).code).toBe(400);
    const rejected = await decide(t.app, compliance, applied.data.id, 'reject', 'The photo does not show the ID document.');
    expect(rejected.data).toMatchObject({ status: 'rejected', rejectReason: 'The photo does not show the ID document.' });
    expect(await coin(t.db, user.userId, 'ETH')).toEqual({ available: 2n * 10n ** 18n, frozen: 0n });
    expect((await detail(user.token, applied.data.id)).rejectReason).toBe('The photo does not show the ID document.');
    expect((await messagesOf(user.userId)).at(-1)?.body).toBe(
      'Reason given by the reviewer: The photo does not show the ID document.. Your collateral has been returned to your coin account.',
    );
    expect((await call(t.app, 'GET', '/home/loans/overview', user.token)).data.credit.committed).toBe('0.000000');
    expect((await decide(t.app, compliance2, applied.data.id, 'approve')).msg).toBe('no longer pending review');
    await expectLedgerWhole();
  });

  it('above the published amount two different members approve; the first cannot be the second', async () => {
    nowMs += DAY_MS;
    await freshReviewers();
    await prices();
    const user = await borrower(t.app, t.db, 'loanuser4', { BTC: '2' }, { advanced: true });
    const applied = await apply(t.app, user, productId, { amount: '20000', collateralAmount: '1' });
    expect(applied.data).toMatchObject({ approvalsRequired: 2, approvals: 0 });
    const first = await decide(t.app, compliance, applied.data.id, 'approve');
    expect(first.data).toMatchObject({ status: 'pending', approvals: 1 });
    expect((await decide(t.app, compliance, applied.data.id, 'approve')).msg).toBe('a second staff member must approve');
    const second = await decide(t.app, compliance2, applied.data.id, 'approve');
    expect(second.data).toMatchObject({ status: 'passed', approvals: 2 });
    expect(second.data.reviews.map((each: { staff: string }) => each.staff)).toEqual([`loancompliance${reviewerCount}a`, `loancompliance${reviewerCount}b`]);
    await expectLedgerWhole();
  });

  it('one member pays out alone only within the two-person rule’s sums (ADR 0022): past them, a second member must agree', async () => {
    nowMs += DAY_MS;
    await freshReviewers();
    await prices();
    // Per member and per borrower, 10,000 USDT a day alone (the defaults); each loan below the 10,000 threshold.
    const first = await borrower(t.app, t.db, 'loanrule1', { BTC: '2' }, { advanced: true });
    const second = await borrower(t.app, t.db, 'loanrule2', { BTC: '2' }, { advanced: true });
    const a = await apply(t.app, first, productId, { amount: '6000', collateralAmount: '0.5' });
    const b = await apply(t.app, second, productId, { amount: '6000', collateralAmount: '0.5' });
    expect([a.data.approvalsRequired, b.data.approvalsRequired]).toEqual([1, 1]);
    expect((await decide(t.app, compliance, a.data.id, 'approve')).data).toMatchObject({ status: 'passed', approvals: 1 });
    // The same member's second payout would bring what they decided alone to 12,000: recorded, not paid.
    expect((await decide(t.app, compliance, b.data.id, 'approve')).data).toMatchObject({ status: 'pending', approvals: 1, approvalsRequired: 2 });
    const [reason] = await t.db.query<{ reason: { rule: string; limitUsdtMinor: string; decidedAloneUsdtMinor: string } }>(
      'SELECT two_person_reason AS reason FROM loans WHERE id = $1',
      [b.data.id],
    );
    expect(reason!.reason).toMatchObject({ rule: 'staff_window', limitUsdtMinor: '10000000000', decidedAloneUsdtMinor: '6000000000' });
    expect((await decide(t.app, compliance2, b.data.id, 'approve')).data).toMatchObject({ status: 'passed', approvals: 2 });
    // The borrower side: a third loan to the first borrower, by the other member alone, passes their own 10,000 too.
    const c = await apply(t.app, first, productId, { amount: '6000', collateralAmount: '0.5' });
    expect((await decide(t.app, compliance2, c.data.id, 'approve')).data).toMatchObject({ status: 'pending', approvalsRequired: 2 });
    const decisions = await t.db.query<{ record: string; people: number; value: string }>(
      `SELECT record_id::text AS record, people, usdt_value_minor::text AS value FROM staff_money_decisions WHERE kind = 'loan.disburse' AND record_id = ANY($1::bigint[]) ORDER BY id`,
      [[a.data.id, b.data.id, c.data.id]],
    );
    expect(decisions).toEqual([
      { record: a.data.id, people: 1, value: '6000000000' },
      { record: b.data.id, people: 2, value: '6000000000' },
    ]);
    const [userRule] = await t.db.query<{ reason: { rule: string } }>('SELECT two_person_reason AS reason FROM loans WHERE id = $1', [c.data.id]);
    expect(userRule!.reason.rule).toBe('user_window');
    await expectLedgerWhole();
  });

  it('an approval the lending treasury cannot pay is refused whole; the application stays pending', async () => {
    nowMs += DAY_MS;
    await freshReviewers();
    await prices();
    const poorProduct = await addLoanProduct(t.db, loanTerms({ name: 'Big', maxAmountMinor: usdt('5000000') }));
    const user = await borrower(t.app, t.db, 'loanuser5', { BTC: '40' }, { advanced: true });
    // The lending treasury lent out all but 50 USDT (moved back to the platform treasury by an entry).
    const lent = (await lenderBalance(t.db)) - usdt('50');
    await moveLenderFunds(-lent);
    const applied = await apply(t.app, user, poorProduct, { amount: '9000', collateralAmount: '1' });
    expect(applied.code).toBe(200);
    const refused = await decide(t.app, compliance, applied.data.id, 'approve');
    expect(refused.msg).toBe('the lending account cannot fund this loan');
    expect((await detail(user.token, applied.data.id)).status).toBe('pending');
    const [reviews] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM loan_reviews WHERE loan_id = $1', [applied.data.id]);
    expect(reviews!.n).toBe(0);
    await moveLenderFunds(lent);
    expect((await decide(t.app, compliance, applied.data.id, 'approve')).data.status).toBe('passed');
  });
});

describe('refusals leave nothing behind', () => {
  it('the product’s range, the available credit, the pledge’s credit, an unverified borrower, a missing photo, a changed agreement', async () => {
    nowMs += DAY_MS;
    await freshReviewers();
    await prices();
    const user = await borrower(t.app, t.db, 'loanuser6', { BTC: '1' });
    const before = await coin(t.db, user.userId, 'BTC');
    expect((await apply(t.app, user, productId, { amount: '99.99' })).msg).toBe('loan amount wrong');
    // Tier 1 cap: 10,000.
    const overCap = await apply(t.app, user, productId, { amount: '10000.01' });
    expect(overCap).toMatchObject({ msg: 'loan quota insufficient', data: { available: '10000.000000' } });
    // 0.01 BTC at 60,000 × 65 % = 390.
    expect((await apply(t.app, user, productId, { amount: '391', collateralAmount: '0.01' })).data).toMatchObject({ pledgeCredit: '390.000000' });
    expect((await apply(t.app, user, productId, { amount: '100', collateralAmount: '2' })).msg).toBe('insufficient balance');
    expect((await apply(t.app, user, productId, { amount: '100', agreementVersion: 2 })).data).toMatchObject({ field: 'agreementVersion', expected: 1 });
    expect(await apply(t.app, { ...user, photo: '999999' }, productId, { amount: '100' })).toMatchObject({ msg: 'record does not exist', data: { field: 'holdingUploadId' } });
    expect((await apply(t.app, user, productId, { amount: '100', collateralAsset: 'DOGE' })).code).toBe(400);
    expect(await coin(t.db, user.userId, 'BTC')).toEqual(before);

    const unverified = await borrower(t.app, t.db, 'loanuser7', { BTC: '1' }, { verified: false });
    expect((await call(t.app, 'GET', '/home/loans/overview', unverified.token)).data.credit).toMatchObject({ tier: 0, available: '0.000000' });
    expect((await apply(t.app, unverified, productId, { amount: '100' })).msg).toBe('loan quota insufficient');
    const [none] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM loans WHERE user_id = ANY($1::bigint[])', [[user.userId, unverified.userId]]);
    expect(none!.n).toBe(0);
    await expectLedgerWhole();
  });

  it('a retry under the same key answers the first application', async () => {
    nowMs += DAY_MS;
    await freshReviewers();
    await prices();
    const user = await borrower(t.app, t.db, 'loanuser8', { BTC: '1' });
    const first = await apply(t.app, user, productId, { amount: '500', collateralAmount: '0.1' }, 'loan-retry-1');
    const again = await apply(t.app, user, productId, { amount: '500', collateralAmount: '0.1' }, 'loan-retry-1');
    expect(again.data.id).toBe(first.data.id);
    const [count] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM loans WHERE user_id = $1', [user.userId]);
    expect(count!.n).toBe(1);
  });
});

describe('liquidation, from recorded prices only', () => {
  it('unpaid at the due date: the collateral that covers the total due is sold at the recorded tick, the rest returned, once', async () => {
    nowMs += DAY_MS;
    await freshReviewers();
    await prices();
    const user = await borrower(t.app, t.db, 'loanuser9', { BTC: '1' });
    const applied = await apply(t.app, user, productId, { amount: '1000', collateralAmount: '0.05' });
    await decide(t.app, compliance, applied.data.id, 'approve');
    nowMs += 30 * DAY_MS;
    const [btcTick] = await prices('40000');
    expect((await sweep()).filter((each) => each.loanId.toString() === applied.data.id)).toEqual([
      { loanId: BigInt(applied.data.id), userId: BigInt(user.userId), status: 'liquidated', kind: 'due' },
    ]);
    const loan = await detail(user.token, applied.data.id);
    // 1,030 ÷ 40,000 = 0.02575 BTC sold; 0.02425 returned.
    expect(loan).toMatchObject({
      status: 'liquidated',
      liquidation: { kind: 'due', tickId: btcTick!.tickId.toString(), price: '40000.00000000', sold: '0.02575000', released: '0.02425000', repaid: '1030.000000', shortfall: '0.000000' },
    });
    expect(await coin(t.db, user.userId, 'BTC')).toEqual({ available: btc('0.97425'), frozen: 0n });
    // The lending treasury received the 1,030 in the loan's closing entry (other tests' loans fell due in the same sweep).
    const [toLender] = await t.db.query<{ amount_minor: string }>(
      `SELECT p.amount_minor FROM postings p JOIN ledger_accounts a ON a.id = p.account_id
        WHERE p.entry_id = $1 AND a.kind = 'treasury' AND a.label = 'lending'`,
      [loan.closeEntryId],
    );
    expect(BigInt(toLender!.amount_minor)).toBe(usdt('1030'));
    const [entry] = await t.db.query<{ memo: string }>('SELECT memo FROM journal_entries WHERE id = $1', [loan.closeEntryId]);
    expect(entry!.memo).toContain(`tick ${btcTick!.tickId}`);
    expect((await messagesOf(user.userId)).at(-1)?.body).toBe(
      `The loan was not repaid by its due date: 0.02575000 BTC was sold at 40000.00000000 USDT (tick ${btcTick!.tickId}) to repay 1030.000000 USDT; 0.02425000 BTC was returned to your coin account.`,
    );
    // Again: nothing more happens.
    expect((await sweep()).filter((each) => each.loanId.toString() === applied.data.id)).toEqual([]);
    expect((await call(t.app, 'GET', '/home/loans/overview', user.token)).data.credit).toMatchObject({ score: 540, history: { liquidatedAtDue: 1 } });
    await expectLedgerWhole();
  });

  it('before the due date: a margin call at the margin-call ratio, then the liquidation at the liquidation ratio', async () => {
    nowMs += DAY_MS;
    await freshReviewers();
    await prices('60000');
    const user = await borrower(t.app, t.db, 'loanuser10', { BTC: '1' });
    const applied = await apply(t.app, user, productId, { amount: '1950', collateralAmount: '0.05' });
    await decide(t.app, compliance, applied.data.id, 'approve');
    // Owed on day 1: 1,951.95. Margin call at LTV 80 %: 0.05 × price ≤ 2,439.94 → price ≤ 48,798.75.
    nowMs += 60_000;
    await prices('50000');
    expect((await sweep()).filter((each) => each.loanId.toString() === applied.data.id)).toEqual([]);
    nowMs += 60_000;
    const [callTick] = await prices('48000');
    expect((await sweep()).map((each) => each.kind)).toContain('margin_call');
    expect(await detail(user.token, applied.data.id)).toMatchObject({ status: 'passed', health: 'margin_call', marginCall: { tickId: callTick!.tickId.toString() } });
    // 1,951.95 ÷ (0.05 × 48,000) = 81.33125 % → 81.3313 rounded up.
    expect((await messagesOf(user.userId)).at(-1)?.body).toBe(
      `At BTC 48000.00000000 USDT (tick ${callTick!.tickId}) your loan-to-value is 81.3313 %. At 90.0000 % the collateral is sold at the recorded price to repay the loan. Repaying part of the loan lowers the ratio.`,
    );
    // Liquidation at 90 %: price ≤ 43,376.67.
    nowMs += 60_000;
    const [liquidationTick] = await prices('43000');
    const swept = await sweep();
    expect(swept.filter((each) => each.loanId.toString() === applied.data.id).map((each) => each.kind)).toEqual(['price']);
    const loan = await detail(user.token, applied.data.id);
    // 1,951.95 ÷ 43,000 = 0.04539418… → 0.04539419 sold.
    expect(loan).toMatchObject({
      status: 'liquidated',
      liquidation: { kind: 'price', tickId: liquidationTick!.tickId.toString(), sold: '0.04539419', released: '0.00460581', repaid: '1951.950000', shortfall: '0.000000' },
    });
    await expectLedgerWhole();
  });

  it('collateral worth less than what is owed is sold whole; the shortfall is the lender’s loss, not the borrower’s debt', async () => {
    nowMs += DAY_MS;
    await freshReviewers();
    await prices('60000', '3000');
    const user = await borrower(t.app, t.db, 'loanuser11', { ETH: '1' });
    const applied = await apply(t.app, user, productId, { amount: '1800', collateralAsset: 'ETH', collateralAmount: '1' });
    await decide(t.app, compliance, applied.data.id, 'approve');
    // ETH gaps from 3,000 to 1,500 between two ticks: worth 1,500 against 1,801.80 owed.
    nowMs += 60_000;
    await prices('60000', '1500');
    await sweep();
    expect((await detail(user.token, applied.data.id)).liquidation).toMatchObject({ kind: 'price', sold: '1.000000000000000000', repaid: '1500.000000', shortfall: '301.800000' });
    expect(await coin(t.db, user.userId, 'ETH')).toEqual({ available: 0n, frozen: 0n });
    expect(await coin(t.db, user.userId, 'USDT')).toMatchObject({ available: usdt('1800') });
    expect((await call(t.app, 'GET', '/home/loans/overview', user.token)).data.credit.committed).toBe('0.000000');
    await expectLedgerWhole();
  });

  it('no recent recorded price: nothing is liquidated, and an application is refused with "market price unavailable"', async () => {
    nowMs += DAY_MS;
    await freshReviewers();
    await prices();
    const user = await borrower(t.app, t.db, 'loanuser12', { BTC: '1' });
    const applied = await apply(t.app, user, productId, { amount: '500', collateralAmount: '0.1' });
    await decide(t.app, compliance, applied.data.id, 'approve');
    nowMs += 31 * DAY_MS;
    expect((await sweep()).filter((each) => each.loanId.toString() === applied.data.id)).toEqual([]);
    expect((await detail(user.token, applied.data.id)).status).toBe('passed');
    expect((await apply(t.app, user, productId, { amount: '500', collateralAmount: '0.1' })).msg).toBe('market price unavailable');
    await prices();
    await sweep();
    expect((await detail(user.token, applied.data.id)).status).toBe('liquidated');
  });
});

describe('racing applications', () => {
  it('30 applications of 1,000 at once against 10,000 of credit: exactly 10 pass', async () => {
    nowMs += DAY_MS;
    await freshReviewers();
    await prices();
    const user = await borrower(t.app, t.db, 'loanrace1', { BTC: '5' });
    const answers = await Promise.all(Array.from({ length: 30 }, () => apply(t.app, user, productId, { amount: '1000', collateralAmount: '0.05' })));
    expect(answers.filter((each) => each.code === 200)).toHaveLength(10);
    expect(answers.filter((each) => each.code !== 200).map((each) => each.msg)).toEqual(Array(20).fill('loan quota insufficient'));
    expect(await coin(t.db, user.userId, 'BTC')).toEqual({ available: btc('4.5'), frozen: btc('0.5') });
    expect((await call(t.app, 'GET', '/home/loans/overview', user.token)).data.credit).toMatchObject({ committed: '10000.000000', available: '0.000000' });
    await expectLedgerWhole();
  });
});
