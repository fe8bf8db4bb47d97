import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { settleDueOptionOrders } from '../../../src/use-cases/options/settle-option-orders.ts';
import { createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';
import { call, verifyUser } from '../../helpers/wallet.ts';
import { fundOptions, houseBalance, optionsBalance, optionsTrader, USDT } from './options-helpers.ts';

// Contracts end to end on a real database (issue 7): placing with every refusal, settlement from
// recorded ticks (win, loss, flat, void, the closing-tick rule), exactly-once, and the race of a
// user's concurrent orders against one balance.

let t: TestApp;
// The app's clock: tests move it; ticks are recorded with times on it.
let nowMs = Date.UTC(2026, 10, 22, 12, 0, 0);
const BTC = 'BTC/USDT';
const ETH = 'ETH/USDT';

beforeAll(async () => {
  t = await createTestApp({ OPTIONS_PRODUCTS: '30/80/10/5000,60/82/10/10000,120/85/10/20000/off' }, { market: true, now: () => new Date(nowMs) });
});
afterAll(() => t?.close());

let names = 0;
const trader = (amount = '1000') => {
  names += 1;
  return optionsTrader(t.app, t.db, `opt${names}trader`, amount);
};
const tick = (symbol: string, price: string, atMs = nowMs) => t.market!.record([{ symbol, price, atMs }]);
const place = (token: string, body: Record<string, unknown>) => call(t.app, 'POST', '/home/options/orders', token, { symbol: BTC, direction: 'up', cycleSeconds: 30, amount: '100', ...body });
const settle = () => settleDueOptionOrders({ db: t.db, now: () => new Date(nowMs), config: t.config });
const order = async (token: string, id: string) => (await call(t.app, 'GET', `/home/options/orders/${id}`, token)).data;

describe('the overview', () => {
  it('publishes the products, markets, the rule and where the user stands', async () => {
    const { token, userId } = await registerViaApi(t.app, 'optoverview1');
    const before = await call(t.app, 'GET', '/home/options/overview', token);
    expect(before.code).toBe(200);
    expect(before.data.products).toEqual([
      { cycleSeconds: 30, yieldPercent: '80.00', yieldBps: 8000, minStake: '10.000000', maxStake: '5000.000000', enabled: true },
      { cycleSeconds: 60, yieldPercent: '82.00', yieldBps: 8200, minStake: '10.000000', maxStake: '10000.000000', enabled: true },
      { cycleSeconds: 120, yieldPercent: '85.00', yieldBps: 8500, minStake: '10.000000', maxStake: '20000.000000', enabled: false },
    ]);
    expect(before.data.symbols).toContain(BTC);
    expect(before.data.rule).toEqual({ closeTickMaxDelayMs: 10_000, openTickMaxAgeMs: 5_000 });
    expect(before.data).toMatchObject({ identityVerified: false, disclosure: { version: 1, acceptedAt: null }, balance: { available: '0.000000' } });

    await verifyUser(t.db, userId);
    await fundOptions(t.db, userId, '25.5');
    expect((await call(t.app, 'POST', '/home/options/disclosure', token, { version: 2 })).msg).toBe('parameter error');
    const accepted = await call(t.app, 'POST', '/home/options/disclosure', token, { version: 1 });
    nowMs += 1000;
    const again = await call(t.app, 'POST', '/home/options/disclosure', token, { version: 1 });
    expect(again.data.acceptedAt).toBe(accepted.data.acceptedAt);
    const after = await call(t.app, 'GET', '/home/options/overview', token);
    expect(after.data).toMatchObject({ identityVerified: true, disclosure: { acceptedAt: accepted.data.acceptedAt }, balance: { available: '25.500000', frozen: '0.000000' } });
  });
});

describe('placing an order', () => {
  it('refuses each rule with its catalogue error and leaves nothing behind', async () => {
    await tick(BTC, '50000');
    const unverified = await registerViaApi(t.app, 'optunverified1');
    expect((await place(unverified.token, {})).msg).toBe('identity verification required');

    const noDisclosure = await registerViaApi(t.app, 'optnodisclose1');
    await verifyUser(t.db, noDisclosure.userId);
    await fundOptions(t.db, noDisclosure.userId, '1000');
    const refusedDisclosure = await place(noDisclosure.token, {});
    expect(refusedDisclosure).toMatchObject({ code: 400, msg: 'risk disclosure not accepted', data: { version: 1 } });

    const user = await trader('50');
    const cases: [Record<string, unknown>, string, unknown?][] = [
      [{ cycleSeconds: 45 }, 'product does not exist'],
      [{ symbol: 'XYZ/USDT' }, 'product does not exist'],
      [{ cycleSeconds: 120 }, 'trading is closed for this product', { cycleSeconds: 120 }],
      [{ amount: '9.999999' }, 'amount out of range', { problem: 'below_min', min: '10.000000', max: '5000.000000' }],
      [{ amount: '5000.000001' }, 'amount out of range', { problem: 'above_max' }],
      [{ amount: '10.0000001' }, 'wrong amount'],
      [{ amount: '-10' }, 'wrong amount'],
      [{ amount: '60' }, 'insufficient balance'],
      [{ direction: 'sideways' }, 'parameter error'],
    ];
    for (const [body, msg, data] of cases) {
      const answer = await place(user.token, body);
      expect(answer.msg, JSON.stringify(body)).toBe(msg);
      if (data) expect(answer.data).toMatchObject(data as object);
    }
    const noKey = await call(t.app, 'POST', '/home/options/orders', user.token, { symbol: BTC, direction: 'up', cycleSeconds: 30, amount: '10' }, null);
    expect(noKey.msg).toBe('idempotency key required');

    // A stale opening price: the last tick is older than OPTIONS_OPEN_TICK_MAX_AGE_MS.
    nowMs += 5_001;
    expect(await place(user.token, { amount: '10' })).toMatchObject({ code: 503, msg: 'market price unavailable' });
    // A tick from a source whose clock runs more than 2 s ahead is not an opening price either.
    await tick(BTC, '50000', nowMs + 2_001);
    expect(await place(user.token, { amount: '10' })).toMatchObject({ code: 503, msg: 'market price unavailable' });
    nowMs += 1;
    expect((await place(user.token, { amount: '10' })).code).toBe(200);
    nowMs += 10_000;
    await tick(BTC, '50000');

    // Only the one accepted order froze anything.
    expect(await optionsBalance(t.db, user.userId)).toEqual({ available: 40n * USDT, frozen: 10n * USDT });
    const [count] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM option_orders WHERE user_id = ANY($1::bigint[])', [[user.userId, noDisclosure.userId]]);
    expect(count!.n).toBe(1);
  });

  it('freezes the stake as a hold and opens at the last recorded tick, shown on the order', async () => {
    const user = await trader();
    const [opening] = await tick(BTC, '50123.45');
    const placedAtMs = nowMs;
    const answer = await place(user.token, { amount: '100' });
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({
      symbol: BTC,
      direction: 'up',
      cycleSeconds: 30,
      yieldPercent: '80.00',
      stake: '100.000000',
      expectedProfit: '80.000000',
      status: 'open',
      actualProfit: null,
      placedAtMs,
      expiresAtMs: placedAtMs + 30_000,
      closeTick: null,
      settleEntryId: null,
      openTick: { tickId: opening!.tickId.toString(), price: '50123.45000000', atMs: opening!.atMs, source: 'test' },
    });
    expect(answer.data.orderNo).toMatch(/^C20261122\d{8}$/);
    expect(await optionsBalance(t.db, user.userId)).toEqual({ available: 900n * USDT, frozen: 100n * USDT });
    const [hold] = await t.db.query<{ status: string; amount_minor: string; reference_type: string }>(
      'SELECT h.status, h.amount_minor::text, h.reference_type FROM ledger_holds h JOIN option_orders o ON o.hold_id = h.id WHERE o.id = $1',
      [answer.data.id],
    );
    expect(hold).toEqual({ status: 'open', amount_minor: '100000000', reference_type: 'option_order' });
    const open = await call(t.app, 'GET', '/home/options/orders?scope=open', user.token);
    expect(open.data.items.map((item: { id: string }) => item.id)).toEqual([answer.data.id]);
    // Nothing settles before expiry, however many ticks arrive.
    nowMs += 29_999;
    await tick(BTC, '60000');
    expect((await settle()).filter((settled) => settled.orderId.toString() === answer.data.id)).toEqual([]);
    expect((await order(user.token, answer.data.id)).status).toBe('open');
  });
});

describe('settlement from recorded ticks', () => {
  /** Places an order at `open`, moves past expiry and records `closes` (time offsets from expiry). */
  async function scenario(direction: 'up' | 'down', open: string, closes: [string, number][], amount = '100') {
    const user = await trader();
    await tick(BTC, open);
    const placed = await place(user.token, { direction, amount });
    expect(placed.code).toBe(200);
    const expiresAtMs = placed.data.expiresAtMs as number;
    nowMs = expiresAtMs;
    for (const [price, offsetMs] of closes) await tick(BTC, price, expiresAtMs + offsetMs);
    nowMs = expiresAtMs + 1_000;
    await settle();
    return { user, settled: await order(user.token, placed.data.id), expiresAtMs };
  }

  it('an up order above the open wins: stake back plus 80 %, paid by the house', async () => {
    const houseBefore = await houseBalance(t.db);
    const { user, settled, expiresAtMs } = await scenario('up', '50000', [['50000.00000001', 0]]);
    expect(settled).toMatchObject({ status: 'won', actualProfit: '80.000000', closeTick: { price: '50000.00000001', atMs: expiresAtMs, source: 'test' } });
    expect(settled.settleEntryId).not.toBeNull();
    expect(await optionsBalance(t.db, user.userId)).toEqual({ available: 1080n * USDT, frozen: 0n });
    expect((await houseBalance(t.db)) - houseBefore).toBe(-80n * USDT);
    // The user sees the settlement entry among their records, with the order as its reference.
    const records = await call(t.app, 'GET', '/home/assets/records?account=options', user.token);
    const entry = records.data.items.find((item: { entryId: string }) => item.entryId === settled.settleEntryId);
    expect(entry).toMatchObject({ reason: 'options.settle', referenceType: 'option_order', referenceId: settled.id });
  });

  it('an up order below the open loses the stake to the house', async () => {
    const houseBefore = await houseBalance(t.db);
    const { user, settled } = await scenario('up', '50000', [['49999.99', 0]]);
    expect(settled).toMatchObject({ status: 'lost', actualProfit: '-100.000000' });
    expect(await optionsBalance(t.db, user.userId)).toEqual({ available: 900n * USDT, frozen: 0n });
    expect((await houseBalance(t.db)) - houseBefore).toBe(100n * USDT);
  });

  it('a down order wins below the open and loses above it', async () => {
    expect((await scenario('down', '3000', [['2999', 5]])).settled.status).toBe('won');
    expect((await scenario('down', '3000', [['3001', 5]])).settled.status).toBe('lost');
  });

  it('an equal close is flat for either direction and returns the stake', async () => {
    for (const direction of ['up', 'down'] as const) {
      const houseBefore = await houseBalance(t.db);
      const { user, settled } = await scenario(direction, '50000', [['50000', 0]]);
      expect(settled).toMatchObject({ status: 'flat', actualProfit: '0.000000' });
      expect(await optionsBalance(t.db, user.userId)).toEqual({ available: 1000n * USDT, frozen: 0n });
      expect(await houseBalance(t.db)).toBe(houseBefore);
    }
  });

  it('rounds a fractional payout down to the micro-USDT', async () => {
    // 12.345679 × 80 % = 9.8765432 → 9.876543
    const { user, settled } = await scenario('up', '100', [['101', 0]], '12.345679');
    expect(settled.actualProfit).toBe('9.876543');
    expect(await optionsBalance(t.db, user.userId)).toEqual({ available: 1_009_876_543n, frozen: 0n });
  });

  it('closes at the FIRST tick recorded at or after expiry; earlier and later ones do not count', async () => {
    const user = await trader();
    await tick(BTC, '50000');
    const placed = await place(user.token, {});
    const expiresAtMs = placed.data.expiresAtMs as number;
    nowMs = expiresAtMs + 2_000;
    await tick(BTC, '99999', expiresAtMs - 1); // before expiry: not the close
    await tick(ETH, '1', expiresAtMs); // another market
    const [close] = await tick(BTC, '49000', expiresAtMs + 700); // the first at or after expiry: a loss
    await tick(BTC, '51000', expiresAtMs + 800); // later: would have been a win
    await settle();
    const settled = await order(user.token, placed.data.id);
    expect(settled).toMatchObject({ status: 'lost', closeTick: { tickId: close!.tickId.toString(), price: '49000.00000000', atMs: expiresAtMs + 700 } });
  });

  it('waits while no closing tick is recorded, and voids when the first one came too late', async () => {
    const user = await trader();
    await tick(BTC, '50000');
    const placed = await place(user.token, {});
    const expiresAtMs = placed.data.expiresAtMs as number;
    nowMs = expiresAtMs + 30_000;
    expect(await settle()).toEqual([]);
    expect((await order(user.token, placed.data.id)).status).toBe('open');
    // The first tick after expiry was observed 10.001 s after it: no price at expiry.
    await tick(BTC, '90000', expiresAtMs + 10_001);
    await settle();
    expect(await order(user.token, placed.data.id)).toMatchObject({ status: 'void', actualProfit: '0.000000', closeTick: { price: '90000.00000000' } });
    expect(await optionsBalance(t.db, user.userId)).toEqual({ available: 1000n * USDT, frozen: 0n });
  });

  it('voids an order for which no tick is recorded at all once the wait is over', async () => {
    const user = await trader();
    await tick(ETH, '3000');
    const placed = await place(user.token, { symbol: ETH });
    const expiresAtMs = placed.data.expiresAtMs as number;
    nowMs = expiresAtMs + 10_000 + 60_000 - 1;
    await settle();
    expect((await order(user.token, placed.data.id)).status).toBe('open');
    nowMs += 1;
    await settle();
    expect(await order(user.token, placed.data.id)).toMatchObject({ status: 'void', closeTick: null, actualProfit: '0.000000' });
    expect(await optionsBalance(t.db, user.userId)).toEqual({ available: 1000n * USDT, frozen: 0n });
  });

  it('settles each order exactly once with two settlers at work, and the ledger check passes', async () => {
    const users = await Promise.all([trader(), trader(), trader()]);
    await tick(BTC, '50000');
    const placed = [];
    for (const user of users) for (const direction of ['up', 'down'] as const) placed.push(await place(user.token, { direction, amount: '10' }));
    const expiresAtMs = Math.max(...placed.map((answer) => answer.data.expiresAtMs as number));
    nowMs = expiresAtMs;
    await tick(BTC, '50001', expiresAtMs);
    nowMs += 1;
    const [first, second] = await Promise.all([settle(), settle()]);
    const ids = placed.map((answer) => answer.data.id);
    const settledIds = [...first!, ...second!].map((item) => item.orderId.toString()).filter((id) => ids.includes(id));
    expect(settledIds.sort()).toEqual([...ids].sort());
    expect(await settle()).toEqual([]);
    const [entries] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM journal_entries WHERE reason = 'options.settle' AND reference_id = ANY($1::text[])`,
      [ids],
    );
    expect(entries!.n).toBe(ids.length);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('lists settled orders newest first in the history', async () => {
    const { user, settled } = await scenario('up', '50000', [['50001', 0]]);
    const history = await call(t.app, 'GET', '/home/options/orders?scope=history', user.token);
    expect(history.data).toMatchObject({ total: 1, items: [{ id: settled.id, status: 'won' }] });
    expect((await call(t.app, 'GET', '/home/options/orders?scope=open', user.token)).data.total).toBe(0);
    // Another user's order is not there for them.
    const other = await trader();
    expect((await call(t.app, 'GET', `/home/options/orders/${settled.id}`, other.token)).msg).toBe('record does not exist');
  });
});

describe('concurrency', () => {
  it('a user’s concurrent orders never freeze more than the balance', async () => {
    const user = await trader('105');
    await tick(BTC, '50000');
    const answers = await Promise.all(Array.from({ length: 20 }, () => place(user.token, { amount: '10' })));
    expect(answers.filter((answer) => answer.code === 200)).toHaveLength(10);
    expect(answers.filter((answer) => answer.msg === 'insufficient balance')).toHaveLength(10);
    expect(await optionsBalance(t.db, user.userId)).toEqual({ available: 5n * USDT, frozen: 100n * USDT });
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('answers a replayed Idempotency-Key with the first order and freezes once', async () => {
    const user = await trader('100');
    await tick(BTC, '50000');
    const body = { symbol: BTC, direction: 'up', cycleSeconds: 30, amount: '40' };
    const first = await call(t.app, 'POST', '/home/options/orders', user.token, body, 'options-key-1');
    const replay = await call(t.app, 'POST', '/home/options/orders', user.token, body, 'options-key-1');
    expect(replay.data.id).toBe(first.data.id);
    expect(await optionsBalance(t.db, user.userId)).toEqual({ available: 60n * USDT, frozen: 40n * USDT });
  });
});

describe('orders are evidence', () => {
  it('the database refuses to edit an opening, to edit a settled order, to reopen or to delete one', async () => {
    const { user } = { user: await trader() };
    await tick(BTC, '50000');
    const open = await place(user.token, {});
    await expect(t.db.query(`UPDATE option_orders SET open_price = 1 WHERE id = $1`, [open.data.id])).rejects.toThrow(/opening of option order/);
    await expect(t.db.query(`UPDATE option_orders SET expires_at_ms = expires_at_ms - 1000, placed_at_ms = placed_at_ms - 1000 WHERE id = $1`, [open.data.id])).rejects.toThrow(
      /opening of option order/,
    );
    await expect(t.db.query(`DELETE FROM option_orders WHERE id = $1`, [open.data.id])).rejects.toThrow(/cannot be deleted/);
    nowMs = (open.data.expiresAtMs as number) + 1;
    await tick(BTC, '50001', nowMs);
    await settle();
    await expect(t.db.query(`UPDATE option_orders SET status = 'lost' WHERE id = $1`, [open.data.id])).rejects.toThrow(/settled and cannot change/);
    await expect(t.db.query(`UPDATE option_orders SET close_price = 1 WHERE id = $1`, [open.data.id])).rejects.toThrow(/settled and cannot change/);
    await expect(t.db.query(`UPDATE market_ticks SET price = 1 WHERE symbol = 'BTC/USDT'`)).rejects.toThrow(/cannot be changed/);
  });
});
