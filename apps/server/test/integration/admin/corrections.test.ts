import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { createStaff, createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';
import { call } from '../../helpers/wallet.ts';

// Staff corrections (issue 22, ADR 0039): a finance or admin member proposes, a different one
// approves (an admin above the published value); only then is one `staff.correction` entry posted,
// which the user sees in their records with the reason, and a message.

let t: TestApp;
let maker: string;
let checker: string;
let admin: string;
let support: string;
let alice: { token: string; userId: string };

beforeAll(async () => {
  t = await createTestApp({ CORRECTION_ADMIN_CHECKER_ABOVE_USDT: '1000' });
  maker = await createStaff(t.app, t.db, 'corrfinance1', ['finance']);
  checker = await createStaff(t.app, t.db, 'corrfinance2', ['finance']);
  admin = await createStaff(t.app, t.db, 'corradmin1', ['admin']);
  support = await createStaff(t.app, t.db, 'corrsupport1', ['support']);
  alice = await registerViaApi(t.app, 'corralice1');
});
afterAll(() => t?.close());

const propose = (token: string, body: Record<string, unknown>) => call(t.app, 'POST', '/home/admin/corrections', token, body, null);
const decide = (token: string, id: string, approve: boolean, key: string | null = randomUUID(), note?: string) =>
  call(t.app, 'POST', `/home/admin/corrections/${id}/decision`, token, { approve, ...(note ? { note } : {}) }, key);
const toAlice = (amount: string, extra: Record<string, unknown> = {}) => ({
  target: 'user',
  userId: alice.userId,
  account: 'coin',
  asset: 'USDT',
  amount,
  reason: 'Deposit 4711 was credited short by the chain check',
  reference: 'ticket 4711',
  ...extra,
});
const balance = async (asset = 'USDT') => {
  const { accounts } = (await call(t.app, 'GET', '/home/assets/accounts', alice.token)).data;
  return accounts.find((each: { kind: string; asset: string }) => each.kind === 'coin' && each.asset === asset).available as string;
};
const corrections = async () => Number((await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM journal_entries WHERE reason = 'staff.correction'"))[0]!.n);
const ledgerWhole = async () => expect((await checkLedger(t.db)).problems).toEqual([]);

describe('maker and checker', () => {
  it('nothing moves on a proposal; the maker cannot approve it; a second finance member does, and the user sees the reason', async () => {
    const proposed = await propose(maker, toAlice('25'));
    expect(proposed.code).toBe(200);
    expect(proposed.data).toMatchObject({
      status: 'pending',
      target: 'user',
      userId: alice.userId,
      userName: 'corralice1',
      account: 'coin',
      asset: 'USDT',
      amount: '25.000000',
      valueUsdt: '25.000000',
      adminCheckerRequired: false,
      proposedBy: 'corrfinance1',
      decidedBy: null,
      entryId: null,
    });
    expect(await balance()).toBe('0.000000');
    expect((await decide(maker, proposed.data.id, true)).data).toMatchObject({ rule: 'maker_cannot_check' });
    expect((await decide(maker, proposed.data.id, false)).msg).toBe('a second staff member must approve');
    expect((await decide(support, proposed.data.id, true)).msg).toBe('permission denied');
    expect(await corrections()).toBe(0);

    const key = randomUUID();
    const approved = await decide(checker, proposed.data.id, true, key, 'matches the chain');
    expect(approved.code).toBe(200);
    expect(approved.data).toMatchObject({ status: 'approved', decidedBy: 'corrfinance2', decisionNote: 'matches the chain' });
    expect(approved.data.entryId).toMatch(/^\d+$/);
    expect(await balance()).toBe('25.000000');
    // The same request again answers the first result; nothing posts twice.
    const replay = await decide(checker, proposed.data.id, true, key, 'matches the chain');
    expect(replay.data).toEqual(approved.data);
    expect(await corrections()).toBe(1);

    const records = (await call(t.app, 'GET', '/home/assets/records?type=staff.correction', alice.token)).data;
    expect(records.items).toHaveLength(1);
    expect(records.items[0]).toMatchObject({
      entryId: approved.data.entryId,
      reason: 'staff.correction',
      referenceType: 'staff_correction',
      referenceId: proposed.data.id,
      memo: 'Deposit 4711 was credited short by the chain check',
      postings: [{ account: 'coin', asset: 'USDT', bucket: 'available', amount: '25.000000' }],
    });
    const messages = (await call(t.app, 'GET', '/home/user/messages', alice.token)).data.items;
    expect(messages[0].title).toContain('25.000000 USDT');
    expect(messages[0].body).toContain('Deposit 4711 was credited short by the chain check');
    expect(messages[0].body).toContain(`#${approved.data.entryId}`);

    const audit = await t.db.query<{ action: string; staff: string }>(
      `SELECT a.action, s.username AS staff FROM audit_log a JOIN staff s ON s.id = a.staff_id
        WHERE a.target_type = 'staff_correction' AND a.target_id = $1 ORDER BY a.id`,
      [proposed.data.id],
    );
    expect(audit).toEqual([
      { action: 'correction.proposed', staff: 'corrfinance1' },
      { action: 'correction.approved', staff: 'corrfinance2' },
    ]);
    expect((await decide(admin, proposed.data.id, false)).msg).toBe('no longer pending review');
    await ledgerWhole();
  });

  it('above the published amount only an admin approves; a finance member may still reject', async () => {
    const large = await propose(maker, toAlice('1000.000001'));
    expect(large.data).toMatchObject({ adminCheckerRequired: true, valueUsdt: '1000.000001' });
    expect((await decide(checker, large.data.id, true)).data).toMatchObject({ rule: 'admin_checker_required' });
    expect((await decide(admin, large.data.id, true)).data).toMatchObject({ status: 'approved', decidedBy: 'corradmin1' });
    expect(await balance()).toBe('1025.000001');

    const atLimit = await propose(maker, toAlice('1000'));
    expect(atLimit.data.adminCheckerRequired).toBe(false);
    const rejected = await decide(checker, atLimit.data.id, false, randomUUID(), 'duplicate of the one before');
    expect(rejected.data).toMatchObject({ status: 'rejected', entryId: null, decisionNote: 'duplicate of the one before' });
    expect(await balance()).toBe('1025.000001');
    await ledgerWhole();
  });

  it('a correction of an asset with no recorded price counts as above the amount', async () => {
    const btc = await propose(maker, toAlice('0.5', { asset: 'BTC' }));
    expect(btc.data).toMatchObject({ valueUsdt: null, adminCheckerRequired: true, amount: '0.50000000' });
    expect((await decide(checker, btc.data.id, true)).data).toMatchObject({ rule: 'admin_checker_required' });
  });

  it('taking back more than the account holds is refused whole and the correction stays pending', async () => {
    const before = await corrections();
    const takeBack = await propose(maker, toAlice('-5000'));
    expect(takeBack.data).toMatchObject({ amount: '-5000.000000', valueUsdt: '5000.000000', adminCheckerRequired: true });
    expect((await decide(admin, takeBack.data.id, true)).msg).toBe('insufficient balance');
    expect((await call(t.app, 'GET', '/home/admin/corrections?status=pending', checker)).data.items.map((each: { id: string }) => each.id)).toContain(
      takeBack.data.id,
    );
    expect(await corrections()).toBe(before);
    const small = await propose(maker, toAlice('-0.000001'));
    expect((await decide(checker, small.data.id, true)).data.status).toBe('approved');
    expect(await balance()).toBe('1025.000000');
    const messages = (await call(t.app, 'GET', '/home/user/messages', alice.token)).data.items;
    expect(messages[0].title).toContain('taken back');
    await ledgerWhole();
  });

  it('two checkers approving at once post one entry', async () => {
    const proposed = await propose(maker, toAlice('3'));
    const before = await corrections();
    const answers = await Promise.all([decide(checker, proposed.data.id, true), decide(admin, proposed.data.id, true)]);
    expect(answers.map((answer) => answer.code).sort()).toEqual([200, 409].sort((a, b) => a - b));
    expect(answers.find((answer) => answer.code !== 200)!.msg).toBe('no longer pending review');
    expect(await corrections()).toBe(before + 1);
    await ledgerWhole();
  });
});

describe('house accounts', () => {
  it('funds the lending treasury from the platform treasury; a house account takes only its assets', async () => {
    const fund = await propose(maker, { target: 'house', houseAccount: 'lending_treasury', asset: 'USDT', amount: '500', reason: 'Lending capital for November, board minute 12' });
    expect(fund.data).toMatchObject({ target: 'house', houseAccount: 'lending_treasury', userId: null, userName: null });
    const approved = await decide(checker, fund.data.id, true);
    expect(approved.data.status).toBe('approved');
    const [lending] = await t.db.query<{ available: string }>(
      "SELECT available_minor::text AS available FROM ledger_accounts WHERE user_id IS NULL AND kind = 'treasury' AND label = 'lending' AND asset = 'USDT'",
    );
    expect(lending!.available).toBe('500000000');
    const wrongAsset = await propose(maker, { target: 'house', houseAccount: 'lending_treasury', asset: 'BTC', amount: '1', reason: 'Lending capital in bitcoin, not allowed' });
    expect(wrongAsset.msg).toBe('parameter error');
    expect(wrongAsset.data).toMatchObject({ field: 'asset', problem: 'not_held_by_house_account' });
    await ledgerWhole();
  });
});

describe('bad input is refused with the catalogue, and nothing is written', () => {
  it.each([
    ['zero', () => (toAlice('0')), 'parameter error'],
    ['minus zero', () => (toAlice('-0.00')), 'parameter error'],
    ['not a number', () => (toAlice('12a')), 'parameter error'],
    ['more decimals than USDT has', () => (toAlice('1.1234567')), 'wrong amount'],
    ['a reason too short to tell the user anything', () => (toAlice('1', { reason: 'oops      ' })), 'parameter error'],
    ['a user target without a user', () => (toAlice('1', { userId: undefined })), 'parameter error'],
    ['a user target naming a house account too', () => (toAlice('1', { houseAccount: 'earn_treasury' })), 'parameter error'],
    ['a house target without one', () => ({ target: 'house', asset: 'USDT', amount: '1', reason: 'No house account was named here' }), 'parameter error'],
    ['an unknown account kind', () => (toAlice('1', { account: 'innovation' })), 'parameter error'],
    ['a user who does not exist', () => (toAlice('1', { userId: '999999999' })), 'record does not exist'],
  ])('%s', async (_name, body, msg) => {
    const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM staff_corrections'))[0]!.n;
    const before = await count();
    const answer = await propose(maker, body() as Record<string, unknown>);
    expect(answer.msg).toBe(msg);
    expect(await count()).toBe(before);
  });

  it('a compliance or support member cannot propose', async () => {
    expect((await propose(support, toAlice('1'))).msg).toBe('permission denied');
  });
});
