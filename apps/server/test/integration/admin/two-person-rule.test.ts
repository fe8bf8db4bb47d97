import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { escrowMismatches, fiatBalance, postAd, trader } from '../../helpers/p2p.ts';
import { createStaff, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { bindAddress, call, coinBalance, TEST_XPUB, walletUser, type WalletUser } from '../../helpers/wallet.ts';

// Issue 13, defect 3 (ADR 0022): one person could move unlimited money — one finance member
// credited 3 × 9,999 USDT of user-reported deposits alone (the two-person rule was per record,
// above 10,000), one support member released 5,000 USDT of P2P escrow on an appeal alone. The
// two-person rule is now cumulative and shared by every staff decision that moves money: a
// second, different member is needed when the record alone is above its threshold, when what this
// member decided alone within the window plus this one would pass the per-staff limit, or when
// what reached or left the user through one-person decisions within the window plus this one would
// pass the per-user limit. These run with the published defaults: 10,000 USDT per record (1,000 for
// an appeal), 10,000 USDT per staff member and per user, over 24 hours.

const USDT = 1_000_000n;
const HOUR_MS = 3_600_000;

let t: TestApp;
let clockMs = Date.now();
let counter = 0;

const hours = (count: number) => {
  clockMs += count * HOUR_MS;
};
const name = (prefix: string) => {
  counter += 1;
  return `${prefix}${counter}x${Date.now().toString(36)}`.slice(0, 30);
};
const tronTx = () => {
  counter += 1;
  return counter.toString(16).padStart(64, 'c');
};

beforeAll(async () => {
  // Staff sessions last 72 h here, so the members outlive the moves of the clock past the window.
  t = await createTestApp({ DEPOSIT_XPUB_TRON: TEST_XPUB, STAFF_SESSION_TTL_HOURS: '72', WITHDRAWAL_DAILY_COUNT: '100' }, { now: () => new Date(clockMs) });
});
afterAll(() => t.close());
// Each test starts outside every earlier test's window.
beforeEach(() => hours(25));

const finance = () => createStaff(t.app, t.db, name('fin'), ['finance']);
const support = () => createStaff(t.app, t.db, name('sup'), ['support']);

async function reportedDeposit(user: WalletUser, amount: string) {
  const answer = await call(t.app, 'POST', '/home/wallet/deposits', user.token, { channel: 'USDT-TRC20', amount, txHash: tronTx() });
  if (answer.code !== 200) throw new Error(`deposit: ${answer.msg}`);
  return answer.data.id as string;
}

const approveDeposit = (staff: string, depositId: string) => call(t.app, 'POST', `/home/admin/deposits/${depositId}/decision`, staff, { decision: 'approve' });

async function usdt(user: WalletUser) {
  return (await coinBalance(t.db, user.userId, 'USDT')).availableMinor;
}

describe('the attack of the issue: 3 × 9,999 USDT of deposits credited by one finance member', () => {
  it('the one that would pass 10,000 USDT decided alone within 24 h is only a first approval; a second member credits it', async () => {
    const alice = await finance();
    const bob = await finance();
    const user = await walletUser(t.app, t.db, name('victim'));
    const ids = [await reportedDeposit(user, '9999'), await reportedDeposit(user, '9999'), await reportedDeposit(user, '9999')];

    const first = await approveDeposit(alice, ids[0]!);
    expect(first.data).toMatchObject({ status: 'approved', approvalsRequired: 1, twoPersonReason: null });
    const second = await approveDeposit(alice, ids[1]!);
    // Recorded as the first of two approvals; nothing credited; the answer names the rule and the numbers.
    expect(second.code).toBe(200);
    expect(second.data).toMatchObject({
      status: 'pending',
      approvalsRequired: 2,
      firstApproval: { staff: expect.stringMatching(/^fin/) },
      twoPersonReason: { rule: 'staff_window', limitUsdt: '10000.000000', decidedAloneUsdt: '9999.000000', valueUsdt: '9999.000000', windowHours: 24 },
    });
    const third = await approveDeposit(alice, ids[2]!);
    expect(third.data).toMatchObject({ status: 'pending', approvalsRequired: 2, twoPersonReason: { rule: 'staff_window' } });
    expect(await usdt(user)).toBe(9_999n * USDT);
    // The same member can never be both people.
    expect((await approveDeposit(alice, ids[1]!)).msg).toBe('a second staff member must approve');

    const checked = await approveDeposit(bob, ids[1]!);
    expect(checked.data).toMatchObject({ status: 'approved', approvalsRequired: 2 });
    expect(await usdt(user)).toBe(19_998n * USDT);
    // Every staff money decision is recorded: who, for which user, what, its USDT value, one or two people, when.
    const decisions = await t.db.query<{ kind: string; record_id: string; people: number; usdt_value_minor: string; staff: string; first: string | null }>(
      `SELECT d.kind, d.record_id::text, d.people, d.usdt_value_minor::text, s.username AS staff, f.username AS first
         FROM staff_money_decisions d JOIN staff s ON s.id = d.staff_id LEFT JOIN staff f ON f.id = d.first_staff_id
        WHERE d.user_id = $1 ORDER BY d.id`,
      [user.userId],
    );
    expect(decisions).toEqual([
      { kind: 'deposit.credit', record_id: ids[0], people: 1, usdt_value_minor: (9_999n * USDT).toString(), staff: first.data.decidedBy, first: null },
      { kind: 'deposit.credit', record_id: ids[1], people: 2, usdt_value_minor: (9_999n * USDT).toString(), staff: checked.data.decidedBy, first: first.data.decidedBy },
    ]);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('the per-staff limit counts across users: 9,999 USDT for one user, then 9,999 for another, needs a second member', async () => {
    const alice = await finance();
    const [one, two] = [await walletUser(t.app, t.db, name('u')), await walletUser(t.app, t.db, name('u'))];
    expect((await approveDeposit(alice, await reportedDeposit(one, '9999'))).data.status).toBe('approved');
    const other = await approveDeposit(alice, await reportedDeposit(two, '9999'));
    expect(other.data).toMatchObject({ status: 'pending', twoPersonReason: { rule: 'staff_window', decidedAloneUsdt: '9999.000000' } });
    expect(await usdt(two)).toBe(0n);
  });

  it('the per-user limit counts across staff members: two members each deciding alone cannot pass 10,000 USDT for one user', async () => {
    const [alice, bob, carol] = [await finance(), await finance(), await finance()];
    const user = await walletUser(t.app, t.db, name('mule'));
    expect((await approveDeposit(alice, await reportedDeposit(user, '6000'))).data.status).toBe('approved');
    const depositId = await reportedDeposit(user, '6000');
    const byBob = await approveDeposit(bob, depositId);
    expect(byBob.data).toMatchObject({
      status: 'pending',
      approvalsRequired: 2,
      twoPersonReason: { rule: 'user_window', limitUsdt: '10000.000000', decidedAloneUsdt: '6000.000000', valueUsdt: '6000.000000', windowHours: 24 },
    });
    expect(await usdt(user)).toBe(6_000n * USDT);
    // Two people decided it: it does not count toward anyone's one-person sums.
    expect((await approveDeposit(carol, depositId)).data.status).toBe('approved');
    expect(await usdt(user)).toBe(12_000n * USDT);
    expect((await approveDeposit(carol, await reportedDeposit(await walletUser(t.app, t.db, name('u')), '9000'))).data.status).toBe('approved');
  });

  it('the window rolls: what was decided alone 24 hours ago no longer counts', async () => {
    const alice = await finance();
    const user = await walletUser(t.app, t.db, name('u'));
    expect((await approveDeposit(alice, await reportedDeposit(user, '9999'))).data.status).toBe('approved');
    hours(23.9);
    const late = await approveDeposit(alice, await reportedDeposit(await walletUser(t.app, t.db, name('u')), '2'));
    expect(late.data).toMatchObject({ status: 'pending', twoPersonReason: { rule: 'staff_window', decidedAloneUsdt: '9999.000000' } });
    hours(0.1);
    const later = await walletUser(t.app, t.db, name('u'));
    expect((await approveDeposit(alice, await reportedDeposit(later, '9999'))).data.status).toBe('approved');
    expect(await usdt(later)).toBe(9_999n * USDT);
  });

  it('a record above 10,000 USDT still needs two members, and says so by the record rule', async () => {
    const [alice, bob] = [await finance(), await finance()];
    const user = await walletUser(t.app, t.db, name('u'));
    const depositId = await reportedDeposit(user, '10000.01');
    const queued = await call(t.app, 'GET', `/home/admin/deposits/${depositId}`, alice);
    expect(queued.data).toMatchObject({ approvalsRequired: 2, twoPersonReason: { rule: 'record', limitUsdt: '10000.000000', valueUsdt: '10000.010000' } });
    expect((await approveDeposit(alice, depositId)).data.status).toBe('pending');
    expect((await approveDeposit(bob, depositId)).data.status).toBe('approved');
  });
});

describe('withdrawals share the sums', () => {
  it('a withdrawal approved alone counts with the deposits credited alone for the same user', async () => {
    const [alice, bob] = [await finance(), await finance()];
    const user = await walletUser(t.app, t.db, name('wd'), { ready: true });
    expect((await approveDeposit(alice, await reportedDeposit(user, '6000'))).data.status).toBe('approved');
    const addressId = await bindAddress(t.app, t.db, user, 'tron', { usableNow: true });
    const requested = await call(t.app, 'POST', '/home/wallet/withdrawals', user.token, { channel: 'USDT-TRC20', addressId, amount: '5000', paymentPassword: '135790' });
    expect(requested.data).toMatchObject({ status: 'pending', approvalsRequired: 1 });
    const byBob = await call(t.app, 'POST', `/home/admin/withdrawals/${requested.data.id}/decision`, bob, { decision: 'approve' });
    expect(byBob.data).toMatchObject({ status: 'pending', approvalsRequired: 2, twoPersonReason: { rule: 'user_window', decidedAloneUsdt: '6000.000000', valueUsdt: '5000.000000' } });
    // The user sees that a second approval is now needed.
    expect((await call(t.app, 'GET', `/home/wallet/withdrawals/${requested.data.id}`, user.token)).data).toMatchObject({ approvalsRequired: 2, approvals: 1 });
    expect((await call(t.app, 'POST', `/home/admin/withdrawals/${requested.data.id}/decision`, bob, { decision: 'approve' })).msg).toBe(
      'a second staff member must approve',
    );
    const byAlice = await call(t.app, 'POST', `/home/admin/withdrawals/${requested.data.id}/decision`, alice, { decision: 'approve' });
    expect(byAlice.data).toMatchObject({ status: 'approved', approvals: 2 });
  });
});

describe('appeals', () => {
  /** A paid order of `quantity` USDT under appeal (opened by the buyer after the window). */
  async function appealedOrder(quantity: string) {
    const seller = await trader(t.app, t.db, name('sel'), quantity);
    const buyer = await trader(t.app, t.db, name('buy'));
    const ad = await postAd(t.app, seller, quantity, { min: '10', max: quantity });
    const placed = await call(t.app, 'POST', '/home/p2p/orders', buyer.token, { adId: ad.id, quantity });
    if (placed.code !== 200) throw new Error(`order: ${placed.msg} ${JSON.stringify(placed.data)}`);
    await call(t.app, 'POST', `/home/p2p/orders/${placed.data.id}/paid`, buyer.token);
    hours(0.5);
    const appealed = await call(t.app, 'POST', `/home/p2p/orders/${placed.data.id}/appeal`, buyer.token, { reason: 'The seller does not release' });
    if (appealed.code !== 200) throw new Error(`appeal: ${appealed.msg}`);
    return { seller, buyer, orderId: placed.data.id as string };
  }

  const resolve = (staff: string, orderId: string, outcome: 'release' | 'refund', note = 'Bank statement checked') =>
    call(t.app, 'POST', `/home/admin/p2p/appeals/${orderId}/resolve`, staff, { outcome, note });

  it('the attack of the issue: a 5,000 USDT release by one support member is a proposal until a second member confirms it', async () => {
    const [sam, tess] = [await support(), await support()];
    const { buyer, seller, orderId } = await appealedOrder('5000');
    const proposed = await resolve(sam, orderId, 'release', 'Bank statement shows the payment');
    expect(proposed.code).toBe(200);
    expect(proposed.data).toMatchObject({
      resolution: null,
      order: { status: 'appealing' },
      proposal: { outcome: 'release', note: 'Bank statement shows the payment', staff: expect.stringMatching(/^sup/), at: new Date(clockMs).toISOString() },
      twoPersonReason: { rule: 'record', limitUsdt: '1000.000000', valueUsdt: '5000.000000', windowHours: 24 },
    });
    expect(await fiatBalance(t.db, buyer.userId)).toEqual({ availableMinor: 0n, frozenMinor: 0n });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 0n, frozenMinor: 5_000n * USDT });
    expect((await resolve(sam, orderId, 'release')).msg).toBe('a second staff member must approve');

    const confirmed = await resolve(tess, orderId, 'release', 'Agreed: the statement shows it');
    expect(confirmed.data).toMatchObject({ resolution: 'release', order: { status: 'released' }, proposal: { outcome: 'release', staff: proposed.data.proposal.staff } });
    expect(confirmed.data.resolvedBy).not.toBe(proposed.data.proposal.staff);
    expect(await fiatBalance(t.db, buyer.userId)).toEqual({ availableMinor: 4_995n * USDT, frozenMinor: 0n });
    const [decision] = await t.db.query<{ kind: string; people: number; usdt_value_minor: string; user_id: string }>(
      `SELECT kind, people, usdt_value_minor::text, user_id::text FROM staff_money_decisions WHERE kind LIKE 'p2p.%' AND record_id = $1`,
      [orderId],
    );
    expect(decision).toEqual({ kind: 'p2p.release', people: 2, usdt_value_minor: (5_000n * USDT).toString(), user_id: buyer.userId });
    const actions = await t.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_type = 'p2p_order' AND target_id = $1 ORDER BY id`, [orderId]);
    expect(actions.map((row) => row.action)).toEqual(['p2p.appeal.propose_release', 'p2p.appeal.release']);
    expect(await escrowMismatches(t.db)).toEqual([]);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('a disagreement moves no money: the other outcome replaces the proposal and needs yet another member', async () => {
    const [sam, tess] = [await support(), await support()];
    const { buyer, seller, orderId } = await appealedOrder('2000');
    await resolve(sam, orderId, 'release');
    const replaced = await resolve(tess, orderId, 'refund', 'No proof of payment in the chat');
    expect(replaced.data).toMatchObject({ resolution: null, proposal: { outcome: 'refund', note: 'No proof of payment in the chat' }, order: { status: 'appealing' } });
    expect(replaced.data.proposal.staff).not.toBe((await call(t.app, 'GET', '/home/admin/me', sam)).data.username);
    expect((await resolve(tess, orderId, 'refund')).msg).toBe('a second staff member must approve');
    expect(await fiatBalance(t.db, buyer.userId)).toEqual({ availableMinor: 0n, frozenMinor: 0n });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 0n, frozenMinor: 2_000n * USDT });
    // Sam, who proposed the release, may agree to the refund: two different members then agree.
    const refunded = await resolve(sam, orderId, 'refund', 'Agreed after reading the chat');
    expect(refunded.data).toMatchObject({ resolution: 'refund', order: { status: 'refunded' } });
    expect(await fiatBalance(t.db, seller.userId)).toEqual({ availableMinor: 2_000n * USDT, frozenMinor: 0n });
  });

  it('below 1,000 USDT one member resolves it, and it counts toward the member’s and the user’s sums', async () => {
    const sam = await support();
    const { buyer, orderId } = await appealedOrder('900');
    expect((await resolve(sam, orderId, 'release')).data).toMatchObject({ resolution: 'release', proposal: null, twoPersonReason: null });
    expect((await fiatBalance(t.db, buyer.userId)).availableMinor).toBe(899_100_000n);
    const [decision] = await t.db.query<{ people: number }>(`SELECT people FROM staff_money_decisions WHERE kind = 'p2p.release' AND record_id = $1`, [orderId]);
    expect(decision).toEqual({ people: 1 });
  });
});

describe('concurrent decisions', () => {
  it('members approving at the same moment cannot together pass a limit alone', async () => {
    for (let round = 0; round < 3; round += 1) {
      // Per user: four members, four deposits of 3,000 USDT of one user at once — at most 9,000 alone.
      const members = await Promise.all([finance(), finance(), finance(), finance()]);
      const user = await walletUser(t.app, t.db, name('race'));
      const deposits = [];
      for (let index = 0; index < 4; index += 1) deposits.push(await reportedDeposit(user, '3000'));
      const answers = await Promise.all(deposits.map((depositId, index) => approveDeposit(members[index]!, depositId)));
      expect(answers.map((answer) => answer.code)).toEqual([200, 200, 200, 200]);
      expect(answers.filter((answer) => answer.data.status === 'approved')).toHaveLength(3);
      expect(answers.find((answer) => answer.data.status === 'pending')?.data.twoPersonReason).toMatchObject({ rule: 'user_window', decidedAloneUsdt: '9000.000000' });
      expect(await usdt(user)).toBe(9_000n * USDT);

      // Per staff: one member (two tabs), two users' deposits of 6,000 USDT at once — one alone, one waits.
      const alice = await finance();
      const pair = [await walletUser(t.app, t.db, name('race')), await walletUser(t.app, t.db, name('race'))];
      const pairDeposits = [await reportedDeposit(pair[0]!, '6000'), await reportedDeposit(pair[1]!, '6000')];
      const both = await Promise.all(pairDeposits.map((depositId) => approveDeposit(alice, depositId)));
      expect(both.map((answer) => answer.data.status).sort()).toEqual(['approved', 'pending']);
      hours(25);
    }
    const [oneAlone] = await t.db.query<{ over: number }>(
      `SELECT count(*)::int AS over FROM (SELECT user_id FROM staff_money_decisions WHERE people = 1 GROUP BY user_id HAVING sum(usdt_value_minor) > $1) o`,
      [(10_000n * USDT).toString()],
    );
    expect(oneAlone!.over).toBe(0);
  });
});

describe('the thresholds are published', () => {
  it('to users in the wallet overview, and to staff', async () => {
    const user = await walletUser(t.app, t.db, name('reader'));
    const overview = await call(t.app, 'GET', '/home/wallet/overview', user.token);
    expect(overview.data.rules).toMatchObject({
      twoPersonReviewAboveUsdt: '10000.000000',
      twoPersonReview: {
        recordAboveUsdt: '10000.000000',
        appealAboveUsdt: '1000.000000',
        staffAloneLimitUsdt: '10000.000000',
        userAloneLimitUsdt: '10000.000000',
        windowHours: 24,
      },
    });
    const staffView = await call(t.app, 'GET', '/home/admin/two-person-rule', await support());
    expect(staffView.data).toEqual(overview.data.rules.twoPersonReview);
  });
});
