import { liquidationCrossed, openFillPriceMinor, type PositionSide, stopLossCrossed, takeProfitCrossed } from './positions.ts';

/**
 * The mark price and the triggers (ADR 0034). Every price that closes, triggers or liquidates a
 * position is a recorded tick (or, for liquidation, the mark price computed from recorded ticks),
 * and the position keeps the ticks it used.
 *
 * Mark price at a tick: the median price of that market's last MARK_PRICE_TICKS recorded ticks up
 * to and including it, among those observed within MARK_PRICE_WINDOW_MS before it; at least
 * MARK_PRICE_MIN_TICKS must be in the window, or there is no mark price (and nothing is liquidated
 * until there is). With three or more ticks a single outlier tick cannot move the median past
 * its neighbours, so one bad print never liquidates anyone.
 */
export const MARK_PRICE_TICKS = 5;
export const MARK_PRICE_WINDOW_MS = 30_000;
export const MARK_PRICE_MIN_TICKS = 3;

export interface RecordedPrice {
  tickId: bigint;
  priceMinor: bigint;
  atMs: number;
}

export interface MarkPrice {
  priceMinor: bigint;
  /** The ticks the median was taken over, oldest first: shown with every liquidation. */
  tickIds: bigint[];
}

/** The median of a few prices: the middle one, or the two middles' mean rounded down. */
export function medianPriceMinor(prices: readonly bigint[]): bigint {
  if (prices.length === 0) throw new RangeError('the median of no prices');
  const sorted = [...prices].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle]!;
  return (sorted[middle - 1]! + sorted[middle]!) / 2n;
}

/** The mark price at the last of `ticksUpTo` (one market's ticks in recording order), or null. */
export function markPriceAt(ticksUpTo: readonly RecordedPrice[]): MarkPrice | null {
  const last = ticksUpTo.at(-1);
  if (!last) return null;
  const window = ticksUpTo.slice(-MARK_PRICE_TICKS).filter((tick) => tick.atMs >= last.atMs - MARK_PRICE_WINDOW_MS);
  if (window.length < MARK_PRICE_MIN_TICKS) return null;
  return { priceMinor: medianPriceMinor(window.map((tick) => tick.priceMinor)), tickIds: window.map((tick) => tick.tickId) };
}

export interface PricedTick extends RecordedPrice {
  mark: MarkPrice | null;
}

/**
 * The mark price at each of `ticks` (one market's new ticks in recording order), given the ticks
 * recorded just before them (`earlier`, in order; MARK_PRICE_TICKS − 1 of them are enough).
 */
export function withMarkPrices(earlier: readonly RecordedPrice[], ticks: readonly RecordedPrice[]): PricedTick[] {
  const all = [...earlier.slice(-(MARK_PRICE_TICKS - 1)), ...ticks];
  const offset = all.length - ticks.length;
  return ticks.map((tick, index) => ({ ...tick, mark: markPriceAt(all.slice(0, offset + index + 1)) }));
}

export interface TriggerWatch {
  side: PositionSide;
  liquidationPriceMinor: bigint | null;
  takeProfitPriceMinor: bigint | null;
  stopLossPriceMinor: bigint | null;
  /** Ticks up to this id were looked at before the position (or its current triggers) existed. */
  armedAfterTickId: bigint;
}

export type TriggerEvent =
  | { kind: 'take_profit' | 'stop_loss'; tick: PricedTick; fillPriceMinor: bigint }
  | { kind: 'liquidation'; tick: PricedTick; fillPriceMinor: bigint; mark: MarkPrice };

/**
 * The first of `ticks` (in recording order) that fires one of the position's triggers. A take-profit
 * or stop-loss fires on the tick's price and fills at it; liquidation fires on the tick's mark price
 * and fills at the mark. When one tick fires both, the user's own instruction (take-profit or
 * stop-loss) goes first.
 */
export function firstTrigger(watch: TriggerWatch, ticks: readonly PricedTick[]): TriggerEvent | null {
  for (const tick of ticks) {
    if (tick.tickId <= watch.armedAfterTickId) continue;
    if (takeProfitCrossed(watch.side, watch.takeProfitPriceMinor, tick.priceMinor)) return { kind: 'take_profit', tick, fillPriceMinor: tick.priceMinor };
    if (stopLossCrossed(watch.side, watch.stopLossPriceMinor, tick.priceMinor)) return { kind: 'stop_loss', tick, fillPriceMinor: tick.priceMinor };
    if (tick.mark && liquidationCrossed(watch.side, watch.liquidationPriceMinor, tick.mark.priceMinor)) {
      return { kind: 'liquidation', tick, fillPriceMinor: tick.mark.priceMinor, mark: tick.mark };
    }
  }
  return null;
}

/** Whether a recorded price reaches a limit order that opens: a long's at or below its limit, a short's at or above. */
export function limitCrossed(side: PositionSide, limitPriceMinor: bigint, priceMinor: bigint): boolean {
  return side === 'long' ? priceMinor <= limitPriceMinor : priceMinor >= limitPriceMinor;
}

/**
 * The fill price of a limit order on the tick that crossed it: the tick's price with the published
 * spread, as for a market order, but never worse than the limit (a long pays at most its limit, a
 * short receives at least its limit).
 */
export function limitFillPriceMinor(side: PositionSide, tickPriceMinor: bigint, limitPriceMinor: bigint): bigint {
  const withSpread = openFillPriceMinor(side, tickPriceMinor);
  if (side === 'long') return withSpread < limitPriceMinor ? withSpread : limitPriceMinor;
  return withSpread > limitPriceMinor ? withSpread : limitPriceMinor;
}

/** The first of `ticks` (in recording order, after `armedAfterTickId`) whose price reaches a limit order's limit. */
export function firstLimitCross(
  order: { side: PositionSide; limitPriceMinor: bigint; armedAfterTickId: bigint },
  ticks: readonly PricedTick[],
): PricedTick | null {
  for (const tick of ticks) {
    if (tick.tickId <= order.armedAfterTickId) continue;
    if (limitCrossed(order.side, order.limitPriceMinor, tick.priceMinor)) return tick;
  }
  return null;
}

/** The extremes of a run of ticks: what one indexed query per market and side needs to find every position a tick crossed. */
export function priceRange(ticks: readonly PricedTick[]): { lowPrice: bigint; highPrice: bigint; lowMark: bigint | null; highMark: bigint | null } {
  if (ticks.length === 0) throw new RangeError('the range of no ticks');
  let lowPrice = ticks[0]!.priceMinor;
  let highPrice = lowPrice;
  let lowMark: bigint | null = null;
  let highMark: bigint | null = null;
  for (const tick of ticks) {
    if (tick.priceMinor < lowPrice) lowPrice = tick.priceMinor;
    if (tick.priceMinor > highPrice) highPrice = tick.priceMinor;
    const mark = tick.mark?.priceMinor;
    if (mark === undefined) continue;
    if (lowMark === null || mark < lowMark) lowMark = mark;
    if (highMark === null || mark > highMark) highMark = mark;
  }
  return { lowPrice, highPrice, lowMark, highMark };
}
