import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';

interface Envelope {
  code: number;
  msg: string;
  data: { symbols?: string[]; symbol?: string; fields?: Array<{ field: string }> } | null;
}

describe('watchlist', () => {
  let t: TestApp;
  let alice: { token: string; userId: string };
  let bob: { token: string; userId: string };

  const call = async (method: 'GET' | 'PUT', token: string | undefined, payload?: unknown) => {
    const response = await t.app.inject({
      method,
      url: '/home/market/watchlist',
      headers: token ? { authorization: `Bearer ${token}` } : {},
      payload: payload as Record<string, unknown> | undefined,
    });
    const body = response.json() as Envelope;
    expect(response.statusCode).toBe(body.code);
    return body;
  };
  const put = (token: string, symbols: unknown) => call('PUT', token, { symbols });
  const get = (token: string) => call('GET', token);

  beforeAll(async () => {
    t = await createTestApp();
    alice = await registerViaApi(t.app, 'alicewatch1');
    bob = await registerViaApi(t.app, 'bobwatch01');
  });
  afterAll(() => t.close());

  it('needs a session', async () => {
    expect((await call('GET', undefined)).code).toBe(401);
    expect((await call('PUT', undefined, { symbols: ['BTC/USDT'] })).code).toBe(401);
  });

  it('starts empty and keeps the order it is given', async () => {
    expect(await get(alice.token)).toMatchObject({ code: 200, data: { symbols: [] } });
    const order = ['SOL/USDT', 'BTC/USDT', 'DOGE/USDT', 'ETH/USDT'];
    expect(await put(alice.token, order)).toMatchObject({ code: 200, data: { symbols: order } });
    expect((await get(alice.token)).data?.symbols).toEqual(order);
  });

  it('is replaced as a whole, and can be emptied', async () => {
    await put(alice.token, ['ETH/USDT', 'SOL/USDT']);
    expect((await get(alice.token)).data?.symbols).toEqual(['ETH/USDT', 'SOL/USDT']);
    await put(alice.token, ['SOL/USDT', 'ETH/USDT']);
    expect((await get(alice.token)).data?.symbols).toEqual(['SOL/USDT', 'ETH/USDT']);
    await put(bob.token, ['BTC/USDT']);
    await put(bob.token, []);
    expect((await get(bob.token)).data?.symbols).toEqual([]);
  });

  it('takes only listed markets, naming the first that is not, and then changes nothing', async () => {
    await put(alice.token, ['BTC/USDT']);
    const refused = await put(alice.token, ['ETH/USDT', 'PEPE/USDT', 'WIF/USDT']);
    expect(refused).toMatchObject({ code: 404, msg: 'record does not exist', data: { symbol: 'PEPE/USDT' } });
    expect((await get(alice.token)).data?.symbols).toEqual(['BTC/USDT']);
  });

  it('refuses malformed symbols, duplicates and more than 50 with parameter error', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `C${String(i).padStart(2, '0')}/USDT`);
    for (const symbols of [['btc/usdt'], ['BTCUSDT'], ['BTC/USDT', 'BTC/USDT'], many, 'BTC/USDT', [42]]) {
      expect(await put(alice.token, symbols), JSON.stringify(symbols).slice(0, 40)).toMatchObject({ code: 400, msg: 'parameter error' });
    }
    expect(await call('PUT', alice.token, {})).toMatchObject({ code: 400 });
    expect((await get(alice.token)).data?.symbols).toEqual(['BTC/USDT']);
  });

  it('belongs to one user: another user neither sees nor changes it', async () => {
    await put(alice.token, ['XRP/USDT', 'ADA/USDT']);
    await put(bob.token, ['LTC/USDT']);
    expect((await get(alice.token)).data?.symbols).toEqual(['XRP/USDT', 'ADA/USDT']);
    expect((await get(bob.token)).data?.symbols).toEqual(['LTC/USDT']);
  });

  it('leaves out a market that is no longer listed', async () => {
    await put(bob.token, ['LTC/USDT', 'TRX/USDT']);
    // As after an operator removed a market from MARKET_SYMBOLS.
    await t.db.query(`UPDATE market_watchlists SET symbol = 'OLD/USDT' WHERE user_id = $1 AND symbol = 'LTC/USDT'`, [BigInt(bob.userId)]);
    expect((await get(bob.token)).data?.symbols).toEqual(['TRX/USDT']);
  });

  it('two replacements at once: both succeed and one of them wins whole', async () => {
    const first = ['BTC/USDT', 'ETH/USDT', 'SOL/USDT'];
    const second = ['SOL/USDT', 'BNB/USDT'];
    const answers = await Promise.all([put(alice.token, first), put(alice.token, second), put(alice.token, first), put(alice.token, second)]);
    expect(answers.map((answer) => answer.code)).toEqual([200, 200, 200, 200]);
    expect([first, second]).toContainEqual((await get(alice.token)).data?.symbols);
  });
});
