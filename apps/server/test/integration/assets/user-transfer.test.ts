import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferPostings } from '@keel/domain';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { ensureUserAccount, postEntry } from '../../../src/persistence/ledger.store.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { bindAddress, call, coinBalance, fund, type WalletUser, walletUser } from '../../helpers/wallet.ts';

// Transfers to another user (issue 19): the sender pays the amount and the published 0.10 % fee
// (rounded up) from the coin account, the recipient receives the amount and a message, the fee
// account the fee — one journal entry; judged by the published withdrawal rules and counted in the
// same daily count and limit; idempotent; concurrent transfers never overdraw and never deadlock.
describe('transfer to another user', () => {
  let t: TestApp;
  let sender: WalletUser;
  let recipient: WalletUser;

  beforeAll(async () => {
    t = await createTestApp({ WITHDRAWAL_DAILY_COUNT: '1000' });
    sender = await walletUser(t.app, t.db, 'xfersender', { ready: true });
    recipient = await walletUser(t.app, t.db, 'xferrecipient', { ready: true });
  });
  afterAll(() => t.close());

  const send = (from: WalletUser, body: Record<string, unknown>, key: string | null = randomUUID()) =>
    call(t.app, 'POST', '/home/assets/transfer-to-user', from.token, { asset: 'USDT', paymentPassword: '135790', ...body }, key);
  const feesUsdtMinor = async () => {
    const [row] = await t.db.query<{ available_minor: string }>(
      `SELECT available_minor FROM ledger_accounts WHERE user_id IS NULL AND kind = 'fees' AND label = '' AND asset = 'USDT'`,
    );
    return BigInt(row?.available_minor ?? 0);
  };

  it('shows who a username or user number names, masked, and refuses oneself and nobody', async () => {
    const byName = await call(t.app, 'GET', `/home/assets/transfer-recipient?to=${recipient.username.toUpperCase()}`, sender.token);
    expect(byName).toMatchObject({ code: 200, data: { uid: recipient.userId, name: recipient.username } });
    const byUid = await call(t.app, 'GET', `/home/assets/transfer-recipient?to=${recipient.userId}`, sender.token);
    expect(byUid.data).toEqual(byName.data);
    expect(await call(t.app, 'GET', `/home/assets/transfer-recipient?to=${sender.username}`, sender.token)).toMatchObject({
      code: 400,
      msg: 'cannot transfer to yourself',
    });
    expect(await call(t.app, 'GET', '/home/assets/transfer-recipient?to=nobodyatall', sender.token)).toMatchObject({ code: 404, msg: 'record does not exist' });
    expect(await call(t.app, 'GET', '/home/assets/transfer-recipient?to=', sender.token)).toMatchObject({ code: 400, msg: 'parameter error' });
    // A user with a nickname is named by it; one with only a contact would be named by it masked.
    await t.db.query('UPDATE users SET nickname = $2 WHERE id = $1', [recipient.userId, 'Rina']);
    expect((await call(t.app, 'GET', `/home/assets/transfer-recipient?to=${recipient.userId}`, sender.token)).data).toEqual({ uid: recipient.userId, name: 'Rina' });
    await t.db.query('UPDATE users SET nickname = NULL WHERE id = $1', [recipient.userId]);
  });

  it('moves amount + fee out, the amount in, the fee to the fee account, in one entry, and tells the recipient', async () => {
    await fund(t.db, sender.userId, 'USDT', '100');
    const feesBefore = await feesUsdtMinor();
    const answer = await send(sender, { to: recipient.username, amount: '10' });
    expect(answer).toMatchObject({
      code: 200,
      data: {
        transfer: { direction: 'sent', counterparty: { uid: recipient.userId, name: recipient.username }, asset: 'USDT', amount: '10.000000', fee: '0.010000', total: '10.010000' },
        balance: { kind: 'coin', asset: 'USDT', available: '89.990000', frozen: '0.000000' },
      },
    });
    expect((await coinBalance(t.db, sender.userId, 'USDT')).availableMinor).toBe(89_990_000n);
    expect((await coinBalance(t.db, recipient.userId, 'USDT')).availableMinor).toBe(10_000_000n);
    expect((await feesUsdtMinor()) - feesBefore).toBe(10_000n);

    const postings = await t.db.query<{ amount_minor: string; user_id: string | null; kind: string }>(
      `SELECT p.amount_minor::text, a.user_id::text, a.kind FROM postings p JOIN ledger_accounts a ON a.id = p.account_id
       JOIN journal_entries e ON e.id = p.entry_id WHERE e.id = $1 AND e.reason = 'transfer.user' ORDER BY p.amount_minor`,
      [answer.data.transfer.entryId],
    );
    expect(postings).toEqual([
      { amount_minor: '-10010000', user_id: sender.userId, kind: 'coin' },
      { amount_minor: '10000', user_id: null, kind: 'fees' },
      { amount_minor: '10000000', user_id: recipient.userId, kind: 'coin' },
    ]);

    // The recipient: the entry in their records (their own posting only), the transfer in their list, a message.
    const records = await call(t.app, 'GET', '/home/assets/records?reason=transfer.user', recipient.token);
    expect(records.data.items).toHaveLength(1);
    expect(records.data.items[0]).toMatchObject({
      entryId: answer.data.transfer.entryId,
      memo: `Transfer from ${sender.username} (UID ${sender.userId}) to ${recipient.username} (UID ${recipient.userId})`,
      postings: [{ account: 'coin', asset: 'USDT', bucket: 'available', amount: '10.000000' }],
    });
    const received = await call(t.app, 'GET', '/home/assets/user-transfers', recipient.token);
    expect(received.data).toMatchObject({
      total: 1,
      items: [{ direction: 'received', counterparty: { uid: sender.userId, name: sender.username }, amount: '10.000000', fee: '0.000000', total: '10.000000' }],
    });
    const sent = await call(t.app, 'GET', '/home/assets/user-transfers', sender.token);
    expect(sent.data.items[0]).toMatchObject({ direction: 'sent', id: answer.data.transfer.id, fee: '0.010000', total: '10.010000' });
    const messages = await call(t.app, 'GET', '/home/user/messages', recipient.token);
    expect(JSON.stringify(messages.data)).toContain(`${sender.username} (UID ${sender.userId}) sent you 10.000000 USDT`);
    expect((await checkLedger(t.db)).ok).toBe(true);
  });

  it('rounds the fee up: 1.234567 USDT costs 0.001235', async () => {
    const answer = await send(sender, { to: recipient.userId, amount: '1.234567' });
    expect(answer.data.transfer).toMatchObject({ amount: '1.234567', fee: '0.001235', total: '1.235802' });
  });

  it('refuses, moving nothing: the fee not covered, a bad amount, a wrong password, oneself, nobody, a banned user, an unverified sender', async () => {
    const poor = await walletUser(t.app, t.db, 'xferpoor01', { ready: true });
    await fund(t.db, poor.userId, 'USDT', '10');
    const unverified = await walletUser(t.app, t.db, 'xferunverif');
    await fund(t.db, unverified.userId, 'USDT', '10');
    const banned = await walletUser(t.app, t.db, 'xferbanned1');
    await t.db.query(`UPDATE users SET status = 'banned' WHERE id = $1`, [banned.userId]);
    const entriesBefore = await t.db.query(`SELECT 1 FROM journal_entries WHERE reason = 'transfer.user'`);

    expect(await send(poor, { to: recipient.username, amount: '10' })).toMatchObject({ code: 400, msg: 'insufficient balance' });
    expect(await send(poor, { to: recipient.username, amount: '0' })).toMatchObject({ code: 400, msg: 'wrong amount' });
    expect(await send(poor, { to: recipient.username, amount: '1.0000001' })).toMatchObject({ code: 400, msg: 'wrong amount' });
    expect(await send(poor, { to: recipient.username, amount: '-1' })).toMatchObject({ code: 400 });
    expect(await send(poor, { to: recipient.username, amount: '1', asset: 'DOGE' })).toMatchObject({ code: 400, msg: 'parameter error' });
    expect(await send(poor, { to: recipient.username, amount: '1', paymentPassword: '000000' })).toMatchObject({ code: 400, msg: 'wrong payment password' });
    expect(await send(poor, { to: poor.userId, amount: '1' })).toMatchObject({ code: 400, msg: 'cannot transfer to yourself' });
    expect(await send(poor, { to: 'nobodyatall', amount: '1' })).toMatchObject({ code: 404, msg: 'record does not exist' });
    expect(await send(poor, { to: banned.username, amount: '1' })).toMatchObject({ code: 404, msg: 'record does not exist' });
    expect(await send(poor, { to: recipient.username, amount: '1' }, null)).toMatchObject({ code: 400, msg: 'idempotency key required' });
    expect(await send(unverified, { to: recipient.username, amount: '1' })).toMatchObject({
      code: 400,
      msg: 'identity verification required',
      data: { rule: 'identity_verification' },
    });

    expect(await t.db.query(`SELECT 1 FROM journal_entries WHERE reason = 'transfer.user'`)).toHaveLength(entriesBefore.length);
    expect((await coinBalance(t.db, poor.userId, 'USDT')).availableMinor).toBe(10_000_000n);
    // Exactly amount + fee is enough.
    expect(await send(poor, { to: recipient.username, amount: '9.99' })).toMatchObject({ code: 200, data: { transfer: { fee: '0.009990', total: '9.999990' } } });
    expect(await send(poor, { to: recipient.username, amount: '0.000009' })).toMatchObject({ code: 200, data: { balance: { available: '0.000000' } } });
  });

  it('counts in the daily withdrawal count and limit with withdrawals, and the wallet standing says so', async () => {
    const counted = await createTestApp({ WITHDRAWAL_DAILY_COUNT: '3' });
    try {
      const from = await walletUser(counted.app, counted.db, 'xfercount1', { ready: true });
      const to = await walletUser(counted.app, counted.db, 'xfercount2', { ready: true });
      await fund(counted.db, from.userId, 'USDT', '60000');
      const post = (amount: string) =>
        call(counted.app, 'POST', '/home/assets/transfer-to-user', from.token, { to: to.username, asset: 'USDT', amount, paymentPassword: '135790' });
      // Tier 1: 50,000 USDT a UTC day. 49,000 + 1,000 is exactly the limit; one more minor unit is not.
      expect((await post('49000')).code).toBe(200);
      const over = await post('1000.000001');
      expect(over).toMatchObject({ code: 400, msg: 'withdrawal impossible', data: { rule: 'tier_daily_limit', usedUsdt: '49000.000000', remainingUsdt: '1000.000000' } });
      expect((await post('1000')).code).toBe(200);
      const standing = await call(counted.app, 'GET', '/home/wallet/overview', from.token);
      expect(standing.data.standing).toMatchObject({ withdrawalsToday: 2, usedTodayUsdt: '50000.000000', remainingTodayUsdt: '0.000000' });
      expect(standing.data.rules.userTransferFeePercent).toBe('0.10');
    } finally {
      await counted.close();
    }
  });

  it('the daily count: the published number of requests a day, transfers and withdrawals together', async () => {
    const counted = await createTestApp({ WITHDRAWAL_DAILY_COUNT: '2' });
    try {
      const from = await walletUser(counted.app, counted.db, 'xfercount3', { ready: true });
      const to = await walletUser(counted.app, counted.db, 'xfercount4', { ready: true });
      await fund(counted.db, from.userId, 'USDT', '100');
      const post = () => call(counted.app, 'POST', '/home/assets/transfer-to-user', from.token, { to: to.username, asset: 'USDT', amount: '1', paymentPassword: '135790' });
      const addressId = await bindAddress(counted.app, counted.db, from, 'tron', { usableNow: true });
      const withdrawal = await call(counted.app, 'POST', '/home/wallet/withdrawals', from.token, { channel: 'USDT-TRC20', addressId, amount: '10', paymentPassword: '135790' });
      expect(withdrawal.code).toBe(200);
      expect((await post()).code).toBe(200);
      expect(await post()).toMatchObject({ code: 400, msg: 'daily withdrawal count limit reached', data: { rule: 'daily_count', limit: 2, used: 2 } });
      // And the other way round: the transfer counts against the next withdrawal.
      const second = await call(counted.app, 'POST', '/home/wallet/withdrawals', from.token, { channel: 'USDT-TRC20', addressId, amount: '10', paymentPassword: '135790' });
      expect(second).toMatchObject({ code: 400, msg: 'daily withdrawal count limit reached' });
      // 100 − (10 + 1 fee) held for the withdrawal − 1.001 for the transfer.
      expect((await coinBalance(counted.db, from.userId, 'USDT')).availableMinor).toBe(100_000_000n - 11_000_000n - 1_001_000n);
    } finally {
      await counted.close();
    }
  });

  it('replays a key with the stored answer and moves money once, also for concurrent duplicates', async () => {
    const from = await walletUser(t.app, t.db, 'xferreplay1', { ready: true });
    await fund(t.db, from.userId, 'USDT', '50');
    const first = await send(from, { to: recipient.username, amount: '5' }, 'replay-xfer-1');
    const again = await send(from, { to: recipient.username, amount: '5' }, 'replay-xfer-1');
    expect(again).toEqual(first);
    expect(await send(from, { to: recipient.username, amount: '6' }, 'replay-xfer-1')).toMatchObject({ code: 422 });
    const burst = await Promise.all(Array.from({ length: 6 }, () => send(from, { to: recipient.username, amount: '7' }, 'replay-xfer-2')));
    expect(burst.every((answer) => answer.code === 200 || answer.code === 409)).toBe(true);
    expect(burst.some((answer) => answer.code === 200)).toBe(true);
    expect((await coinBalance(t.db, from.userId, 'USDT')).availableMinor).toBe(50_000_000n - 5_005_000n - 7_007_000n);
    const rows = await t.db.query('SELECT 1 FROM user_transfers WHERE sender_id = $1', [from.userId]);
    expect(rows).toHaveLength(2);
  });

  it('race: 20 concurrent transfers against a balance for 9 never overdraw; crossing transfers never deadlock', async () => {
    const from = await walletUser(t.app, t.db, 'xferrace01', { ready: true });
    const other = await walletUser(t.app, t.db, 'xferrace02', { ready: true });
    await fund(t.db, from.userId, 'USDT', '100');
    await fund(t.db, other.userId, 'USDT', '100');
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(from, { to: recipient.username, amount: '10' })));
    const ok = answers.filter((answer) => answer.code === 200);
    expect(ok).toHaveLength(9);
    expect(answers.filter((answer) => answer.code !== 200).every((answer) => answer.msg === 'insufficient balance')).toBe(true);
    expect((await coinBalance(t.db, from.userId, 'USDT')).availableMinor).toBe(100_000_000n - 9n * 10_010_000n);

    // Two users sending to each other at once: each transaction locks its sender, then the accounts in id order.
    const crossing = await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? send(other, { to: recipient.username, amount: '1' }) : send(recipient, { to: other.username, amount: '1' }))),
    );
    expect(crossing.map((answer) => answer.code)).toEqual(Array.from({ length: 20 }, () => 200));
    expect((await checkLedger(t.db)).ok).toBe(true);
  });

  // Last: it leaves the ledger check failing on purpose.
  it('ledger:check finds a transfer entry with no transfer row behind it', async () => {
    await t.db.transaction(async (tx) => {
      const from = await ensureUserAccount(tx, BigInt(sender.userId), 'coin', 'USDT');
      const to = await ensureUserAccount(tx, BigInt(recipient.userId), 'coin', 'USDT');
      await postEntry(tx, { reason: 'transfer.user', postings: transferPostings(from, to, 'USDT', 1_000_000n), at: new Date() });
    });
    const check = await checkLedger(t.db);
    expect(check.ok).toBe(false);
    expect(check.problems.join('\n')).toContain('transfers to other users whose entries differ from their rows');
  });
});
