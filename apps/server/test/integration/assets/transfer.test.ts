import { transferPostings } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { ensurePlatformAccount, ensureUserAccount, postEntry } from '../../../src/persistence/ledger.store.ts';
import { createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';

describe('transfer between own accounts, with request idempotency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function fundedUser(name: string, usdt: bigint) {
    const user = await registerViaApi(t.app, name);
    await t.db.transaction(async (tx) => {
      const treasury = await ensurePlatformAccount(tx, 'treasury', 'USDT', { allowNegative: true });
      const coin = await ensureUserAccount(tx, BigInt(user.userId), 'coin', 'USDT');
      await postEntry(tx, { reason: 'demo.fund', postings: transferPostings(treasury, coin, 'USDT', usdt), at: new Date() });
    });
    return user;
  }

  const transfer = (token: string, key: string | undefined, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/home/assets/transfer',
      headers: { authorization: token, ...(key ? { 'idempotency-key': key } : {}) },
      payload: body,
    });
  const balances = async (token: string) =>
    ((await t.app.inject({ url: '/home/assets/accounts', headers: { authorization: token } })).json() as {
      data: { accounts: { kind: string; asset: string; available: string; frozen: string }[] };
    }).data.accounts;

  it('lists every account type × asset, zero where nothing was ever held', async () => {
    const user = await fundedUser('lister01', 5_000_000n);
    const accounts = await balances(user.token);
    expect(accounts).toHaveLength(6 * 3);
    expect(accounts.find((a) => a.kind === 'coin' && a.asset === 'USDT')).toEqual({ kind: 'coin', asset: 'USDT', available: '5.000000', frozen: '0.000000' });
    expect(accounts.find((a) => a.kind === 'defi' && a.asset === 'ETH')).toEqual({ kind: 'defi', asset: 'ETH', available: '0.000000000000000000', frozen: '0.000000000000000000' });
  });

  it('moves money between own accounts, free of charge, as one journal entry', async () => {
    const user = await fundedUser('mover001', 10_000_000n);
    const response = await transfer(user.token, 'move-0001', { fromAccount: 'coin', toAccount: 'fiat', asset: 'USDT', amount: '2.5' });
    expect(response.json()).toMatchObject({
      code: 200,
      data: { from: { kind: 'coin', available: '7.500000' }, to: { kind: 'fiat', available: '2.500000' } },
    });
    const { entryId } = (response.json() as { data: { entryId: string } }).data;
    const postings = await t.db.query<{ amount_minor: string }>('SELECT amount_minor FROM postings WHERE entry_id = $1 ORDER BY amount_minor', [BigInt(entryId)]);
    expect(postings.map((p) => p.amount_minor)).toEqual(['-2500000', '2500000']);
    expect((await checkLedger(t.db)).ok).toBe(true);
  });

  it('replays a key with the stored answer, refuses it for another request, and moves money once', async () => {
    const user = await fundedUser('replay01', 10_000_000n);
    const body = { fromAccount: 'coin', toAccount: 'defi', asset: 'USDT', amount: '1' };
    const first = await transfer(user.token, 'replay-key-1', body);
    const second = await transfer(user.token, 'replay-key-1', body);
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotency-replayed']).toBe('true');
    const other = await transfer(user.token, 'replay-key-1', { ...body, amount: '2' });
    expect(other.json()).toMatchObject({ code: 422, msg: 'idempotency key reused with different input' });
    expect((await balances(user.token)).find((a) => a.kind === 'coin' && a.asset === 'USDT')!.available).toBe('9.000000');
  });

  it('concurrent duplicates: one runs, the others get its answer or 409, money moves once', async () => {
    const user = await fundedUser('concur01', 10_000_000n);
    const body = { fromAccount: 'coin', toAccount: 'options', asset: 'USDT', amount: '3' };
    const responses = await Promise.all(Array.from({ length: 6 }, () => transfer(user.token, 'concurrent-1', body)));
    const codes = responses.map((r) => (r.json() as { code: number }).code);
    expect(codes.every((code) => code === 200 || code === 409)).toBe(true);
    expect(codes).toContain(200);
    expect((await balances(user.token)).find((a) => a.kind === 'coin' && a.asset === 'USDT')!.available).toBe('7.000000');
    const entries = await t.db.query(`SELECT 1 FROM journal_entries WHERE reason = 'transfer.internal' AND reference_id = $1`, [user.userId]);
    expect(entries).toHaveLength(1);
  });

  it('a retry after an unknown outcome (request key freed) is a replay of the entry, not a second transfer', async () => {
    const user = await fundedUser('retry0001', 10_000_000n);
    const body = { fromAccount: 'coin', toAccount: 'fiat', asset: 'USDT', amount: '1' };
    const first = await transfer(user.token, 'retry-key-0001', body);
    expect(first.json()).toMatchObject({ code: 200 });
    // What the request layer does after a 500: forget the key, so the client's retry runs again.
    await t.db.query(`DELETE FROM idempotency_requests WHERE idem_key = 'retry-key-0001'`);
    const retry = await transfer(user.token, 'retry-key-0001', body);
    expect((retry.json() as { data: { entryId: string } }).data.entryId).toBe((first.json() as { data: { entryId: string } }).data.entryId);
    expect((await balances(user.token)).find((a) => a.kind === 'coin' && a.asset === 'USDT')!.available).toBe('9.000000');
  });

  it('keys belong to their user: the same key from another user is a new request', async () => {
    const a = await fundedUser('keyowner1', 1_000_000n);
    const b = await fundedUser('keyowner2', 1_000_000n);
    const body = { fromAccount: 'coin', toAccount: 'fiat', asset: 'USDT', amount: '1' };
    expect((await transfer(a.token, 'shared-key-1', body)).json()).toMatchObject({ code: 200 });
    const fromB = await transfer(b.token, 'shared-key-1', body);
    expect(fromB.json()).toMatchObject({ code: 200 });
    expect(fromB.headers['idempotency-replayed']).toBeUndefined();
  });

  it('refuses bad input with catalogue errors and moves nothing', async () => {
    const user = await fundedUser('refused01', 1_000_000n);
    const base = { fromAccount: 'coin', toAccount: 'fiat', asset: 'USDT' };
    expect((await transfer(user.token, undefined, { ...base, amount: '1' })).json()).toMatchObject({ code: 400, msg: 'idempotency key required' });
    expect((await transfer(user.token, 'bad-amount-1', { ...base, amount: '0.0000001' })).json()).toMatchObject({ code: 400, msg: 'wrong amount' });
    expect((await transfer(user.token, 'bad-amount-2', { ...base, amount: '-1' })).json()).toMatchObject({ code: 400, msg: 'wrong amount' });
    expect((await transfer(user.token, 'bad-amount-3', { ...base, amount: '0' })).json()).toMatchObject({ code: 400, msg: 'wrong amount' });
    expect((await transfer(user.token, 'too-much-01', { ...base, amount: '1.000001' })).json()).toMatchObject({
      code: 400,
      msg: 'insufficient balance',
    });
    const noTarget = (await transfer(user.token, 'no-target-1', { fromAccount: 'coin', asset: 'USDT', amount: '1' })).json() as {
      msg: string;
      data: { fields: { field: string }[] };
    };
    expect(noTarget.msg).toBe('parameter error');
    expect(noTarget.data.fields.map((f) => f.field)).toEqual(['body.toAccount']);
    const same = (await transfer(user.token, 'same-acct-1', { ...base, toAccount: 'coin', amount: '1' })).json() as { msg: string };
    expect(same.msg).toBe('parameter error');
    // A refusal is the answer to its key: asking again gets the same refusal, even if funds arrive.
    expect((await transfer(user.token, 'too-much-01', { ...base, amount: '1.000001' })).json()).toMatchObject({ msg: 'insufficient balance' });
    expect((await balances(user.token)).find((a) => a.kind === 'coin' && a.asset === 'USDT')!.available).toBe('1.000000');
  });
});

describe('records', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists every entry touching the user, newest first, with only their postings, filtered by account and reason', async () => {
    const user = await registerViaApi(t.app, 'records01');
    const other = await registerViaApi(t.app, 'records02');
    await t.db.transaction(async (tx) => {
      const treasury = await ensurePlatformAccount(tx, 'treasury', 'USDT', { allowNegative: true });
      for (const owner of [user, other]) {
        const coin = await ensureUserAccount(tx, BigInt(owner.userId), 'coin', 'USDT');
        await postEntry(tx, { reason: 'demo.fund', memo: 'Demo balance', postings: transferPostings(treasury, coin, 'USDT', 5_000_000n), at: new Date() });
      }
    });
    const move = (key: string, toAccount: string, amount: string) =>
      t.app.inject({
        method: 'POST',
        url: '/home/assets/transfer',
        headers: { authorization: user.token, 'idempotency-key': key },
        payload: { fromAccount: 'coin', toAccount, asset: 'USDT', amount },
      });
    await move('records-move-1', 'fiat', '1');
    await move('records-move-2', 'defi', '0.5');
    const records = async (query = '') =>
      ((await t.app.inject({ url: `/home/assets/records${query}`, headers: { authorization: user.token } })).json() as {
        data: { total: number; items: { reason: string; memo: string | null; postings: { account: string; amount: string }[] }[] };
      }).data;

    const all = await records();
    expect(all.total).toBe(3);
    expect(all.items.map((item) => item.reason)).toEqual(['transfer.internal', 'transfer.internal', 'demo.fund']);
    expect(all.items[0]!.postings).toEqual([
      { account: 'coin', asset: 'USDT', bucket: 'available', amount: '-0.500000' },
      { account: 'defi', asset: 'USDT', bucket: 'available', amount: '0.500000' },
    ]);
    // The treasury's side of the funding is not the user's posting.
    expect(all.items[2]).toMatchObject({ memo: 'Demo balance', postings: [{ account: 'coin', amount: '5.000000' }] });

    expect((await records('?account=fiat')).items).toHaveLength(1);
    expect((await records('?reason=demo.fund')).total).toBe(1);
    const paged = await records('?page=2&pageSize=2');
    expect(paged.total).toBe(3);
    expect(paged.items.map((item) => item.reason)).toEqual(['demo.fund']);
    // Another user's entries never show.
    const theirs = (await t.app.inject({ url: '/home/assets/records', headers: { authorization: other.token } })).json() as { data: { total: number } };
    expect(theirs.data.total).toBe(1);
  });
});
