import type { ContractData, listCandlesContract } from '@keel/contracts';
import { isDecimal, parseDecimal, scaleOfText } from '../../shared/format/decimal.ts';

export type Candle = ContractData<typeof listCandlesContract>['items'][number];
export type CandleInterval = ContractData<typeof listCandlesContract>['interval'];

export const chartIntervals = ['1m', '5m', '15m', '1h', '1d'] as const satisfies readonly CandleInterval[];

/** How many candles the chart asks for (the contract allows up to 500). */
export const CHART_CANDLES = 200;

/**
 * A pushed candle folded into the list (oldest first): the candle of the same period is replaced,
 * a newer one is appended, an older one (a late or replayed frame) changes nothing.
 */
export function mergeCandle(candles: readonly Candle[], candle: Candle): readonly Candle[] {
  const last = candles.at(-1);
  if (!last || candle.openTimeMs > last.openTimeMs) return [...candles, candle].slice(-CHART_CANDLES * 2);
  if (candle.openTimeMs === last.openTimeMs) {
    if (candle.tickCount < last.tickCount) return candles;
    return [...candles.slice(0, -1), candle];
  }
  const index = candles.findIndex((each) => each.openTimeMs === candle.openTimeMs);
  if (index < 0 || candles[index]!.tickCount > candle.tickCount) return candles;
  const copy = [...candles];
  copy[index] = candle;
  return copy;
}

/** One bar as the chart library draws it. */
export interface ChartBar {
  /** Seconds, shifted so the library's UTC axis reads the device's local wall-clock time. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/**
 * Candles as the chart draws them. Prices become JS numbers here FOR DRAWING ONLY (the library
 * takes numbers; a pixel does not need exact decimals); every figure the user reads or acts on is
 * shown from the decimal strings. The library's time axis is UTC: times are shifted by the device's
 * offset at each candle so the axis shows local time.
 */
export function toChartBars(candles: readonly Candle[]): ChartBar[] {
  const bars: ChartBar[] = [];
  for (const candle of candles) {
    if (![candle.open, candle.high, candle.low, candle.close].every(isDrawablePrice)) continue;
    const offsetMs = new Date(candle.openTimeMs).getTimezoneOffset() * 60_000;
    const time = Math.floor((candle.openTimeMs - offsetMs) / 1000);
    // The library needs strictly rising times; a daylight-saving change can fold an hour back.
    const previous = bars.at(-1);
    if (previous && time <= previous.time) continue;
    bars.push({ time, open: Number(candle.open), high: Number(candle.high), low: Number(candle.low), close: Number(candle.close) });
  }
  return bars;
}

/**
 * Decimals for the chart's price axis: the most any recent price needs once trailing zeros are
 * dropped, at least 2 and at most 8.
 */
export function chartPrecision(candles: readonly Candle[]): number {
  let needed = 2;
  for (const candle of candles.slice(-50)) {
    for (const price of [candle.open, candle.high, candle.low, candle.close]) {
      if (!isDecimal(price)) continue;
      const trimmed = price.includes('.') ? price.replace(/0+$/, '').replace(/\.$/, '') : price;
      needed = Math.max(needed, scaleOfText(trimmed));
    }
  }
  return Math.min(needed, 8);
}

/** True when the text is a price the chart can draw (a decimal above zero). */
export function isDrawablePrice(text: string): boolean {
  return isDecimal(text) && parseDecimal(text).minor > 0n;
}
