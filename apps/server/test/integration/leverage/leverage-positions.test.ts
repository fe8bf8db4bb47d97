import { liquidationPriceMinor, markPriceAt, parseAmount, parsePriceMinor } from '@keel/domain';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/persistence/ledger-check.ts';
import { runTriggerPass } from '../../../src/use-cases/leverage/trigger-engine.ts';
import { createTestApp, registerViaApi, type TestApp } from '../../helpers/test-app.ts';
import { call, fund, verifyUser } from '../../helpers/wallet.ts';
import { leveragedBalance, leverageTrader, platformBalance, USDT } from './leverage-helpers.ts';

// Leveraged and futures positions end to end on a real database (issue 16): opening with every
// refusal, closing, take-profit, stop-loss and liquidation from recorded ticks only (a gap past the
// liquidation price borne by the insurance fund), margin changes, the house's exposure limit,
// idempotency, and the races of a user's orders against one balance and of a close against a trigger.

let t: TestApp;
let nowMs = Date.UTC(2026, 10, 26, 12, 0, 0);
const BTC = 'BTC/USDT';
const ETH = 'ETH/USDT';

beforeAll(async () => {
  t = await createTestApp({}, { market: true, now: () => new Date(nowMs) });
});
afterAll(() => t?.close());

let names = 0;
const trader = (amount = '1000') => {
  names += 1;
  return leverageTrader(t.app, t.db, `lev${names}trader`, amount);
};
/** Records ticks one second apart, ending at the app's clock, and moves the clock past them. */
async function ticks(symbol: string, prices: readonly string[]) {
  const recorded = [];
  for (const price of prices) {
    nowMs += 1_000;
    recorded.push(...(await t.market!.record([{ symbol, price, atMs: nowMs }])));
  }
  return recorded;
}
const open = (token: string, body: Record<string, unknown>, key?: string) =>
  call(t.app, 'POST', '/home/leverage/positions', token, { product: 'futures', symbol: BTC, side: 'long', margin: '100', leverage: 20, ...body }, key);
const position = async (token: string, id: string) => (await call(t.app, 'GET', `/home/leverage/positions/${id}`, token)).data;
const engine = async () => (await runTriggerPass({ db: t.db, now: () => new Date(nowMs) })).closed;
const usdt = (text: string) => parseAmount(text, 6);

async function expectLedgerHolds() {
  const check = await checkLedger(t.db);
  expect(check.problems).toEqual([]);
}

describe('the overview', () => {
  it('publishes the products with their brackets, the rules, the marks and where the user stands', async () => {
    const { token, userId } = await registerViaApi(t.app, 'levoverview1');
    await ticks(BTC, ['50000', '50100', '49900']);
    const before = await call(t.app, 'GET', '/home/leverage/overview', token);
    expect(before.code).toBe(200);
    expect(before.data.products.map((product: { product: string; maxLeverage: number }) => [product.product, product.maxLeverage])).toEqual([
      ['leveraged', 10],
      ['futures', 100],
    ]);
    expect(before.data.products[1].brackets[1]).toEqual({ upTo: '250000.000000', maxLeverage: 50, maintenanceRatePercent: '1.00', maintenanceAmount: '250.000000' });
    expect(before.data.rules).toMatchObject({
      tradingFeePercent: '0.10',
      openSpreadPercent: '0.05',
      liquidationFeePercent: '0.50',
      markPrice: { ticks: 5, windowMs: 30_000, minTicks: 3 },
      fundingIntervalHours: 8,
      exposureLimit: '5000000.000000',
    });
    // The mark is the median of the last recorded ticks, and names them.
    const mark = before.data.marks.find((each: { symbol: string }) => each.symbol === BTC);
    expect(mark.price).toBe('50000.00000000');
    expect(mark.tickIds).toHaveLength(3);
    expect(before.data).toMatchObject({ identityVerified: false, disclosure: { version: 1, acceptedAt: null }, balance: { available: '0.000000' } });
    await verifyUser(t.db, userId);
    expect((await call(t.app, 'POST', '/home/leverage/disclosure', token, { version: 2 })).msg).toBe('parameter error');
    await call(t.app, 'POST', '/home/leverage/disclosure', token, { version: 1 });
    const after = await call(t.app, 'GET', '/home/leverage/overview', token);
    expect(after.data).toMatchObject({ identityVerified: true, disclosure: { version: 1 } });
    expect(after.data.disclosure.acceptedAt).not.toBeNull();
  });
});

describe('opening a position', () => {
  it('refuses each rule with its catalogue error and leaves nothing behind', async () => {
    await ticks(BTC, ['50000']);
    const unverified = await registerViaApi(t.app, 'levrefuse0');
    expect((await open(unverified.token, {})).msg).toBe('identity verification required');
    await verifyUser(t.db, unverified.userId);
    expect((await open(unverified.token, {})).msg).toBe('risk disclosure not accepted');

    const user = await trader('150');
    expect((await open(user.token, { symbol: 'XYZ/USDT' })).msg).toBe('product does not exist');
    expect((await open(user.token, { product: 'options' })).msg).toBe('parameter error');
    expect((await open(user.token, { margin: '-5' })).msg).toBe('wrong amount');
    expect((await open(user.token, { margin: '1.0000001' })).msg).toBe('wrong amount');
    const tooHigh = await open(user.token, { leverage: 101 });
    expect(tooHigh.msg).toBe('leverage not allowed for this position size');
    expect(tooHigh.data).toMatchObject({ problem: 'leverage_out_of_range', maxLeverage: 100 });
    expect((await open(user.token, { product: 'leveraged', leverage: 11 })).data).toMatchObject({ maxLeverage: 10 });
    // 5,000 × 60 = 300,000 USDT falls in the 20x bracket.
    expect((await open(user.token, { margin: '5000', leverage: 60 })).data).toMatchObject({ problem: 'leverage_above_bracket', maxLeverage: 20 });
    expect((await open(user.token, { takeProfitPrice: '49000' })).data).toMatchObject({ problem: 'take_profit_wrong_side' });
    expect((await open(user.token, { stopLossPrice: '30000' })).data).toMatchObject({ problem: 'stop_loss_beyond_liquidation' });
    expect((await open(user.token, { margin: '149' })).msg).toBe('insufficient balance');
    nowMs += 10_000;
    expect((await open(user.token, {})).msg).toBe('market price unavailable');

    const listed = await call(t.app, 'GET', '/home/leverage/positions', user.token);
    expect(listed.data.total).toBe(0);
    expect(await leveragedBalance(t.db, user.userId)).toEqual({ available: 150n * USDT, frozen: 0n });
    await expectLedgerHolds();
  });

  it('opens a 20x futures long at the recorded price plus the spread, holds the margin and charges the fee', async () => {
    const user = await trader('1000');
    const [tick] = await ticks(BTC, ['50000']);
    const feesBefore = await platformBalance(t.db, 'fees', 'leverage');
    const opened = await open(user.token, { takeProfitPrice: '51000', stopLossPrice: '49000' });
    expect(opened.code).toBe(200);
    expect(opened.data).toMatchObject({
      product: 'futures',
      side: 'long',
      leverage: 20,
      status: 'open',
      entryPrice: '50025.00000000',
      // 2,000 USDT ÷ 50,025, rounded down to 8 decimals.
      quantity: '0.03998000',
      entryNotional: '2000.000000',
      initialMargin: '100.000000',
      margin: '100.000000',
      fees: '2.000000',
      takeProfitPrice: '51000.00000000',
      stopLossPrice: '49000.00000000',
      openTick: { tickId: tick!.tickId.toString(), price: '50000.00000000', source: tick!.source },
    });
    expect(opened.data.positionNo).toMatch(/^F20261126\d{8}$/);
    const expectedLiquidation = liquidationPriceMinor({
      product: 'futures',
      side: 'long',
      quantityMinor: 3_998_000n,
      entryPriceMinor: parsePriceMinor('50025'),
      marginMinor: 100n * USDT,
    });
    expect(parsePriceMinor(opened.data.liquidationPrice)).toBe(expectedLiquidation);
    expect(opened.data.events).toEqual([
      expect.objectContaining({ kind: 'open', price: '50025.00000000', fee: '2.000000', marginChange: '100.000000', tick: expect.objectContaining({ tickId: tick!.tickId.toString() }) }),
    ]);
    expect(await leveragedBalance(t.db, user.userId)).toEqual({ available: 898n * USDT, frozen: 100n * USDT });
    expect((await platformBalance(t.db, 'fees', 'leverage')) - feesBefore).toBe(2n * USDT);
    // One journal entry: the margin frozen and the fee paid together.
    const [entry] = await t.db.query<{ reason: string; postings: number }>(
      'SELECT e.reason, (SELECT count(*)::int FROM postings p WHERE p.entry_id = e.id) AS postings FROM journal_entries e WHERE e.id = $1',
      [opened.data.events[0].entryId],
    );
    expect(entry).toEqual({ reason: 'leverage.open', postings: 3 });
    await expectLedgerHolds();
  });

  it('answers a retry under the same key with the first position, and opens nothing more', async () => {
    const user = await trader('1000');
    await ticks(BTC, ['50000']);
    const key = randomUUID();
    const first = await open(user.token, {}, key);
    const again = await open(user.token, {}, key);
    expect(again.data).toEqual(first.data);
    expect((await call(t.app, 'GET', '/home/leverage/positions', user.token)).data.total).toBe(1);
  });
});

describe('closing', () => {
  it('closes part of a position and then the rest at the last recorded price, the fee on each closing notional', async () => {
    const user = await trader('1000');
    await ticks(BTC, ['50000']);
    const opened = await open(user.token, {});
    await ticks(BTC, ['51000']);
    const part = await call(t.app, 'POST', `/home/leverage/positions/${opened.data.id}/close`, user.token, { quantity: '0.01' });
    expect(part.code).toBe(200);
    // 0.01 of 0.03998: a quarter of the margin rounded down (25.012506), PnL 0.01 × 975 = 9.75,
    // fee 0.1 % of 510 = 0.51.
    expect(part.data).toMatchObject({ status: 'open', quantity: '0.02998000', margin: '74.987494', realizedPnl: '9.750000' });
    expect(part.data.events.at(-1)).toMatchObject({ kind: 'close', quantity: '0.01000000', price: '51000.00000000', pnl: '9.750000', fee: '0.510000', payout: '34.252506' });
    expect((await call(t.app, 'POST', `/home/leverage/positions/${opened.data.id}/close`, user.token, { quantity: '1' })).msg).toBe('amount out of range');
    const rest = await call(t.app, 'POST', `/home/leverage/positions/${opened.data.id}/close`, user.token, { quantity: null });
    expect(rest.data).toMatchObject({ status: 'closed', closeReason: 'user', quantity: '0.00000000', margin: '0.000000' });
    // 0.02998 × 975 = 29.2305; fee 0.1 % of 1,528.98 = 1.52898.
    expect(rest.data.events.at(-1)).toMatchObject({ kind: 'close', pnl: '29.230500', fee: '1.528980' });
    expect(rest.data.realizedPnl).toBe('38.980500');
    expect((await call(t.app, 'POST', `/home/leverage/positions/${opened.data.id}/close`, user.token, {})).msg).toBe('the order is not in a state for this step');
    // 1,000 − 102 + 34.252506 + (74.987494 + 29.2305 − 1.52898)
    expect(await leveragedBalance(t.db, user.userId)).toEqual({ available: usdt('1034.941520'), frozen: 0n });
    await expectLedgerHolds();
  });
});

describe('triggers from recorded ticks', () => {
  it('fills a take-profit at the first tick that crosses it, at that tick’s price', async () => {
    const user = await trader('1000');
    await ticks(BTC, ['50000', '50000', '50000']);
    const opened = await open(user.token, { takeProfitPrice: '51000', stopLossPrice: '49000' });
    const [, crossing] = await ticks(BTC, ['50500', '51200', '51500']);
    const closed = await engine();
    expect(closed).toContainEqual({ positionId: BigInt(opened.data.id), userId: BigInt(user.userId), status: 'closed' });
    const after = await position(user.token, opened.data.id);
    expect(after).toMatchObject({ status: 'closed', closeReason: 'take_profit' });
    // 0.03998 × (51,200 − 50,025) = 46.9765; fee 0.1 % of 2,046.976 = 2.046976.
    expect(after.events.at(-1)).toMatchObject({
      kind: 'take_profit',
      price: '51200.00000000',
      pnl: '46.976500',
      fee: '2.046976',
      payout: '144.929524',
      tick: { tickId: crossing!.tickId.toString(), price: '51200.00000000' },
    });
    // The engine acts once: another pass finds nothing more to do.
    await ticks(BTC, ['52000']);
    expect((await engine()).filter((each) => each.positionId === BigInt(opened.data.id))).toEqual([]);
    expect(await leveragedBalance(t.db, user.userId)).toEqual({ available: usdt('1042.929524'), frozen: 0n });
    await expectLedgerHolds();
  });

  it('fills a short’s stop-loss at the crossing tick’s price, even past the stop', async () => {
    const user = await trader('1000');
    await ticks(ETH, ['3000', '3000', '3000']);
    const opened = await open(user.token, { symbol: ETH, side: 'short', leverage: 10, stopLossPrice: '3100' });
    expect(opened.data.entryPrice).toBe('2998.50000000');
    await ticks(ETH, ['3050', '3150']);
    await engine();
    const after = await position(user.token, opened.data.id);
    expect(after).toMatchObject({ status: 'closed', closeReason: 'stop_loss' });
    expect(after.events.at(-1)).toMatchObject({ kind: 'stop_loss', price: '3150.00000000' });
    await expectLedgerHolds();
  });

  it('liquidates at the mark price (median of recorded ticks), names its ticks, and keeps the rest of the margin', async () => {
    const user = await trader('1000');
    await ticks(BTC, ['50000', '50000', '50000', '50000']);
    const opened = await open(user.token, { product: 'leveraged', leverage: 10, margin: '200' });
    const liquidation = parsePriceMinor(opened.data.liquidationPrice);
    // A steady fall of 0.4 % a tick; the mark lags two ticks behind the last price.
    const falling = Array.from({ length: 30 }, (_, index) => String(50_000 - 200 * (index + 1)));
    const recorded = await ticks(BTC, falling);
    await engine();
    const after = await position(user.token, opened.data.id);
    expect(after).toMatchObject({ status: 'liquidated', closeReason: 'liquidation' });
    const event = after.events.at(-1);
    expect(event.kind).toBe('liquidation');
    // The fill is the mark over the ticks it names, the first mark at or below the liquidation price.
    const named = event.markTickIds.map((id: string) => recorded.find((tick) => tick.tickId.toString() === id) ?? null);
    expect(named.every((tick: unknown) => tick !== null)).toBe(true);
    const mark = markPriceAt(named.map((tick: { tickId: bigint; price: string; atMs: number }) => ({ tickId: tick.tickId, priceMinor: parsePriceMinor(tick.price), atMs: tick.atMs })));
    expect(mark!.priceMinor).toBe(parsePriceMinor(event.price));
    expect(parsePriceMinor(event.price) <= liquidation).toBe(true);
    expect(event.tick.tickId).toBe(event.markTickIds.at(-1));
    // Leveraged maintenance is 2 %: at the liquidation price the equity is more than the 0.5 % fee.
    expect(BigInt(parseAmount(event.insurance, 6))).toBeGreaterThan(0n);
    expect(BigInt(parseAmount(event.payout, 6))).toBeGreaterThan(0n);
    await expectLedgerHolds();
  });

  it('a gap past the liquidation price: the user loses only the margin, the insurance fund pays the rest', async () => {
    const user = await trader('1000');
    await ticks(BTC, ['50000', '50000', '50000', '50000']);
    const opened = await open(user.token, {});
    const insuranceBefore = await platformBalance(t.db, 'insurance_fund');
    await ticks(BTC, ['40000', '40000', '40000']);
    await engine();
    const after = await position(user.token, opened.data.id);
    expect(after.status).toBe('liquidated');
    // Marks 50,000, 50,000, 40,000: 0.03998 × (40,000 − 50,025) = −400.7995; 100 of it from the
    // margin, 300.7995 from the insurance fund.
    expect(after.events.at(-1)).toMatchObject({ kind: 'liquidation', price: '40000.00000000', pnl: '-400.799500', payout: '0.000000', insurance: '-300.799500' });
    expect((await platformBalance(t.db, 'insurance_fund')) - insuranceBefore).toBe(-usdt('300.7995'));
    // The rest of the user's balance is untouched.
    expect(await leveragedBalance(t.db, user.userId)).toEqual({ available: 898n * USDT, frozen: 0n });
    await expectLedgerHolds();
  });

  it('judges a new position only on ticks recorded after it opened', async () => {
    const user = await trader('1000');
    await ticks(BTC, ['50000', '50000', '50000']);
    // Ticks the engine has not judged yet, one of them below the coming take-profit's mirror.
    await ticks(BTC, ['52000']);
    await ticks(BTC, ['50000']);
    const opened = await open(user.token, { takeProfitPrice: '51000' });
    await engine();
    expect((await position(user.token, opened.data.id)).status).toBe('open');
    await ticks(BTC, ['51000']);
    await engine();
    expect((await position(user.token, opened.data.id)).closeReason).toBe('take_profit');
  });
});

describe('margin and triggers of an open position', () => {
  it('adds margin (the liquidation price moves away), removes it only down to what the rule allows', async () => {
    const user = await trader('1000');
    await ticks(BTC, ['50000', '50000', '50000']);
    const opened = await open(user.token, {});
    const added = await call(t.app, 'POST', `/home/leverage/positions/${opened.data.id}/margin`, user.token, { direction: 'add', amount: '50' });
    expect(added.data.margin).toBe('150.000000');
    expect(parsePriceMinor(added.data.liquidationPrice) < parsePriceMinor(opened.data.liquidationPrice)).toBe(true);
    expect(await leveragedBalance(t.db, user.userId)).toEqual({ available: 848n * USDT, frozen: 150n * USDT });
    // Initial margin 100; equity at the mark 50,000: 150 − 0.9995 = 149.0005, so 49.0005 may go.
    const tooMuch = await call(t.app, 'POST', `/home/leverage/positions/${opened.data.id}/margin`, user.token, { direction: 'remove', amount: '49.000501' });
    expect(tooMuch.msg).toBe('amount out of range');
    expect(tooMuch.data).toMatchObject({ max: '49000500' });
    const removed = await call(t.app, 'POST', `/home/leverage/positions/${opened.data.id}/margin`, user.token, { direction: 'remove', amount: '49' });
    expect(removed.data.margin).toBe('101.000000');
    expect(removed.data.events.map((event: { kind: string }) => event.kind)).toEqual(['open', 'margin_add', 'margin_remove']);
    expect((await call(t.app, 'POST', `/home/leverage/positions/${opened.data.id}/margin`, user.token, { direction: 'add', amount: '5000' })).msg).toBe(
      'insufficient balance',
    );
    await expectLedgerHolds();
  });

  it('sets and clears take-profit and stop-loss, refusing prices already crossed', async () => {
    const user = await trader('1000');
    await ticks(BTC, ['50000']);
    const opened = await open(user.token, {});
    const url = `/home/leverage/positions/${opened.data.id}/triggers`;
    expect((await call(t.app, 'POST', url, user.token, { takeProfitPrice: '49000', stopLossPrice: null })).msg).toBe('take-profit or stop-loss price not allowed');
    const set = await call(t.app, 'POST', url, user.token, { takeProfitPrice: '55000', stopLossPrice: '48500' });
    expect(set.data).toMatchObject({ takeProfitPrice: '55000.00000000', stopLossPrice: '48500.00000000' });
    const cleared = await call(t.app, 'POST', url, user.token, { takeProfitPrice: null, stopLossPrice: null });
    expect(cleared.data).toMatchObject({ takeProfitPrice: null, stopLossPrice: null });
    expect(cleared.data.events.filter((event: { kind: string }) => event.kind === 'triggers')).toHaveLength(2);
    const other = await trader('10');
    expect((await call(t.app, 'POST', url, other.token, { takeProfitPrice: null, stopLossPrice: null })).msg).toBe('record does not exist');
  });
});

describe('races', () => {
  it('concurrent orders cannot together use more than the balance', async () => {
    const user = await trader('300');
    await ticks(BTC, ['50000']);
    // Each costs 101 (100 margin + 1 fee): two fit in 300, a third does not.
    const answers = await Promise.all(Array.from({ length: 6 }, () => open(user.token, { leverage: 10 })));
    expect(answers.filter((answer) => answer.code === 200)).toHaveLength(2);
    expect(answers.filter((answer) => answer.code !== 200).map((answer) => answer.msg)).toEqual(Array(4).fill('insufficient balance'));
    expect(await leveragedBalance(t.db, user.userId)).toEqual({ available: 98n * USDT, frozen: 200n * USDT });
    await expectLedgerHolds();
  });

  it('a position closed by the user and by its trigger at the same time is closed once', async () => {
    const user = await trader('1000');
    await ticks(BTC, ['50000', '50000', '50000']);
    const opened = await open(user.token, { takeProfitPrice: '50500' });
    await ticks(BTC, ['50600']);
    const [byUser] = await Promise.all([call(t.app, 'POST', `/home/leverage/positions/${opened.data.id}/close`, user.token, {}), engine()]);
    const after = await position(user.token, opened.data.id);
    const closes = after.events.filter((event: { kind: string }) => ['close', 'take_profit'].includes(event.kind));
    expect(closes).toHaveLength(1);
    expect(after.status).toBe('closed');
    if (byUser.code === 200) expect(closes[0].kind).toBe('close');
    else expect([byUser.msg, closes[0].kind]).toEqual(['the order is not in a state for this step', 'take_profit']);
    await expectLedgerHolds();
  });
});

describe('the house exposure limit', () => {
  it('refuses an order beyond the published limit per market and side, and frees it when positions close', async () => {
    const limited = await createTestApp({ LEVERAGE_EXPOSURE_LIMIT_USDT: '3000' }, { market: true, now: () => new Date(nowMs) });
    try {
      const user = await leverageTrader(limited.app, limited.db, 'levexposure1', '10000');
      nowMs += 1_000;
      await limited.market!.record([{ symbol: BTC, price: '50000', atMs: nowMs }]);
      const body = { product: 'futures', symbol: BTC, side: 'long', margin: '100', leverage: 20 };
      const first = await call(limited.app, 'POST', '/home/leverage/positions', user.token, body);
      expect(first.code).toBe(200);
      const second = await call(limited.app, 'POST', '/home/leverage/positions', user.token, body);
      expect(second.msg).toBe('position limit of this market reached');
      expect(await leveragedBalance(limited.db, user.userId)).toEqual({ available: 9898n * USDT, frozen: 100n * USDT });
      expect((await call(limited.app, 'POST', '/home/leverage/positions', user.token, { ...body, side: 'short' })).code).toBe(200);
      await call(limited.app, 'POST', `/home/leverage/positions/${first.data.id}/close`, user.token, {});
      expect((await call(limited.app, 'POST', '/home/leverage/positions', user.token, body)).code).toBe(200);
      expect((await checkLedger(limited.db)).problems).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});

describe('funds', () => {
  it('a user funds the leveraged account by a transfer from the coin account', async () => {
    const user = await leverageTrader(t.app, t.db, 'levfunding1', '0');
    await fund(t.db, user.userId, 'USDT', '500');
    const moved = await call(t.app, 'POST', '/home/assets/transfer', user.token, { asset: 'USDT', fromAccount: 'coin', toAccount: 'leveraged', amount: '200' });
    expect(moved.code).toBe(200);
    expect(await leveragedBalance(t.db, user.userId)).toEqual({ available: 200n * USDT, frozen: 0n });
  });
});
