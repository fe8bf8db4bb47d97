/**
 * Candles (open, high, low, close) aggregated from recorded ticks. Buckets are aligned to the
 * Unix epoch in UTC, so a 1d candle runs from 00:00 to 24:00 UTC and every node and every database
 * cuts the same buckets. Prices are bigint units of 10⁻⁸ (PRICE_SCALE).
 */

export type CandleInterval = '1m' | '5m' | '15m' | '1h' | '1d';

export const CANDLE_INTERVAL_MS: Readonly<Record<CandleInterval, number>> = {
  '1m': 60_000,
  '5m': 5 * 60_000,
  '15m': 15 * 60_000,
  '1h': 60 * 60_000,
  '1d': 24 * 60 * 60_000,
};

/** Every interval that is recorded, shortest first. */
export const CANDLE_INTERVALS = Object.keys(CANDLE_INTERVAL_MS) as CandleInterval[];

/** Start of the bucket of `interval` that holds `atMs`. */
export function candleOpenTimeMs(atMs: number, interval: CandleInterval): number {
  if (!Number.isSafeInteger(atMs) || atMs < 0) throw new RangeError(`bad time ${atMs}`);
  const size = CANDLE_INTERVAL_MS[interval];
  return atMs - (atMs % size);
}

/** A recorded tick as candles need it. */
export interface CandleTick {
  /** Recording order: larger is later. */
  tickId: bigint;
  symbol: string;
  priceMinor: bigint;
  atMs: number;
}

export interface Candle {
  symbol: string;
  interval: CandleInterval;
  openTimeMs: number;
  openMinor: bigint;
  highMinor: bigint;
  lowMinor: bigint;
  closeMinor: bigint;
  tickCount: number;
  /** Id of the tick that set `close`; lets a later update win whatever order updates arrive in. */
  closeTickId: bigint;
}

/** A candle holding one tick. */
export function candleOfTick(tick: CandleTick, interval: CandleInterval): Candle {
  return {
    symbol: tick.symbol,
    interval,
    openTimeMs: candleOpenTimeMs(tick.atMs, interval),
    openMinor: tick.priceMinor,
    highMinor: tick.priceMinor,
    lowMinor: tick.priceMinor,
    closeMinor: tick.priceMinor,
    tickCount: 1,
    closeTickId: tick.tickId,
  };
}

/**
 * Folds `later` (ticks recorded after those in `earlier`) into `earlier`, for the same bucket. This
 * is exactly what the database upsert does: the open stays, high and low widen, the close is the
 * one with the larger tick id, counts add up.
 */
export function mergeCandles(earlier: Candle, later: Candle): Candle {
  if (earlier.symbol !== later.symbol || earlier.interval !== later.interval || earlier.openTimeMs !== later.openTimeMs) {
    throw new RangeError('candles of different buckets cannot be merged');
  }
  const laterCloses = later.closeTickId > earlier.closeTickId;
  return {
    ...earlier,
    highMinor: later.highMinor > earlier.highMinor ? later.highMinor : earlier.highMinor,
    lowMinor: later.lowMinor < earlier.lowMinor ? later.lowMinor : earlier.lowMinor,
    closeMinor: laterCloses ? later.closeMinor : earlier.closeMinor,
    closeTickId: laterCloses ? later.closeTickId : earlier.closeTickId,
    tickCount: earlier.tickCount + later.tickCount,
  };
}

/**
 * The candle updates of one batch of ticks (given in recording order): one per symbol, interval
 * and bucket the batch touches, each aggregating only this batch's ticks. The recorder upserts
 * them with the same rules as mergeCandles.
 */
export function aggregateCandles(ticks: readonly CandleTick[], intervals: readonly CandleInterval[] = CANDLE_INTERVALS): Candle[] {
  const byKey = new Map<string, Candle>();
  for (let i = 1; i < ticks.length; i += 1) {
    if (ticks[i]!.tickId <= ticks[i - 1]!.tickId) throw new RangeError('ticks must come in recording order');
  }
  for (const tick of ticks) {
    for (const interval of intervals) {
      const candle = candleOfTick(tick, interval);
      const key = `${tick.symbol}\u0000${interval}\u0000${candle.openTimeMs}`;
      const existing = byKey.get(key);
      byKey.set(key, existing ? mergeCandles(existing, candle) : candle);
    }
  }
  return [...byKey.values()];
}
