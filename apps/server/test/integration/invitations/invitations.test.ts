import { parseAmount } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { creditInviteRewards } from '../../../src/use-cases/invitations/invite-rewards.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call, fund, setPaymentPassword, verifyUser } from '../../helpers/wallet.ts';

// Issue 20 (ADR 0045): registration by an invite code links the inviter; the daily job pays the
// inviter 20 % of the trading fees (here: real swaps) their invitee paid on each complete UTC day,
// once per (invitee, day), for three days after registration (the test's published period), never
// for a second-level invitee, never for a sign-up alone; the ledger check proves every entry.

const DAY = 86_400_000;
let nowMs = Date.parse('2026-11-22T10:00:00Z');
const at = (iso: string) => {
  nowMs = Date.parse(iso);
};
let t: TestApp;
const job = () => creditInviteRewards({ db: t.db, now: () => new Date(nowMs) });

interface Person {
  userId: string;
  token: string;
  code: string;
}

async function register(username: string, inviteCode?: string): Promise<Person> {
  const answer = await call(t.app, 'POST', '/home/auth/register', null, { username, password: 'secret12', confirmPassword: 'secret12', agreement: true, inviteCode }, null);
  if (answer.code !== 200) throw new Error(`register ${username}: ${answer.msg}`);
  const me = await call(t.app, 'GET', '/home/user/me', answer.data.token as string);
  return { userId: answer.data.userId as string, token: answer.data.token as string, code: me.data.inviteCode as string };
}

/** A real swap of 0.1 BTC to USDT at 90,000: returns the fee it charged, in USDT minor units. */
async function swap(person: Person): Promise<bigint> {
  await t.market!.record([{ symbol: 'BTC/USDT', price: '90000.00000000', atMs: nowMs - 200 }]);
  const quote = await call(t.app, 'POST', '/home/assets/swap/quote', person.token, { fromAsset: 'BTC', toAsset: 'USDT', amount: '0.1' });
  if (quote.code !== 200) throw new Error(`quote: ${quote.msg}`);
  const done = await call(t.app, 'POST', '/home/assets/swap', person.token, { quoteId: quote.data.quoteId });
  if (done.code !== 200) throw new Error(`swap: ${done.msg}`);
  return parseAmount(quote.data.fee as string, 6);
}

const usdtOf = async (person: Person) => {
  const answer = await call(t.app, 'GET', '/home/assets/accounts', person.token);
  const coin = (answer.data.accounts as { kind: string; asset: string; available: string }[]).find((a) => a.kind === 'coin' && a.asset === 'USDT');
  return parseAmount(coin?.available ?? '0', 6);
};
const rewardEntries = async () => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM journal_entries WHERE reason = 'invite.reward'`))[0]!.n;
const messagesOf = async (person: Person) =>
  (await t.db.query<{ title: string; body: string }>('SELECT title, body FROM messages WHERE user_id = $1 ORDER BY id', [person.userId])).filter((row) =>
    row.title.includes('Invitation rewards'),
  );

let alice: Person;
let bob: Person;
let carol: Person;
let dave: Person;

beforeAll(async () => {
  t = await createTestApp({ INVITE_REWARD_SHARE_PERCENT: '20', INVITE_REWARD_DAYS: '3' }, { now: () => new Date(nowMs), market: true });
});
afterAll(() => t?.close());

describe('invitations and fee-share rewards', () => {
  it('links the inviter at registration by code, and publishes the rule, the link parts and the invitees masked', async () => {
    alice = await register('aliceinvites');
    bob = await register('bobtrader', alice.code.toLowerCase());
    carol = await register('carolsecond', bob.code);
    dave = await register('daveloner');
    const refused = await call(t.app, 'POST', '/home/auth/register', null, { username: 'nocode', password: 'secret12', confirmPassword: 'secret12', agreement: true, inviteCode: 'ZZZZZZZZ' }, null);
    expect(refused.msg).toBe('invalid invitation code');

    const rows = await t.db.query<{ invitee_id: bigint; inviter_id: bigint; share_percent: number; period_days: number }>(
      'SELECT invitee_id, inviter_id, share_percent, period_days FROM invitations ORDER BY invitee_id',
    );
    expect(rows.map((row) => [String(row.invitee_id), String(row.inviter_id), row.share_percent, row.period_days])).toEqual([
      [bob.userId, alice.userId, 20, 3],
      [carol.userId, bob.userId, 20, 3],
    ]);

    const summary = await call(t.app, 'GET', '/home/invitations/summary', alice.token);
    expect(summary.data).toEqual({
      code: alice.code,
      link: { registerPath: '/register', inviteParam: 'invite' },
      rule: { sharePercent: 20, periodDays: 3, feeKinds: ['swap', 'p2p.release', 'leverage.open', 'leverage.fill', 'leverage.close', 'leverage.take_profit', 'leverage.stop_loss'], levels: 1 },
      totals: { invitees: 1, verified: 0, rewards: [] },
    });
    await verifyUser(t.db, bob.userId);
    const invitees = await call(t.app, 'GET', '/home/invitations/invitees', alice.token);
    expect(invitees.data).toEqual({
      items: [{ name: 'b***r', joinedAt: '2026-11-22T10:00:00.000Z', verified: true, rewardsUntil: '2026-11-25T10:00:00.000Z' }],
      total: 1,
    });
    // Carol is Bob's, not Alice's.
    expect((await call(t.app, 'GET', '/home/invitations/invitees', bob.token)).data.items.map((item: { name: string }) => item.name)).toEqual(['c***d']);
    expect((await call(t.app, 'GET', '/home/invitations/invitees', dave.token)).data).toEqual({ items: [], total: 0 });
  });

  it('pays nothing for a sign-up alone', async () => {
    at('2026-11-23T00:30:00Z');
    await job();
    expect(await rewardEntries()).toBe(0);
    expect(await t.db.query('SELECT * FROM invite_reward_days')).toEqual([]);
    // The day was settled (no fees): the cursor moved past it.
    const [row] = await t.db.query<{ next_day: string }>('SELECT next_day::text AS next_day FROM invitations WHERE invitee_id = $1', [bob.userId]);
    expect(row!.next_day).toBe('2026-11-23');
  });

  it('pays the share of a complete UTC day\'s swap fees once, one level only, in the fee\'s asset, rounded down', async () => {
    for (const person of [bob, carol, dave]) await fund(t.db, person.userId, 'BTC', '1');
    at('2026-11-23T09:00:00Z');
    const bobFirst = await swap(bob);
    const carolFee = await swap(carol);
    await swap(dave);
    // The last moment of the day counts for that day.
    at('2026-11-23T23:59:59.999Z');
    const bobSecond = await swap(bob);
    // Not before the day is over.
    await job();
    expect(await rewardEntries()).toBe(0);

    at('2026-11-24T00:00:01Z');
    const aliceBefore = await usdtOf(alice);
    const bobBefore = await usdtOf(bob);
    await job();
    const aliceReward = ((bobFirst + bobSecond) * 20n) / 100n;
    const bobReward = (carolFee * 20n) / 100n;
    expect(aliceReward).toBeGreaterThan(0n);
    expect((await usdtOf(alice)) - aliceBefore).toBe(aliceReward);
    // Bob earns from Carol; Alice earns nothing from Carol (one level).
    expect((await usdtOf(bob)) - bobBefore).toBe(bobReward);
    expect(await rewardEntries()).toBe(2);

    // Again, and two nodes at once: nothing more.
    await Promise.all([job(), job()]);
    await job();
    expect(await rewardEntries()).toBe(2);
    expect((await usdtOf(alice)) - aliceBefore).toBe(aliceReward);

    const rewards = await call(t.app, 'GET', '/home/invitations/rewards', alice.token);
    expect(rewards.data.total).toBe(1);
    expect(rewards.data.items[0]).toMatchObject({
      day: '2026-11-23',
      invitee: 'b***r',
      asset: 'USDT',
      fee: (Number(bobFirst + bobSecond) / 1e6).toFixed(6),
      reward: (Number(aliceReward) / 1e6).toFixed(6),
      sharePercent: 20,
    });
    const summary = await call(t.app, 'GET', '/home/invitations/summary', alice.token);
    expect(summary.data.totals).toEqual({ invitees: 1, verified: 1, rewards: [{ asset: 'USDT', amount: (Number(aliceReward) / 1e6).toFixed(6) }] });
    // The record and the one message of the day.
    const records = await call(t.app, 'GET', '/home/assets/records?reason=invite.reward', alice.token);
    expect(records.data.items).toHaveLength(1);
    expect(records.data.items[0]).toMatchObject({ reason: 'invite.reward', referenceType: 'invite_reward_day', referenceId: '2026-11-23' });
    expect(await messagesOf(alice)).toHaveLength(1);
    expect((await messagesOf(alice))[0]!.body).toContain('2026-11-23');
    expect(await messagesOf(dave)).toHaveLength(0);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('catches up every missed day, each with its own entry, and stops at the end of the period', async () => {
    at('2026-11-24T12:00:00Z');
    const day2 = await swap(bob);
    // Registered 2026-11-22 10:00 with a 3-day period: fees until 2026-11-25 10:00 count.
    at('2026-11-25T09:59:00Z');
    const day3 = await swap(bob);
    at('2026-11-25T10:01:00Z');
    await swap(bob);
    at('2026-11-26T15:00:00Z');
    await swap(bob);

    // The job was down for days; it runs again on 2026-11-28.
    at('2026-11-28T08:00:00Z');
    const before = await usdtOf(alice);
    await job();
    const days = await t.db.query<{ day: string; reward: string }>(
      `SELECT a.day::text AS day, a.reward_minor::text AS reward FROM invite_reward_amounts a WHERE a.invitee_id = $1 ORDER BY a.day`,
      [bob.userId],
    );
    expect(days).toEqual([
      { day: '2026-11-23', reward: String(((await feesOn(bob, '2026-11-23')) * 20n) / 100n) },
      { day: '2026-11-24', reward: String((day2 * 20n) / 100n) },
      { day: '2026-11-25', reward: String((day3 * 20n) / 100n) },
    ]);
    expect((await usdtOf(alice)) - before).toBe((day2 * 20n) / 100n + (day3 * 20n) / 100n);
    const keys = await t.db.query<{ idempotency_key: string }>(`SELECT idempotency_key FROM journal_entries WHERE reason = 'invite.reward' ORDER BY id`);
    expect(keys.map((row) => row.idempotency_key)).toEqual([
      `invite.reward:${bob.userId}:2026-11-23`,
      `invite.reward:${carol.userId}:2026-11-23`,
      `invite.reward:${bob.userId}:2026-11-24`,
      `invite.reward:${bob.userId}:2026-11-25`,
    ]);
    // Every day of Bob's period is settled; nothing is left for him.
    const [row] = await t.db.query<{ next_day: string; last_day: string }>('SELECT next_day::text AS next_day, last_day::text AS last_day FROM invitations WHERE invitee_id = $1', [
      bob.userId,
    ]);
    expect(row).toEqual({ next_day: '2026-11-26', last_day: '2026-11-25' });
    at(new Date(nowMs + 30 * DAY).toISOString());
    await job();
    expect(await rewardEntries()).toBe(4);
    // One message per day with rewards.
    expect(await messagesOf(alice)).toHaveLength(3);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('counts a leveraged position\'s opening fee, paid from the leverage fee account, and not a transfer\'s fee', async () => {
    const frank = await register('franklever', alice.code);
    await verifyUser(t.db, frank.userId);
    expect((await call(t.app, 'POST', '/home/leverage/disclosure', frank.token, { version: 1 })).code).toBe(200);
    await fund(t.db, frank.userId, 'USDT', '1000', 'leveraged');
    await fund(t.db, frank.userId, 'USDT', '100');
    await t.market!.record([{ symbol: 'BTC/USDT', price: '90000.00000000', atMs: nowMs - 200 }]);
    const opened = await call(t.app, 'POST', '/home/leverage/positions', frank.token, { product: 'futures', symbol: 'BTC/USDT', side: 'long', margin: '100', leverage: 20 });
    expect(opened.code, opened.msg).toBe(200);
    const [fee] = await t.db.query<{ fee: string; account: bigint }>(
      `SELECT p.amount_minor::text AS fee, p.account_id AS account FROM journal_entries e JOIN postings p ON p.entry_id = e.id
         JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'fees' AND a.label = 'leverage'
        WHERE e.reason = 'leverage.open' AND EXISTS (SELECT 1 FROM postings up JOIN ledger_accounts ua ON ua.id = up.account_id WHERE up.entry_id = e.id AND ua.user_id = $1)`,
      [frank.userId],
    );
    expect(BigInt(fee!.fee)).toBeGreaterThan(0n);
    // A transfer to another user pays a fee to the fee account too; it is not a trading fee.
    await setPaymentPasswordOf(frank);
    const sent = await call(t.app, 'POST', '/home/assets/transfer-to-user', frank.token, { to: dave.userId, asset: 'USDT', amount: '10', paymentPassword: '135790' });
    expect(sent.code, sent.msg).toBe(200);
    at(new Date(nowMs + DAY).toISOString());
    await job();
    const rows = await t.db.query<{ fee_account_id: bigint; fee_minor: string; reward_minor: string }>(
      'SELECT fee_account_id, fee_minor::text AS fee_minor, reward_minor::text AS reward_minor FROM invite_reward_amounts WHERE invitee_id = $1',
      [frank.userId],
    );
    expect(rows).toEqual([{ fee_account_id: fee!.account, fee_minor: fee!.fee, reward_minor: String((BigInt(fee!.fee) * 20n) / 100n) }]);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('records a day whose share rounds to nothing without an entry, and the ledger check catches a tampered reward', async () => {
    const erin = await register('erintiny', alice.code);
    await fund(t.db, erin.userId, 'BTC', '1');
    // A swap of one satoshi-sized amount pays a fee of a few minor units: 20 % of it rounds to 0 or 1.
    await t.market!.record([{ symbol: 'BTC/USDT', price: '90000.00000000', atMs: nowMs - 200 }]);
    const quote = await call(t.app, 'POST', '/home/assets/swap/quote', erin.token, { fromAsset: 'BTC', toAsset: 'USDT', amount: '0.00000002' });
    expect(quote.code).toBe(200);
    const fee = parseAmount(quote.data.fee as string, 6);
    expect((fee * 20n) / 100n).toBe(0n);
    expect((await call(t.app, 'POST', '/home/assets/swap', erin.token, { quoteId: quote.data.quoteId })).code).toBe(200);
    const entriesBefore = await rewardEntries();
    at(new Date(nowMs + DAY).toISOString());
    await job();
    expect(await rewardEntries()).toBe(entriesBefore);
    const [day] = await t.db.query<{ entry_id: bigint | null }>('SELECT entry_id FROM invite_reward_days WHERE invitee_id = $1', [erin.userId]);
    expect(day).toEqual({ entry_id: null });
    expect((await checkLedger(t.db)).problems).toEqual([]);

    // A reward row changed behind the job's back (the trigger stops an UPDATE; a forged row is caught).
    await expect(t.db.query(`UPDATE invite_reward_amounts SET reward_minor = reward_minor + 1`)).rejects.toThrow(/final/);
    await t.db.query(
      `INSERT INTO invite_reward_days (invitee_id, day, inviter_id, entry_id, settled_at) VALUES ($1, '2026-11-20', $2, NULL, now())`,
      [erin.userId, alice.userId],
    );
    await t.db.query(
      `INSERT INTO invite_reward_amounts (invitee_id, day, fee_account_id, inviter_id, asset, fee_minor, reward_minor)
       SELECT $1, '2026-11-20', id, $2, 'USDT', 100, 20 FROM ledger_accounts WHERE kind = 'fees' AND label = '' AND asset = 'USDT'`,
      [erin.userId, alice.userId],
    );
    const problems = (await checkLedger(t.db)).problems.join('\n');
    expect(problems).toContain('invitation reward days and entries that do not match');
    expect(problems).toContain('invitation rewards that differ from the trading fees they came from');
  });
});

async function setPaymentPasswordOf(person: Person) {
  await setPaymentPassword(t.app, { ...person, username: '' } as never);
}

/** The swap fees a person paid on a UTC day, read from the journal. */
async function feesOn(person: Person, day: string): Promise<bigint> {
  const [row] = await t.db.query<{ fee: string | null }>(
    `SELECT sum(fp.amount_minor)::text AS fee FROM journal_entries e
       JOIN postings fp ON fp.entry_id = e.id JOIN ledger_accounts fa ON fa.id = fp.account_id AND fa.kind = 'fees'
      WHERE e.reason = 'swap' AND (e.created_at AT TIME ZONE 'UTC')::date = $2::date
        AND EXISTS (SELECT 1 FROM postings up JOIN ledger_accounts ua ON ua.id = up.account_id WHERE up.entry_id = e.id AND ua.user_id = $1)`,
    [person.userId, day],
  );
  return BigInt(row!.fee ?? '0');
}
