import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { runTriggerPass } from '../../../src/use-cases/leverage/trigger-engine.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { call } from '../../helpers/wallet.ts';
import { leveragedBalance, leverageTrader, USDT } from './leverage-helpers.ts';

// Limit orders that open positions (issue 16): margin and fee frozen at placement, the house's
// exposure counted at once, filled by the engine on the first recorded tick that reaches the limit
// (at that tick's price with the spread, never worse than the limit), the new position judged on
// the rest of the same run, cancellation, and the race of a cancel against a fill.

let t: TestApp;
let nowMs = Date.UTC(2026, 10, 26, 12, 0, 0);
const BTC = 'BTC/USDT';

beforeAll(async () => {
  t = await createTestApp({ LEVERAGE_EXPOSURE_LIMIT_USDT: '1000000' }, { market: true, now: () => new Date(nowMs) });
});
afterAll(() => t?.close());

let names = 0;
const trader = (amount = '1000') => {
  names += 1;
  return leverageTrader(t.app, t.db, `levlimit${names}`, amount);
};
async function ticks(prices: readonly string[]) {
  const recorded = [];
  for (const price of prices) {
    nowMs += 1_000;
    recorded.push(...(await t.market!.record([{ symbol: BTC, price, atMs: nowMs }])));
  }
  return recorded;
}
const place = (token: string, body: Record<string, unknown>) =>
  call(t.app, 'POST', '/home/leverage/orders', token, { product: 'futures', symbol: BTC, side: 'long', margin: '100', leverage: 20, limitPrice: '49000', ...body });
const engine = () => runTriggerPass({ db: t.db, now: () => new Date(nowMs) });
const orders = async (token: string, scope: 'open' | 'history') => (await call(t.app, 'GET', `/home/leverage/orders?scope=${scope}`, token)).data;
async function expectLedgerHolds() {
  expect((await checkLedger(t.db)).problems).toEqual([]);
}

describe('placing a limit order', () => {
  it('freezes margin and fee, checks the terms at the limit price, and refuses like a market order', async () => {
    const user = await trader('1000');
    await ticks(['50000', '50000', '50000']);
    expect((await place(user.token, { takeProfitPrice: '48000' })).data).toMatchObject({ problem: 'take_profit_wrong_side' });
    expect((await place(user.token, { leverage: 101 })).msg).toBe('leverage not allowed for this position size');
    expect((await place(user.token, { limitPrice: '0' })).msg).toBe('wrong amount');
    expect((await place(user.token, { margin: '999' })).msg).toBe('insufficient balance');
    const placed = await place(user.token, { takeProfitPrice: '52000', stopLossPrice: '48000' });
    expect(placed.code).toBe(200);
    expect(placed.data).toMatchObject({ status: 'pending', margin: '100.000000', fee: '2.000000', notional: '2000.000000', limitPrice: '49000.00000000', positionId: null, fillTick: null });
    expect(await leveragedBalance(t.db, user.userId)).toEqual({ available: 898n * USDT, frozen: 102n * USDT });
    expect((await orders(user.token, 'open')).total).toBe(1);
    await expectLedgerHolds();
  });
});

describe('filling', () => {
  it('fills on the first tick at or below a long’s limit, at that tick’s price with the spread, and opens the position', async () => {
    const user = await trader('1000');
    await ticks(['50000', '50000', '50000']);
    const placed = await place(user.token, { limitPrice: '49000', takeProfitPrice: '52000' });
    await ticks(['49500']);
    await engine();
    expect((await orders(user.token, 'open')).total).toBe(1);
    const [crossing] = await ticks(['48900', '48000']);
    const result = await engine();
    expect(result.filled.map((each) => each.orderId)).toContain(BigInt(placed.data.id));
    const filled = (await orders(user.token, 'history')).items.find((item: { id: string }) => item.id === placed.data.id);
    expect(filled).toMatchObject({ status: 'filled', fillTick: { tickId: crossing!.tickId.toString(), price: '48900.00000000' } });
    const position = (await call(t.app, 'GET', `/home/leverage/positions/${filled.positionId}`, user.token)).data;
    // 48,900 × 1.0005 = 48,924.45: under the limit, so that.
    expect(position).toMatchObject({ status: 'open', entryPrice: '48924.45000000', margin: '100.000000', fees: '2.000000', takeProfitPrice: '52000.00000000' });
    expect(position.events[0]).toMatchObject({ kind: 'open', fee: '2.000000', tick: { tickId: crossing!.tickId.toString() } });
    expect(await leveragedBalance(t.db, user.userId)).toEqual({ available: 898n * USDT, frozen: 100n * USDT });
    // The fill's entry: the fee from the frozen margin + fee to the leverage fee account, keyed by the order.
    const postings = await t.db.query<{ kind: string; bucket: string; amount: string; key: string }>(
      `SELECT a.kind, p.bucket, p.amount_minor::text AS amount, e.idempotency_key AS key
       FROM postings p JOIN ledger_accounts a ON a.id = p.account_id JOIN journal_entries e ON e.id = p.entry_id
       WHERE p.entry_id = $1 ORDER BY p.amount_minor`,
      [filled.closeEntryId],
    );
    expect(postings).toEqual([
      { kind: 'leveraged', bucket: 'frozen', amount: '-2000000', key: `leverage.fill:${placed.data.id}` },
      { kind: 'fees', bucket: 'available', amount: '2000000', key: `leverage.fill:${placed.data.id}` },
    ]);
    await expectLedgerHolds();
  });

  it('fills never worse than the limit, and judges the new position on the rest of the same run', async () => {
    const user = await trader('1000');
    await ticks(['50000', '50000', '50000']);
    const placed = await place(user.token, { limitPrice: '49990' });
    // One run: the limit is reached at 49,980 (the spread would make it 50,004.99: the limit is
    // paid), then the market gaps to 40,000 — the new position is liquidated in the same pass.
    await ticks(['49980', '40000', '40000', '40000']);
    const result = await engine();
    expect(result.filled).toHaveLength(1);
    const order = (await orders(user.token, 'history')).items.find((item: { id: string }) => item.id === placed.data.id);
    const position = (await call(t.app, 'GET', `/home/leverage/positions/${order.positionId}`, user.token)).data;
    expect(position.entryPrice).toBe('49990.00000000');
    expect(position).toMatchObject({ status: 'liquidated', closeReason: 'liquidation' });
    expect(result.closed.map((each) => each.positionId)).toContain(BigInt(order.positionId));
    await expectLedgerHolds();
  });
});

describe('cancelling', () => {
  it('gives margin and fee back and frees the exposure; a second cancel or someone else’s is refused', async () => {
    const user = await trader('1000');
    await ticks(['50000']);
    const placed = await place(user.token, {});
    const cancelled = await call(t.app, 'POST', `/home/leverage/orders/${placed.data.id}/cancel`, user.token);
    expect(cancelled.data).toMatchObject({ status: 'cancelled', positionId: null });
    expect(cancelled.data.closeEntryId).not.toBeNull();
    expect(await leveragedBalance(t.db, user.userId)).toEqual({ available: 1000n * USDT, frozen: 0n });
    expect((await call(t.app, 'POST', `/home/leverage/orders/${placed.data.id}/cancel`, user.token)).msg).toBe('the order is not in a state for this step');
    const other = await trader('10');
    expect((await call(t.app, 'POST', `/home/leverage/orders/${placed.data.id}/cancel`, other.token)).msg).toBe('record does not exist');
    await expectLedgerHolds();
  });

  it('a cancel and a fill at the same time: one of them, once', async () => {
    const user = await trader('1000');
    await ticks(['50000', '50000', '50000']);
    const placed = await place(user.token, { limitPrice: '49500' });
    await ticks(['49000']);
    const [cancel] = await Promise.all([call(t.app, 'POST', `/home/leverage/orders/${placed.data.id}/cancel`, user.token), engine()]);
    const after = (await orders(user.token, 'history')).items.find((item: { id: string }) => item.id === placed.data.id);
    if (cancel.code === 200) {
      expect(after.status).toBe('cancelled');
      expect(await leveragedBalance(t.db, user.userId)).toEqual({ available: 1000n * USDT, frozen: 0n });
    } else {
      expect([cancel.msg, after.status]).toEqual(['the order is not in a state for this step', 'filled']);
      expect(await leveragedBalance(t.db, user.userId)).toEqual({ available: 898n * USDT, frozen: 100n * USDT });
    }
    await expectLedgerHolds();
  });
});

describe('the exposure limit', () => {
  it('counts a pending order at once: an order that would pass the limit is refused at placement', async () => {
    const limited = await createTestApp({ LEVERAGE_EXPOSURE_LIMIT_USDT: '3000' }, { market: true, now: () => new Date(nowMs) });
    try {
      const user = await leverageTrader(limited.app, limited.db, 'levlimitexp1', '1000');
      await limited.market!.record([{ symbol: BTC, price: '50000', atMs: nowMs }]);
      const body = { product: 'futures', symbol: BTC, side: 'long', margin: '100', leverage: 20, limitPrice: '49000' };
      expect((await call(limited.app, 'POST', '/home/leverage/orders', user.token, body)).code).toBe(200);
      expect((await call(limited.app, 'POST', '/home/leverage/positions', user.token, body)).msg).toBe('position limit of this market reached');
      expect((await call(limited.app, 'POST', '/home/leverage/orders', user.token, body)).msg).toBe('position limit of this market reached');
      expect((await checkLedger(limited.db)).problems).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});
