import { describe, expect, it } from 'vitest';
import { parseAmount } from '../money/amount.ts';
import { applyEntry, type AccountBalance, validateEntry } from '../ledger/postings.ts';
import { parsePriceMinor } from '../market/price.ts';
import { bracketOf, maintenanceMarginMinor, NOTIONAL_BRACKETS } from './brackets.ts';
import {
  initialMarginMinor,
  liquidationPriceMinor,
  marginStateAt,
  notionalMinor,
  openFillPriceMinor,
  pnlMinor,
  quoteOpen,
  removableMarginMinor,
  triggerProblem,
} from './positions.ts';
import { cappedToMargin, closePostings, closeSplit, fundingMinor, interestMinor, partialShare, periodTimesBetween } from './settlement.ts';
import { firstLimitCross, firstTrigger, limitFillPriceMinor, markPriceAt, medianPriceMinor, priceRange, type RecordedPrice, withMarkPrices } from './triggers.ts';

const usdt = (text: string) => (text.startsWith('-') ? -parseAmount(text.slice(1), 6) : parseAmount(text, 6));
const price = (text: string) => parsePriceMinor(text);
const btc = (text: string) => parseAmount(text, 8);

describe('notional brackets', () => {
  it('publishes the futures table with maintenance amounts that keep the maintenance margin continuous', () => {
    expect(NOTIONAL_BRACKETS.futures.map((bracket) => [bracket.maxLeverage, bracket.maintenanceRateBps, bracket.maintenanceAmountMinor])).toEqual([
      [100, 50, 0n],
      [50, 100, usdt('250')],
      [20, 250, usdt('4000')],
      [10, 500, usdt('29000')],
      [5, 1000, usdt('279000')],
    ]);
    expect(NOTIONAL_BRACKETS.leveraged.map((bracket) => bracket.maintenanceAmountMinor)).toEqual([0n, usdt('3000'), usdt('28000')]);
    // At each boundary the two brackets' formulas give the same maintenance margin.
    expect(maintenanceMarginMinor('futures', usdt('250000'))).toBe(usdt('2250'));
    expect((usdt('250000') * 250n) / 10_000n - usdt('4000')).toBe(usdt('2250'));
  });

  it('puts a notional in the first bracket whose bound holds it, and none above the last', () => {
    expect(bracketOf('futures', usdt('50000'))?.maxLeverage).toBe(100);
    expect(bracketOf('futures', usdt('50000.000001'))?.maxLeverage).toBe(50);
    expect(bracketOf('futures', usdt('20000000.000001'))).toBeUndefined();
  });
});

describe('opening a position', () => {
  it('fills a market order at the recorded price with the spread against the taker', () => {
    expect(openFillPriceMinor('long', price('50000'))).toBe(price('50025'));
    expect(openFillPriceMinor('short', price('50000'))).toBe(price('49975'));
  });

  it('quotes a 20x futures long: notional, quantity, fee, cost and liquidation price', () => {
    const result = quoteOpen({ product: 'futures', side: 'long', marginMinor: usdt('100'), leverage: 20, fillPriceMinor: price('50025') });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.quote.notionalMinor).toBe(usdt('2000'));
    // 2,000 / 50,025 = 0.039980009995… BTC, rounded down to 8 decimals.
    expect(result.quote.quantityMinor).toBe(btc('0.03998'));
    expect(result.quote.feeMinor).toBe(usdt('2'));
    expect(result.quote.costMinor).toBe(usdt('102'));
    expect(result.quote.bracketMaxLeverage).toBe(100);
    expect(result.quote.liquidationPriceMinor).toBe(
      liquidationPriceMinor({ product: 'futures', side: 'long', quantityMinor: btc('0.03998'), entryPriceMinor: price('50025'), marginMinor: usdt('100') }),
    );
  });

  it('refuses a leverage outside the product, above the bracket, a notional above the last bracket, and a dust order', () => {
    expect(quoteOpen({ product: 'futures', side: 'long', marginMinor: usdt('100'), leverage: 101, fillPriceMinor: price('50000') })).toEqual({
      ok: false,
      problem: 'leverage_out_of_range',
      maxLeverage: 100,
    });
    expect(quoteOpen({ product: 'leveraged', side: 'long', marginMinor: usdt('100'), leverage: 11, fillPriceMinor: price('50000') })).toMatchObject({
      problem: 'leverage_out_of_range',
      maxLeverage: 10,
    });
    expect(quoteOpen({ product: 'futures', side: 'long', marginMinor: usdt('5000'), leverage: 60, fillPriceMinor: price('50000') })).toEqual({
      ok: false,
      problem: 'leverage_above_bracket',
      maxLeverage: 20,
    });
    expect(quoteOpen({ product: 'futures', side: 'short', marginMinor: usdt('300000'), leverage: 100, fillPriceMinor: price('50000') })).toMatchObject({
      problem: 'notional_too_large',
    });
    expect(quoteOpen({ product: 'futures', side: 'long', marginMinor: 1n, leverage: 1, fillPriceMinor: price('50000') })).toEqual({ ok: false, problem: 'quantity_zero' });
  });
});

describe('liquidation price (isolated margin)', () => {
  const position = { product: 'futures' as const, quantityMinor: btc('0.04'), entryPriceMinor: price('50000'), marginMinor: usdt('100') };

  it('long: (Q·E − M − c) ÷ (Q·(1 − r)) = 1,900 ÷ 0.0398, rounded down', () => {
    expect(liquidationPriceMinor({ ...position, side: 'long' })).toBe(price('47738.69346733'));
  });

  it('short: (Q·E + M + c) ÷ (Q·(1 + r)) = 2,100 ÷ 0.0402, rounded up', () => {
    expect(liquidationPriceMinor({ ...position, side: 'short' })).toBe(price('52238.80597015'));
  });

  it('is where equity meets the maintenance margin', () => {
    for (const side of ['long', 'short'] as const) {
      const liquidation = liquidationPriceMinor({ ...position, side })!;
      const state = marginStateAt({ ...position, side }, liquidation);
      expect(state.equityMinor - state.maintenanceMinor).toBeGreaterThanOrEqual(-1n);
      expect(state.equityMinor - state.maintenanceMinor).toBeLessThanOrEqual(1n);
    }
  });

  it('uses the bracket of the notional at the liquidation price when the notional grows into the next one', () => {
    // Short 4.8 BTC at 50,000 (240,000 USDT, bracket 2) with 24,000 margin. Bracket 2's rate would put
    // the liquidation at 54,507.01, where the notional (261,634) is already in bracket 3; bracket 3's
    // rate and amount give (240,000 + 24,000 + 4,000) ÷ (4.8 × 1.025) = 54,471.544…
    const short = { product: 'futures' as const, side: 'short' as const, quantityMinor: btc('4.8'), entryPriceMinor: price('50000'), marginMinor: usdt('24000') };
    const liquidation = liquidationPriceMinor(short)!;
    expect(liquidation).toBe(price('54471.54471545'));
    expect(bracketOf('futures', notionalMinor(short.quantityMinor, liquidation))?.maintenanceRateBps).toBe(250);
    const state = marginStateAt(short, liquidation);
    expect(state.equityMinor - state.maintenanceMinor).toBeLessThanOrEqual(1n);
    expect(state.equityMinor - state.maintenanceMinor).toBeGreaterThanOrEqual(-1n);
  });

  it('has none for a long that cannot lose its margin before the price reaches zero (1x)', () => {
    expect(liquidationPriceMinor({ ...position, side: 'long', marginMinor: usdt('2000') })).toBeNull();
    expect(liquidationPriceMinor({ ...position, side: 'short', marginMinor: usdt('2000') })).not.toBeNull();
  });

  it('moves away when margin is added', () => {
    const before = liquidationPriceMinor({ ...position, side: 'long' })!;
    const after = liquidationPriceMinor({ ...position, side: 'long', marginMinor: usdt('150') })!;
    expect(after).toBeLessThan(before);
  });
});

describe('margin state', () => {
  it('gives PnL, equity, maintenance and the margin ratio at a mark price', () => {
    const state = marginStateAt({ product: 'futures', side: 'long', quantityMinor: btc('0.04'), entryPriceMinor: price('50000'), marginMinor: usdt('100') }, price('49000'));
    expect(state.unrealizedPnlMinor).toBe(usdt('-40'));
    expect(state.equityMinor).toBe(usdt('60'));
    expect(state.maintenanceMinor).toBe(usdt('9.8'));
    // 9.8 ÷ 60 = 16.33… %, rounded up.
    expect(state.marginRatioBps).toBe(1634n);
  });

  it('rounds PnL against the user', () => {
    expect(pnlMinor('long', 1n, price('1'), price('1.5'))).toBe(0n);
    expect(pnlMinor('long', 1n, price('1.5'), price('1'))).toBe(-1n);
  });

  it('lets margin be removed only down to the initial margin and while equity stays above it', () => {
    const position = { product: 'futures' as const, side: 'long' as const, quantityMinor: btc('0.04'), entryPriceMinor: price('50000'), marginMinor: usdt('150') };
    const initial = initialMarginMinor(usdt('2000'), 20);
    expect(initial).toBe(usdt('100'));
    expect(removableMarginMinor(position, initial, price('50000'))).toBe(usdt('50'));
    expect(removableMarginMinor(position, initial, price('49500'))).toBe(usdt('30'));
    expect(removableMarginMinor(position, initial, price('48000'))).toBe(0n);
  });

  it('checks take-profit and stop-loss against the price now and the liquidation price', () => {
    const now = price('50000');
    const liquidation = price('47738.69346733');
    expect(triggerProblem('long', { takeProfitPriceMinor: price('52000'), stopLossPriceMinor: price('49000') }, now, liquidation)).toBeNull();
    expect(triggerProblem('long', { takeProfitPriceMinor: price('49000'), stopLossPriceMinor: null }, now, liquidation)).toBe('take_profit_wrong_side');
    expect(triggerProblem('long', { takeProfitPriceMinor: null, stopLossPriceMinor: price('51000') }, now, liquidation)).toBe('stop_loss_wrong_side');
    expect(triggerProblem('long', { takeProfitPriceMinor: null, stopLossPriceMinor: price('47000') }, now, liquidation)).toBe('stop_loss_beyond_liquidation');
    expect(triggerProblem('short', { takeProfitPriceMinor: price('48000'), stopLossPriceMinor: price('51000') }, now, null)).toBeNull();
  });
});

describe('closing and liquidation', () => {
  const accounts = { userAccountId: 1n, houseAccountId: 2n, feeAccountId: 3n, insuranceAccountId: 4n, asset: 'USDT' };
  const long = { side: 'long' as const, quantityMinor: btc('0.04'), entryPriceMinor: price('50000'), marginMinor: usdt('100') };

  function applied(postings: ReturnType<typeof closePostings>) {
    validateEntry(postings);
    const balances = new Map<bigint, AccountBalance>([
      [1n, { accountId: 1n, asset: 'USDT', availableMinor: 0n, frozenMinor: usdt('100'), allowNegative: false }],
      [2n, { accountId: 2n, asset: 'USDT', availableMinor: 0n, frozenMinor: 0n, allowNegative: true }],
      [3n, { accountId: 3n, asset: 'USDT', availableMinor: 0n, frozenMinor: 0n, allowNegative: false }],
      [4n, { accountId: 4n, asset: 'USDT', availableMinor: 0n, frozenMinor: 0n, allowNegative: true }],
    ]);
    return applyEntry(balances, postings);
  }

  it('pays a profitable close: margin + PnL − fee to the user, PnL from the house, 0.1 % of the closing notional as fee', () => {
    const split = closeSplit({ kind: 'close', ...long, priceMinor: price('51000') });
    expect(split).toEqual({ pnlMinor: usdt('40'), payoutMinor: usdt('137.96'), feeMinor: usdt('2.04'), insuranceMinor: 0n });
    const after = applied(closePostings(accounts, usdt('100'), split));
    expect(after.get(1n)).toMatchObject({ availableMinor: usdt('137.96'), frozenMinor: 0n });
    expect(after.get(2n)?.availableMinor).toBe(usdt('-40'));
  });

  it('charges the fee only out of what is left', () => {
    // Loss 99 of 100 margin: 1 left, the fee (0.1 % of 2,001 = 2.001) takes it all.
    const split = closeSplit({ kind: 'close', ...long, priceMinor: price('47525') });
    expect(split).toEqual({ pnlMinor: usdt('-99'), payoutMinor: 0n, feeMinor: usdt('1'), insuranceMinor: 0n });
  });

  it('liquidates at the mark: the liquidation fee to the insurance fund, at most what is left', () => {
    const split = closeSplit({ kind: 'liquidation', ...long, priceMinor: price('47738.69346733') });
    expect(split.pnlMinor).toBe(usdt('-90.452262'));
    expect(split.payoutMinor).toBe(0n);
    expect(split.insuranceMinor).toBe(usdt('9.547738'));
    // A leveraged position's maintenance (2 %) leaves more than the fee (0.5 %): the rest is the user's.
    const leveraged = closeSplit({ kind: 'liquidation', side: 'long', quantityMinor: btc('0.04'), entryPriceMinor: price('50000'), marginMinor: usdt('200'), priceMinor: price('45900') });
    expect(leveraged.pnlMinor).toBe(usdt('-164'));
    expect(leveraged.insuranceMinor).toBe(usdt('9.18'));
    expect(leveraged.payoutMinor).toBe(usdt('26.82'));
  });

  it('a gap past the liquidation price: the user loses only the margin, the insurance fund pays the rest', () => {
    const split = closeSplit({ kind: 'liquidation', ...long, priceMinor: price('47000') });
    expect(split).toEqual({ pnlMinor: usdt('-120'), payoutMinor: 0n, feeMinor: 0n, insuranceMinor: usdt('-20') });
    const after = applied(closePostings(accounts, usdt('100'), split));
    expect(after.get(1n)).toMatchObject({ availableMinor: 0n, frozenMinor: 0n });
    expect(after.get(2n)?.availableMinor).toBe(usdt('120'));
    expect(after.get(4n)?.availableMinor).toBe(usdt('-20'));
  });

  it('shares out a partial close by quantity, rounding the margin taken down', () => {
    expect(partialShare(btc('0.04'), usdt('100'), btc('0.01'))).toEqual({ marginMinor: usdt('25') });
    expect(partialShare(3n, 100n, 1n)).toEqual({ marginMinor: 33n });
    expect(partialShare(3n, 100n, 3n)).toEqual({ marginMinor: 100n });
    expect(() => partialShare(3n, 100n, 4n)).toThrow(RangeError);
  });
});

describe('funding and interest', () => {
  it('funding: notional at the mark × the rate; longs pay a positive rate, shorts a negative one', () => {
    expect(fundingMinor('long', btc('0.04'), price('50000'), 100n)).toBe(usdt('-0.2'));
    expect(fundingMinor('short', btc('0.04'), price('50000'), 100n)).toBe(usdt('0.2'));
    expect(fundingMinor('long', btc('0.04'), price('50000'), -100n)).toBe(usdt('0.2'));
    expect(fundingMinor('short', btc('0.04'), price('50000'), -100n)).toBe(usdt('-0.2'));
    expect(fundingMinor('short', btc('0.04'), price('50000'), 0n)).toBe(0n);
  });

  it('interest: the borrowed part (entry notional − margin) × the hourly rate', () => {
    expect(interestMinor(usdt('2000'), usdt('200'), 10n)).toBe(usdt('0.018'));
    expect(interestMinor(usdt('2000'), usdt('2000'), 10n)).toBe(0n);
  });

  it('never takes more than the margin', () => {
    expect(cappedToMargin(-usdt('5'), usdt('3'))).toBe(-usdt('3'));
    expect(cappedToMargin(usdt('5'), usdt('3'))).toBe(usdt('5'));
  });

  it('lists the UTC period times in (after, upTo], so a job that was down catches up on each', () => {
    const hour = 3_600_000;
    expect(periodTimesBetween(8 * hour - 1, 24 * hour, 8 * hour)).toEqual([8 * hour, 16 * hour, 24 * hour]);
    expect(periodTimesBetween(8 * hour, 8 * hour + 5, 8 * hour)).toEqual([]);
  });
});

describe('mark price and triggers', () => {
  const ticks = (prices: string[], startMs = 0, stepMs = 1_000): RecordedPrice[] =>
    prices.map((text, index) => ({ tickId: BigInt(index + 1), priceMinor: price(text), atMs: startMs + index * stepMs }));

  it('takes the median of the last five ticks, so one outlier cannot move it', () => {
    expect(markPriceAt(ticks(['100', '101', '10', '102', '103']))).toEqual({ priceMinor: price('101'), tickIds: [1n, 2n, 3n, 4n, 5n] });
    expect(medianPriceMinor([price('1'), price('2')])).toBe(price('1.5'));
  });

  it('uses only ticks within the window and needs three of them', () => {
    expect(markPriceAt(ticks(['100', '101', '102'], 0, 20_000))).toBeNull();
    expect(markPriceAt(ticks(['100', '101', '102'], 0, 10_000))?.tickIds).toEqual([1n, 2n, 3n]);
  });

  it('fires on the first tick that crosses, a take-profit or stop-loss before liquidation on the same tick', () => {
    const priced = withMarkPrices(ticks(['100', '100', '100', '100']), ticks(['99', '95', '90', '80', '80']).map((tick) => ({ ...tick, tickId: tick.tickId + 4n })));
    const watch = { side: 'long' as const, liquidationPriceMinor: price('95'), takeProfitPriceMinor: null, stopLossPriceMinor: null, armedAfterTickId: 0n };
    // Marks: 100, 100, 100 (ticks 5–7: medians of 100,100,100,99 / …,95 / …,90), then 95 at tick 8.
    const event = firstTrigger(watch, priced);
    expect(event?.kind).toBe('liquidation');
    expect(event?.tick.tickId).toBe(8n);
    expect(event?.fillPriceMinor).toBe(price('95'));
    const withStop = firstTrigger({ ...watch, stopLossPriceMinor: price('95') }, priced);
    expect(withStop).toMatchObject({ kind: 'stop_loss', fillPriceMinor: price('95') });
    expect(withStop?.tick.tickId).toBe(6n);
    expect(firstTrigger({ ...watch, armedAfterTickId: 9n }, priced)).toBeNull();
    expect(priceRange(priced)).toEqual({ lowPrice: price('80'), highPrice: price('99'), lowMark: price('90'), highMark: price('100') });
  });
});

describe('limit orders', () => {
  it('fill on the first tick at or past the limit, at the tick’s price with the spread, never worse than the limit', () => {
    const priced = withMarkPrices([], [
      { tickId: 1n, priceMinor: price('101'), atMs: 0 },
      { tickId: 2n, priceMinor: price('100.02'), atMs: 1 },
      { tickId: 3n, priceMinor: price('98'), atMs: 2 },
    ]);
    const long = { side: 'long' as const, limitPriceMinor: price('100.05'), armedAfterTickId: 0n };
    expect(firstLimitCross(long, priced)?.tickId).toBe(2n);
    // 100.02 × 1.0005 = 100.07001 is above the limit: the limit.
    expect(limitFillPriceMinor('long', price('100.02'), price('100.05'))).toBe(price('100.05'));
    expect(limitFillPriceMinor('long', price('98'), price('100.05'))).toBe(price('98.049'));
    expect(firstLimitCross({ ...long, armedAfterTickId: 2n }, priced)?.tickId).toBe(3n);
    expect(firstLimitCross({ side: 'short', limitPriceMinor: price('101'), armedAfterTickId: 0n }, priced)?.tickId).toBe(1n);
    expect(limitFillPriceMinor('short', price('101'), price('101'))).toBe(price('101'));
    expect(limitFillPriceMinor('short', price('105'), price('101'))).toBe(price('104.9475'));
  });
});
