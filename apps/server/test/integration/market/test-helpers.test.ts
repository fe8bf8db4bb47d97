import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { TestWsClient } from '../../helpers/ws-client.ts';

// The helpers other suites (swaps, browser tests) use to set known prices.
describe('createTestApp({ market: true })', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { market: true });
  });
  afterAll(() => t.close());

  it('records known prices and serves them at once as the latest ticks', async () => {
    expect(t.market?.service.latest('BTC/USDT')).toBeUndefined();
    const [btc, eth] = await t.market!.record([
      { symbol: 'BTC/USDT', price: '90000' },
      { symbol: 'ETH/USDT', price: '3000.123456789' },
    ]);
    expect(t.market!.service.latest('BTC/USDT')).toEqual(btc);
    expect(t.market!.service.latest('ETH/USDT')).toMatchObject({ tickId: eth!.tickId, price: '3000.12345678', source: 'test' });
    const tickers = (await t.app.inject({ method: 'GET', url: '/home/market/tickers' })).json();
    expect(tickers.data.items.map((item: { last: { price: string } }) => item.last.price)).toEqual(['90000.00000000', '3000.12345678']);
  });

  it('opens /ws on the app', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const client = await TestWsClient.connect(`http://127.0.0.1:${address.port}`);
    client.send({ op: 'subscribe', channels: ['ticks'], sinceTickId: '0' });
    const [subscribed] = await client.until(() => client.ofType('subscribed').length === 1 && client.ofType('subscribed'));
    expect(subscribed).toMatchObject({ replayedTicks: 2 });
    client.close();
  });
});
