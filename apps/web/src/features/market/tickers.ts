import type { ContractData, listTickersContract } from '@keel/contracts';
import { parsePriceMinor, percentChangeText } from '@keel/domain';
import { compareDecimal, isDecimal, parseDecimal } from '../../shared/format/decimal.ts';
import type { RecordedTick } from '../../shared/realtime/realtime.ts';

export type Ticker = ContractData<typeof listTickersContract>['items'][number];

/**
 * A pushed tick applied to the HTTP snapshot: the market's last price becomes the tick and the 24 h
 * change is recomputed against the same 24 h open with the server's own function (domain
 * `percentChangeText`), so a live update shows what a reload would. The 24 h
 * high and low widen to take the tick in. A tick older than what the row shows (an overlapping
 * replay, or a snapshot fetched after the tick was sent) changes nothing.
 */
export function applyTick(tickers: readonly Ticker[], tick: RecordedTick): readonly Ticker[] {
  const index = tickers.findIndex((ticker) => ticker.symbol === tick.symbol);
  if (index < 0) return tickers;
  const current = tickers[index]!;
  if (BigInt(tick.tickId) <= BigInt(current.last.tickId)) return tickers;
  let change: string;
  try {
    change = percentChangeText(parsePriceMinor(current.open24h), parsePriceMinor(tick.price));
  } catch {
    // Not a price at the price scale: keep what is shown rather than show a wrong change.
    return tickers;
  }
  const higher = (a: string, b: string) => (compare(a, b) >= 0 ? a : b);
  const lower = (a: string, b: string) => (compare(a, b) <= 0 ? a : b);
  const next: Ticker = {
    ...current,
    last: tick,
    high24h: higher(current.high24h, tick.price),
    low24h: lower(current.low24h, tick.price),
    change24hPct: change,
  };
  const copy = [...tickers];
  copy[index] = next;
  return copy;
}

function compare(a: string, b: string): number {
  return compareDecimal(parseDecimal(a), parseDecimal(b));
}

/** USDT per unit of each asset from the markets quoted in USDT; USDT itself is exactly 1. */
export function usdtPrices(tickers: readonly Ticker[]): Map<string, { price: string; tick: RecordedTick | null }> {
  const prices = new Map<string, { price: string; tick: RecordedTick | null }>([['USDT', { price: '1', tick: null }]]);
  for (const ticker of tickers) {
    if (ticker.quote === 'USDT') prices.set(ticker.base, { price: ticker.last.price, tick: ticker.last });
  }
  return prices;
}

/** Which way a 24 h change points: its sign, with zero (any number of zero decimals) flat. */
export function changeDirection(change: string): 'up' | 'down' | 'flat' {
  if (change.startsWith('-')) return 'down';
  return /^[+]?0(\.0+)?$/.test(change) ? 'flat' : 'up';
}

/** USDT per unit of each asset, as the valuation of balances takes it (`valueBalances`). */
export function usdtPriceMap(tickers: readonly Ticker[]): Map<string, string> {
  return new Map([...usdtPrices(tickers)].map(([asset, entry]) => [asset, entry.price]));
}

/**
 * The markets that moved most in 24 h, by the size of their change whichever way (exact decimals;
 * a tie goes by symbol, so the order holds still between ticks that change nothing), at most `count`.
 */
export function marketMovers(tickers: readonly Ticker[], count: number): Ticker[] {
  const size = (ticker: Ticker) => {
    const change = parseDecimal(ticker.change24hPct);
    return change.minor < 0n ? { ...change, minor: -change.minor } : change;
  };
  return tickers
    .filter((ticker) => isDecimal(ticker.change24hPct))
    .sort((a, b) => compareDecimal(size(b), size(a)) || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0))
    .slice(0, count);
}
