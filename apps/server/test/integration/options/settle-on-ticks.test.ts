import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call } from '../../helpers/wallet.ts';
import { optionsTrader } from './options-helpers.ts';

// Issue 15: an order settles on the first recorded tick at or after its expiry, and the settler
// runs as soon as the node takes in new ticks, not at its next round. Its round here is a minute,
// so an order settled within the test's seconds was settled because the tick woke the settler.
let t: TestApp;
let nowMs = Date.UTC(2026, 10, 25, 12, 0, 0);

beforeAll(async () => {
  t = await createTestApp({ OPTIONS_PRODUCTS: '30/80/10/5000' }, { market: true, now: () => new Date(nowMs), optionsSettleIntervalMs: 60_000 });
});
afterAll(() => t?.close());

describe('the settler wakes on new ticks', () => {
  it('settles an expired order once its closing tick is recorded', async () => {
    const user = await optionsTrader(t.app, t.db, 'settlewake1', '100');
    await t.market!.record([{ symbol: 'BTC/USDT', price: '50000', atMs: nowMs }]);
    const placed = await call(t.app, 'POST', '/home/options/orders', user.token, { symbol: 'BTC/USDT', direction: 'up', cycleSeconds: 30, amount: '10' });
    expect(placed.code).toBe(200);
    // The settler's first round has run (at start): the order is open, with no closing tick yet.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await call(t.app, 'GET', `/home/options/orders/${placed.data.id}`, user.token)).data.status).toBe('open');

    nowMs = (placed.data.expiresAtMs as number) + 1_000;
    await t.market!.record([{ symbol: 'BTC/USDT', price: '50001', atMs: nowMs }]);
    await vi.waitFor(
      async () => expect((await call(t.app, 'GET', `/home/options/orders/${placed.data.id}`, user.token)).data).toMatchObject({ status: 'won', actualProfit: '8.000000' }),
      { timeout: 5_000, interval: 50 },
    );
  });
});
