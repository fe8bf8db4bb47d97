import { transferPostings } from '@keel/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { ensurePlatformAccount, ensureUserAccount, postEntry } from '../../../src/persistence/ledger.store.ts';
import { createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';

interface Envelope<T = Record<string, unknown>> {
  code: number;
  msg: string;
  data: T;
}
interface Quote {
  quoteId: string;
  rate: string;
  midRate: string;
  fee: string;
  grossReceive: string;
  estimatedReceive: string;
  expiresAtMs: number;
  ticks: { tickId: string; price: string; source: string }[];
}

describe('swap (flash exchange): quotes, execution, expiry', () => {
  let t: TestApp;
  let nowMs = Date.parse('2026-11-22T10:00:00Z');
  beforeAll(async () => {
    t = await createTestApp({ SWAP_SPREAD_BPS: '20' }, { now: () => new Date(nowMs), market: true });
  });
  /** Records a tick through the production recorder; quotes then read it as the latest price. */
  const setPrice = (symbol: string, price: string, atMs: number) => t.market!.record([{ symbol, price, atMs }]);
  afterAll(() => t.close());

  async function fundedUser(name: string, asset: string, amountMinor: bigint) {
    const user = await registerViaApi(t.app, name);
    await t.db.transaction(async (tx) => {
      const treasury = await ensurePlatformAccount(tx, 'treasury', asset, { allowNegative: true });
      const coin = await ensureUserAccount(tx, BigInt(user.userId), 'coin', asset);
      await postEntry(tx, { reason: 'demo.fund', postings: transferPostings(treasury, coin, asset, amountMinor), at: new Date(nowMs) });
    });
    return user;
  }
  const post = async <T>(url: string, token: string, payload: unknown, key?: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: token, ...(key ? { 'idempotency-key': key } : {}) },
        payload: payload as Record<string, unknown>,
      })
    ).json() as Envelope<T>;
  const quote = (token: string, body: Record<string, unknown>) => post<Quote>('/home/assets/swap/quote', token, body);
  const execute = (token: string, quoteId: string, key: string) => post<Record<string, unknown>>('/home/assets/swap', token, { quoteId }, key);
  const balance = async (token: string, kind: string, asset: string) => {
    const response = await t.app.inject({ url: '/home/assets/accounts', headers: { authorization: token } });
    const { accounts } = (response.json() as Envelope<{ accounts: { kind: string; asset: string; available: string }[] }>).data;
    return accounts.find((a) => a.kind === kind && a.asset === asset)!.available;
  };

  it('quotes BTC → USDT with the mid rate, the spread, the 0.1 % fee and the tick it used', async () => {
    await setPrice('BTC/USDT', '90000.00000000', nowMs - 500);
    const user = await fundedUser('swapq001', 'BTC', 100_000_000n);
    const answer = await quote(user.token, { fromAsset: 'BTC', toAsset: 'USDT', amount: '1' });
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({
      account: 'coin',
      amount: '1.00000000',
      midRate: '90000.000000000000',
      rate: '89820.000000000000',
      spreadBps: 20,
      grossReceive: '89820.000000',
      fee: '89.820000',
      feeBps: 10,
      estimatedReceive: '89730.180000',
      expiresAtMs: nowMs + 10_000,
    });
    expect(answer.data.ticks).toEqual([{ tickId: expect.any(String), symbol: 'BTC/USDT', price: '90000.00000000', atMs: nowMs - 500, source: 'test' }]);
    // A quote moves no money.
    expect(await balance(user.token, 'coin', 'BTC')).toBe('1.00000000');
  });

  it('executes a quote once: one balanced entry, treasury and fees take their parts, the ledger check passes', async () => {
    await setPrice('ETH/USDT', '3000.00000000', nowMs - 100);
    const user = await fundedUser('swapx001', 'USDT', 3_000_000_000n);
    const q = (await quote(user.token, { fromAsset: 'USDT', toAsset: 'ETH', amount: '3000' })).data;
    const done = await execute(user.token, q.quoteId, 'swap-exec-0001');
    expect(done.code).toBe(200);
    expect(done.data).toMatchObject({ received: q.estimatedReceive, from: { asset: 'USDT', available: '0.000000' }, to: { asset: 'ETH', available: q.estimatedReceive } });
    const postings = await t.db.query<{ kind: string; asset: string; amount_minor: string }>(
      `SELECT a.kind, p.asset, p.amount_minor FROM postings p JOIN ledger_accounts a ON a.id = p.account_id
       WHERE p.entry_id = $1 ORDER BY p.asset, a.kind`,
      [BigInt(done.data.entryId as string)],
    );
    // Mid 1/3000 = 0.000333333333 (12 decimals, down); less 0.2 % = 0.000332666666 (down);
    // 3000 × that = 0.997999998 ETH gross; fee 0.1 % = 0.000997999998; receipt 0.997001998002.
    expect(q.rate).toBe('0.000332666666');
    expect(postings).toEqual([
      { kind: 'coin', asset: 'ETH', amount_minor: '997001998002000000' },
      { kind: 'fees', asset: 'ETH', amount_minor: '997999998000000' },
      { kind: 'treasury', asset: 'ETH', amount_minor: '-997999998000000000' },
      { kind: 'coin', asset: 'USDT', amount_minor: '-3000000000' },
      { kind: 'treasury', asset: 'USDT', amount_minor: '3000000000' },
    ]);
    // The same quote under another request key: refused (used), with a fresh quote offered.
    const again = await execute(user.token, q.quoteId, 'swap-exec-0002');
    expect(again).toMatchObject({ code: 409, msg: 'quote expired', data: { freshQuote: { fromAsset: 'USDT', toAsset: 'ETH', amount: '3000.000000' } } });
    expect(await t.db.query(`SELECT 1 FROM journal_entries WHERE reason = 'swap' AND reference_id = $1`, [q.quoteId])).toHaveLength(1);
    expect((await checkLedger(t.db)).ok).toBe(true);
  });

  it('refuses an expired quote and offers a fresh one at the current price', async () => {
    await setPrice('BTC/USDT', '90000.00000000', nowMs);
    const user = await fundedUser('swape001', 'USDT', 1_000_000_000n);
    const old = (await quote(user.token, { fromAsset: 'USDT', toAsset: 'BTC', amount: '100' })).data;
    nowMs += 10_000; // exactly at expiry: no longer valid
    await setPrice('BTC/USDT', '95000.00000000', nowMs - 200);
    const refused = await execute(user.token, old.quoteId, 'swap-expired-01');
    expect(refused.code).toBe(409);
    expect(refused.msg).toBe('quote expired');
    const fresh = (refused.data as { freshQuote: Quote }).freshQuote;
    expect(fresh.quoteId).not.toBe(old.quoteId);
    expect(fresh.ticks[0]!.price).toBe('95000.00000000');
    expect(fresh.expiresAtMs).toBe(nowMs + 10_000);
    expect(await balance(user.token, 'coin', 'USDT')).toBe('1000.000000');
    const accepted = await execute(user.token, fresh.quoteId, 'swap-expired-02');
    expect(accepted.code).toBe(200);
    expect(await balance(user.token, 'coin', 'BTC')).toBe(fresh.estimatedReceive);
  });

  it('refuses an amount with no quantity, too many decimals or too small to receive anything', async () => {
    await setPrice('BTC/USDT', '90000.00000000', nowMs);
    const user = await fundedUser('swapv001', 'USDT', 1_000_000n);
    expect((await quote(user.token, { fromAsset: 'USDT', toAsset: 'BTC', amount: '' })).msg).toBe('wrong amount');
    expect((await quote(user.token, { fromAsset: 'USDT', toAsset: 'BTC', amount: '1.0000001' })).msg).toBe('wrong amount');
    expect((await quote(user.token, { fromAsset: 'USDT', toAsset: 'BTC', amount: '0.000001' })).msg).toBe('wrong amount');
    expect((await quote(user.token, { fromAsset: 'USDT', toAsset: 'USDT', amount: '1' })).code).toBe(400);
    expect((await quote(user.token, { account: 'savings', fromAsset: 'USDT', toAsset: 'BTC', amount: '1' })).code).toBe(400);
  });

  it('answers "market price unavailable" without a recent recorded tick', async () => {
    const user = await fundedUser('swapp001', 'USDT', 1_000_000n);
    // The last ETH tick is then 31 s old (a tick dated in the past would be left out as stale).
    await setPrice('ETH/USDT', '3000.00000000', nowMs);
    nowMs += 31_000;
    const stale = await quote(user.token, { fromAsset: 'USDT', toAsset: 'ETH', amount: '1' });
    expect(stale).toMatchObject({ code: 503, msg: 'market price unavailable', data: { symbol: 'ETH/USDT' } });
  });

  it("refuses insufficient balance, and another user's quote is not found", async () => {
    await setPrice('BTC/USDT', '90000.00000000', nowMs);
    const owner = await fundedUser('swapi001', 'USDT', 5_000_000n);
    const q = (await quote(owner.token, { fromAsset: 'USDT', toAsset: 'BTC', amount: '10' })).data;
    expect(await execute(owner.token, q.quoteId, 'swap-insuff-01')).toMatchObject({ code: 400, msg: 'insufficient balance' });
    const other = await fundedUser('swapi002', 'USDT', 50_000_000n);
    expect((await execute(other.token, q.quoteId, 'swap-other-001')).code).toBe(404);
    expect(await balance(owner.token, 'coin', 'USDT')).toBe('5.000000');
  });

  it('200 concurrent swaps that each spend the whole balance: exactly one succeeds', async () => {
    await setPrice('BTC/USDT', '90000.00000000', nowMs);
    const user = await fundedUser('swaprace', 'USDT', 500_000_000n);
    const quotes: Quote[] = [];
    for (let index = 0; index < 200; index++) {
      quotes.push((await quote(user.token, { fromAsset: 'USDT', toAsset: 'BTC', amount: '500' })).data);
    }
    const answers = await Promise.all(quotes.map((q, index) => execute(user.token, q.quoteId, `swap-race-${index.toString().padStart(4, '0')}`)));
    const codes = answers.map((answer) => answer.msg);
    expect(codes.filter((msg) => msg === 'success')).toHaveLength(1);
    expect(codes.filter((msg) => msg === 'insufficient balance')).toHaveLength(199);
    expect(await balance(user.token, 'coin', 'USDT')).toBe('0.000000');
    expect(await balance(user.token, 'coin', 'BTC')).toBe(quotes[0]!.estimatedReceive);
    expect((await checkLedger(t.db)).ok).toBe(true);
  });
});
