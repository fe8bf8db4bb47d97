import { CANDLE_INTERVAL_MS } from './candles.ts';

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Which candles cover the 24 hours before `nowMs`, cheaply: 1m candles from the minute that holds
 * `nowMs − 24 h` up to the next whole hour, then 1h candles to now. At most 60 + 24 rows per
 * market, whatever the tick rate; the window is exact to the minute.
 */
export interface TickerWindow {
  /** 1m candles with fromMs ≤ openTime < hourFromMs. */
  minuteFromMs: number;
  /** 1h candles with hourFromMs ≤ openTime ≤ toMs. */
  hourFromMs: number;
  toMs: number;
}

export function tickerWindow(nowMs: number): TickerWindow {
  const startMs = Math.max(0, nowMs - DAY_MS);
  const minute = CANDLE_INTERVAL_MS['1m'];
  const hour = CANDLE_INTERVAL_MS['1h'];
  const minuteFromMs = startMs - (startMs % minute);
  const hourFromMs = Math.ceil(startMs / hour) * hour;
  return { minuteFromMs, hourFromMs, toMs: nowMs };
}

/**
 * Signed percent change from `openMinor` to `lastMinor`, two decimals, rounded half away from
 * zero: 100 → 98.75 is "-1.25". Exact (bigint), so the same prices always show the same text.
 */
export function percentChangeText(openMinor: bigint, lastMinor: bigint): string {
  if (openMinor <= 0n) throw new RangeError('open price must be above zero');
  // Hundredths of a percent: (last − open) / open × 10,000, rounded half away from zero.
  const numerator = (lastMinor - openMinor) * 10_000n;
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const hundredths = (magnitude * 2n + openMinor) / (openMinor * 2n);
  const whole = hundredths / 100n;
  const fraction = (hundredths % 100n).toString().padStart(2, '0');
  return `${negative && hundredths > 0n ? '-' : ''}${whole}.${fraction}`;
}
