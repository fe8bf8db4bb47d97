import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferPostings } from '@keel/domain';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { ensureUserAccount, postEntry } from '../../../src/persistence/ledger.store.ts';
import type { EventBus } from '../../../src/realtime/event-bus.ts';
import { sweepFund } from '../../../src/use-cases/fund/fund-jobs.ts';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call, walletUser } from '../../helpers/wallet.ts';
import { btc, coin, usdt } from '../loans/loans-helpers.ts';
import { fundBorrower, invest, investor, publish, review } from './fund-helpers.ts';

// The fund section (issue 18): a request published, reviewed, filled by three investors, released
// in two tranches and repaid pro rata at term, with the clock moved; one that never fills refunds
// everyone; one whose borrower cannot pay defaults and its collateral is sold at a recorded tick and
// paid out pro rata; refusals leave nothing behind; racing investments never overfill a request.

const DAY_MS = 86_400_000;
let t: TestApp;
let nowMs = Date.UTC(2026, 11, 1, 10, 0, 0);
let compliance: string;
let reviewers = 0;

const published: unknown[] = [];
const events = { publish: async (_channel: string, event: unknown) => void published.push(event) } as unknown as EventBus;
const sweep = () => sweepFund({ db: t.db, now: () => new Date(nowMs), market: t.market!.service, config: t.config, events, logger: t.app.log });
const expectLedgerWhole = async () => expect((await checkLedger(t.db)).problems).toEqual([]);
const request = async (token: string, id: string) => {
  const answer = await call(t.app, 'GET', `/home/fund/requests/${id}`, token);
  if (answer.code !== 200) throw new Error(`request ${id}: ${JSON.stringify(answer)}`);
  return answer.data;
};
/** The titles of a user's system messages, oldest first (they are written in the step's transaction). */
const messageTitles = async (userId: string) =>
  (await t.db.query<{ title: string }>('SELECT title FROM messages WHERE user_id = $1 ORDER BY id', [userId])).map((row) => row.title);
const lastMessage = async (userId: string) => {
  const [row] = await t.db.query<{ title: string; body: string }>('SELECT title, body FROM messages WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [userId]);
  return row!;
};
async function prices(btcPrice = '30000') {
  const ticks = await t.market!.record([
    { symbol: 'BTC/USDT', price: btcPrice, atMs: nowMs },
    { symbol: 'ETH/USDT', price: '2000', atMs: nowMs },
  ]);
  await expect.poll(() => t.market!.service.latest('BTC/USDT')?.tickId).toBe(ticks[0]!.tickId);
  return ticks;
}
/** A compliance member logged in at the test's clock (staff sessions last hours; the tests move days). */
async function reviewer() {
  reviewers += 1;
  compliance = await createStaff(t.app, t.db, `fundcompliance${reviewers}`, ['compliance']);
  return compliance;
}

beforeAll(async () => {
  t = await createTestApp({ SESSION_TTL_HOURS: String(24 * 90) }, { now: () => new Date(nowMs), market: true });
});
afterAll(() => t?.close());

describe('published, reviewed, filled, released in two steps, repaid to three investors', () => {
  it('moves every amount by journal entries, pro rata and exact', async () => {
    await prices();
    const borrower = await fundBorrower(t.app, t.db, 'fundborrower1', { BTC: '1', USDT: '150' });
    const overview = (await call(t.app, 'GET', '/home/fund/overview', borrower.token)).data;
    expect(overview).toMatchObject({ tier: 2, mayPublish: true, policy: { collateralLtvPercent: { BTC: '65.0000' } } });

    const made = await publish(t.app, borrower);
    expect(made.code).toBe(200);
    expect(made.data).toMatchObject({
      status: 'review',
      amount: '10000.000000',
      interest: '150.000000',
      totalDue: '10150.000000',
      // 1 BTC at 30,000 × 65 %.
      creditLimit: '19500.000000',
      creditRating: 'C',
      creditScore: 600,
      // 30,000 ÷ 10,150 = 295.5665 %.
      collateralCoverPercent: '295.5665',
      investmentRating: 'A',
      mine: true,
    });
    expect(made.data.requestNo).toMatch(/^F20261201\d{8}$/);
    expect(await coin(t.db, borrower.userId, 'BTC')).toMatchObject({ available: 0n, frozen: btc('1') });

    // Not in the pool before review: another user is told nothing of it.
    const alice = await investor(t.app, t.db, 'fundinvestor1');
    expect((await call(t.app, 'GET', `/home/fund/requests/${made.data.id}`, alice.token)).msg).toBe('record does not exist');
    expect((await invest(t.app, alice, made.data.id, '100')).msg).toBe('record does not exist');

    const approved = await review(t.app, await reviewer(), made.data.id, 'approve');
    expect(approved.data).toMatchObject({ status: 'open', openedAtMs: nowMs, windowEndsAtMs: nowMs + 72 * 3_600_000 });
    expect(await lastMessage(borrower.userId)).toEqual({
      title: `Funding request ${made.data.requestNo} is open to investors`,
      body: `Your funding request ${made.data.requestNo} for 10000.000000 USDT was approved and is in the pool until 2026-12-04 10:00 (UTC). If it is not filled by then, your collateral returns in full.`,
    });
    const bob = await investor(t.app, t.db, 'fundinvestor2');
    const carol = await investor(t.app, t.db, 'fundinvestor3');
    expect((await call(t.app, 'GET', '/home/fund/pool', alice.token)).data.items.map((each: { id: string }) => each.id)).toContain(made.data.id);

    const first = await invest(t.app, alice, made.data.id, '5000');
    expect(first.data).toMatchObject({ status: 'held', amount: '5000.000000', requestStatus: 'open', expectedReturn: '5075.000000' });
    expect(await coin(t.db, alice.userId, 'USDT')).toMatchObject({ available: usdt('5000'), frozen: usdt('5000') });
    expect((await invest(t.app, bob, made.data.id, '5000.01')).data).toMatchObject({ max: '5000.000000' });
    await invest(t.app, bob, made.data.id, '3000');
    const last = await invest(t.app, carol, made.data.id, '2000');
    expect(last.data).toMatchObject({ status: 'invested', requestStatus: 'funded' });
    expect(await coin(t.db, alice.userId, 'USDT')).toMatchObject({ available: usdt('5000'), frozen: 0n });
    expect((await invest(t.app, carol, made.data.id, '10')).msg).toBe('the request is not open for investment');
    // The fill tells the borrower and each investor, with their own amount.
    expect((await lastMessage(borrower.userId)).body).toBe(
      `3 investors funded your request ${made.data.requestNo} with 10000.000000 USDT. It is paid to you in 2 tranches; 10150.000000 USDT is due on 2026-12-31 10:00 (UTC) from your coin account.`,
    );
    expect(await lastMessage(bob.userId)).toMatchObject({ title: `Your investment in ${made.data.requestNo} is invested` });
    expect((await lastMessage(bob.userId)).body).toContain('your 3000.000000 USDT left your coin account');

    // The job releases the first tranche at once, the second ten days later.
    await sweep();
    expect(await coin(t.db, borrower.userId, 'USDT')).toMatchObject({ available: usdt('5150') });
    let view = await request(borrower.token, made.data.id);
    expect(view).toMatchObject({ status: 'funded', released: '5000.000000', filledAtMs: nowMs, dueAtMs: nowMs + 30 * DAY_MS });
    expect(view.schedule.map((each: { releasedAtMs: number | null }) => each.releasedAtMs)).toEqual([nowMs, null]);
    nowMs += 10 * DAY_MS;
    await sweep();
    expect(await coin(t.db, borrower.userId, 'USDT')).toMatchObject({ available: usdt('10150') });
    expect((await sweep()).length).toBe(0);
    expect((await messageTitles(borrower.userId)).filter((title) => title.startsWith('Tranche'))).toEqual([
      'Tranche 1 of 2 released: 5000.000000 USDT',
      'Tranche 2 of 2 released: 5000.000000 USDT',
    ]);

    // At term: 10,150 to the investors, 5,000 : 3,000 : 2,000.
    nowMs += 20 * DAY_MS;
    await prices();
    const settled = await sweep();
    expect(settled.map((each) => each.kind)).toEqual(['repaid']);
    view = await request(borrower.token, made.data.id);
    expect(view).toMatchObject({ status: 'repaid', settlement: { kind: 'repaid', paidOut: '10150.000000' } });
    expect(await coin(t.db, borrower.userId, 'USDT')).toMatchObject({ available: 0n });
    expect(await coin(t.db, borrower.userId, 'BTC')).toMatchObject({ available: btc('1'), frozen: 0n });
    expect((await coin(t.db, alice.userId, 'USDT')).available).toBe(usdt('10075'));
    expect((await coin(t.db, bob.userId, 'USDT')).available).toBe(usdt('10045'));
    expect((await coin(t.db, carol.userId, 'USDT')).available).toBe(usdt('10030'));
    const mine = (await call(t.app, 'GET', '/home/fund/investments', bob.token)).data.items;
    expect(mine).toMatchObject([{ status: 'invested', requestStatus: 'repaid', paid: '3045.000000' }]);
    expect((await lastMessage(bob.userId)).title).toBe(`3045.000000 USDT paid from ${made.data.requestNo}`);
    expect((await lastMessage(borrower.userId)).title).toBe(`Funding request ${made.data.requestNo} repaid`);
    // Once each: a second sweep tells nobody again.
    expect((await messageTitles(alice.userId)).filter((title) => title.includes('paid from'))).toEqual([`5075.000000 USDT paid from ${made.data.requestNo}`]);
    expect((await sweep()).length).toBe(0);
    await expectLedgerWhole();
  });
});

describe('a request that never fills', () => {
  it('refunds every investment and the collateral when its window ends, once', async () => {
    nowMs += DAY_MS;
    await prices();
    const borrower = await fundBorrower(t.app, t.db, 'fundborrower2');
    const made = await publish(t.app, borrower, { windowHours: 24 });
    await review(t.app, await reviewer(), made.data.id, 'approve');
    const dave = await investor(t.app, t.db, 'fundinvestor4');
    const erin = await investor(t.app, t.db, 'fundinvestor5');
    await invest(t.app, dave, made.data.id, '2500');
    await invest(t.app, erin, made.data.id, '1000');
    nowMs += 24 * 3_600_000 - 1;
    expect(await sweep()).toEqual([]);
    nowMs += 1;
    expect((await invest(t.app, erin, made.data.id, '10')).msg).toBe('the request is not open for investment');
    expect((await sweep()).map((each) => each.kind)).toEqual(['refunded']);
    expect(await request(borrower.token, made.data.id)).toMatchObject({ status: 'expired', settlement: { kind: 'refunded', paidOut: '3500.000000' } });
    expect(await coin(t.db, dave.userId, 'USDT')).toMatchObject({ available: usdt('10000'), frozen: 0n });
    expect(await coin(t.db, erin.userId, 'USDT')).toMatchObject({ available: usdt('10000'), frozen: 0n });
    expect(await coin(t.db, borrower.userId, 'BTC')).toMatchObject({ available: btc('1'), frozen: 0n });
    expect((await call(t.app, 'GET', '/home/fund/investments', dave.token)).data.items).toMatchObject([{ status: 'refunded', paid: '2500.000000' }]);
    expect((await lastMessage(dave.userId)).title).toBe(`2500.000000 USDT returned from ${made.data.requestNo}`);
    expect((await lastMessage(borrower.userId)).title).toBe(`Funding request ${made.data.requestNo} was not filled`);
    expect(await sweep()).toEqual([]);
    await expectLedgerWhole();
  });
});

describe('a borrower who cannot pay at term', () => {
  it('defaults: the collateral covering the total due is sold at the recorded tick and paid out pro rata, the rest returned', async () => {
    nowMs += DAY_MS;
    await prices('30000');
    const borrower = await fundBorrower(t.app, t.db, 'fundborrower3', { BTC: '1' });
    // 1,000 at 0.1 % for 10 days: 1,010 due; one tranche.
    const made = await publish(t.app, borrower, { amount: '1000', dailyRatePercent: '0.1', termDays: 10, tranches: 1, releasePeriodDays: 0 });
    await review(t.app, await reviewer(), made.data.id, 'approve');
    const investors = [await investor(t.app, t.db, 'fundinvestor6'), await investor(t.app, t.db, 'fundinvestor7'), await investor(t.app, t.db, 'fundinvestor8')];
    // Awkward shares: 333.33, 333.33, 333.34.
    await invest(t.app, investors[0]!, made.data.id, '333.33');
    await invest(t.app, investors[1]!, made.data.id, '333.33');
    await invest(t.app, investors[2]!, made.data.id, '333.34');
    await sweep();
    // The borrower pays the money away (an entry to another user): nothing left at term.
    const spent = await walletUser(t.app, t.db, 'fundsink1');
    await t.db.transaction(async (tx) => {
      const from = await ensureUserAccount(tx, BigInt(borrower.userId), 'coin', 'USDT');
      const to = await ensureUserAccount(tx, BigInt(spent.userId), 'coin', 'USDT');
      await postEntry(tx, { reason: 'demo.fund', postings: transferPostings(from, to, 'USDT', usdt('1000')), at: new Date(nowMs) });
    });
    nowMs += 10 * DAY_MS;
    const [tick] = await prices('40000');
    expect((await sweep()).map((each) => each.kind)).toEqual(['defaulted']);
    const view = await request(borrower.token, made.data.id);
    // 1,010 ÷ 40,000 = 0.02525 BTC sold; 1,010 paid out 333.33 : 333.33 : 333.34.
    expect(view).toMatchObject({
      status: 'defaulted',
      settlement: { kind: 'defaulted', paidOut: '1010.000000', tickId: tick!.tickId.toString(), price: '40000.00000000', sold: '0.02525000', shortfall: '0.000000' },
    });
    const paid = await Promise.all(investors.map(async (each) => (await call(t.app, 'GET', '/home/fund/investments', each.token)).data.items[0].paid));
    // 1,010 × 333.33 ÷ 1,000 = 336.6633 each for the first two; the last takes the remainder, 336.6734.
    expect(paid).toEqual(['336.663300', '336.663300', '336.673400']);
    expect(await coin(t.db, borrower.userId, 'BTC')).toMatchObject({ available: btc('0.97475'), frozen: 0n });
    expect((await lastMessage(borrower.userId)).body).toContain('so 0.02525000 BTC of your collateral was sold at the recorded price of 40000.00000000');
    expect((await lastMessage(investors[2]!.userId)).title).toBe(`336.673400 USDT recovered from ${made.data.requestNo}`);
    await expectLedgerWhole();
  });
});

describe('refusals and review', () => {
  it('advanced verification, the credit limit, one’s own request, terms, a rejection returning the pledge', async () => {
    nowMs += DAY_MS;
    await prices('30000');
    const basic = await investor(t.app, t.db, 'fundbasic1');
    expect((await publish(t.app, basic)).msg).toBe('advanced verification required');
    const borrower = await fundBorrower(t.app, t.db, 'fundborrower4', { BTC: '1' });
    expect((await publish(t.app, borrower, { amount: '19500.01' })).msg).toBe('loan quota insufficient');
    expect((await publish(t.app, borrower, { tranches: 4, releasePeriodDays: 10 })).data).toMatchObject({ field: 'terms', problem: 'schedule' });
    expect((await publish(t.app, borrower, { collateralAmount: '2' })).msg).toBe('insufficient balance');
    expect(await coin(t.db, borrower.userId, 'BTC')).toMatchObject({ available: btc('1'), frozen: 0n });

    const made = await publish(t.app, borrower, { amount: '1000' });
    expect((await review(t.app, await reviewer(), made.data.id, 'reject')).code).toBe(400);
    const rejected = await review(t.app, compliance, made.data.id, 'reject', 'The purpose is not described.');
    expect(rejected.data).toMatchObject({ status: 'rejected', rejectReason: 'The purpose is not described.' });
    expect((await lastMessage(borrower.userId)).body).toContain('Reason: The purpose is not described.');
    expect(await coin(t.db, borrower.userId, 'BTC')).toMatchObject({ available: btc('1'), frozen: 0n });
    expect((await review(t.app, compliance, made.data.id, 'approve')).msg).toBe('no longer pending review');

    const open = await publish(t.app, borrower, { amount: '1000' });
    await review(t.app, compliance, open.data.id, 'approve');
    expect((await invest(t.app, borrower, open.data.id, '100')).msg).toBe("cannot invest in one's own request");
    const small = await investor(t.app, t.db, 'fundsmall1');
    expect((await invest(t.app, small, open.data.id, '9.99')).msg).toBe('amount out of range');
    expect((await invest(t.app, small, open.data.id, '20000')).msg).toBe('amount out of range');
    const retried = await invest(t.app, small, open.data.id, '100', 'fund-retry-1');
    expect((await invest(t.app, small, open.data.id, '100', 'fund-retry-1')).data.id).toBe(retried.data.id);
    expect((await request(small.token, open.data.id)).raised).toBe('100.000000');
    await expectLedgerWhole();
  });
});

describe('racing investments', () => {
  it('30 investments of 1,000 at once into a request of 10,000: exactly 10 pass and it is filled exactly', async () => {
    nowMs += DAY_MS;
    await prices('30000');
    const borrower = await fundBorrower(t.app, t.db, 'fundborrower5', { BTC: '1' });
    const made = await publish(t.app, borrower);
    await review(t.app, await reviewer(), made.data.id, 'approve');
    const crowd = await Promise.all(Array.from({ length: 6 }, (_, index) => investor(t.app, t.db, `fundrace${index}`, '10000')));
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => invest(t.app, crowd[index % 6]!, made.data.id, '1000')));
    expect(answers.filter((each) => each.code === 200)).toHaveLength(10);
    expect(new Set(answers.filter((each) => each.code !== 200).map((each) => each.msg))).toEqual(new Set(['the request is not open for investment']));
    expect(await request(borrower.token, made.data.id)).toMatchObject({ status: 'funded', raised: '10000.000000', remaining: '0.000000', investors: 10 });
    await expectLedgerWhole();
  });
});
