import type { OptionOrder, OptionsOverview } from '@keel/contracts';
import { addDecimal, compareDecimal, decimalToString, isDecimal, mulDecimal, parseDecimal } from '../../shared/format/decimal.ts';

/**
 * The pure rules of the contract trade screen (issue 7): which market an address names, the
 * expected profit of a stake (the server's own rounding), the stake range, and the countdown of an
 * order in progress. No money is ever a JS number here.
 */

export type OptionProduct = OptionsOverview['products'][number];

/** USDT, the asset of every stake and payout, has 6 decimals. */
export const OPTIONS_SCALE = 6;

/** Where the last chosen market is remembered on the device. */
export const LAST_SYMBOL_KEY = 'options-symbol';

/** The id of a market in the trade address: the symbol without its slash, `BTC/USDT` → `BTCUSDT`. */
export function symbolId(symbol: string): string {
  return symbol.replace('/', '');
}

/** The trade tab's address for a market: `/trade_BTCUSDT`. */
export function tradePath(symbol: string): string {
  return `/trade_${symbolId(symbol)}`;
}

/** The `{id}` of `/trade_{id}` (decoded), or null for `/trade` and anything else. */
export function tradeIdOf(pathname: string): string | null {
  const match = /^\/trade_([^/]+)$/.exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}

/** The listed symbol an id names, compared without regard to case; undefined when none does. */
export function symbolFromId(id: string, symbols: readonly string[]): string | undefined {
  const wanted = id.toUpperCase();
  return symbols.find((symbol) => symbolId(symbol).toUpperCase() === wanted);
}

/**
 * The market the screen shows: the one the address names (`notFound` when it names none), else the
 * remembered one if it is still listed, else the first listed. Null when nothing is listed.
 */
export function chooseSymbol(id: string | null, symbols: readonly string[], remembered: string | null): string | 'notFound' | null {
  if (id !== null) return symbolFromId(id, symbols) ?? 'notFound';
  if (remembered !== null && symbols.includes(remembered)) return remembered;
  return symbols[0] ?? null;
}

/**
 * What a win pays on top of the stake: stake × yieldBps / 10 000, rounded down to 6 decimals,
 * exactly as the server computes it (domain `winPayoutMinor`).
 */
export function expectedProfit(stake: string, yieldBps: number): string {
  const rate = { minor: BigInt(yieldBps), scale: 4 };
  return decimalToString(mulDecimal(parseDecimal(stake), rate, OPTIONS_SCALE));
}

/** Stake plus expected profit: what a win returns to the options account. */
export function winReturn(stake: string, yieldBps: number): string {
  return decimalToString(addDecimal(parseDecimal(stake), parseDecimal(expectedProfit(stake, yieldBps))));
}

export type StakeRangeProblem = 'belowMin' | 'aboveMax';

/** The product's stake range, inclusive at both ends (as the server checks it). */
export function stakeRangeProblem(stake: string, product: Pick<OptionProduct, 'minStake' | 'maxStake'>): StakeRangeProblem | null {
  if (!isDecimal(stake)) return null;
  const value = parseDecimal(stake);
  if (compareDecimal(value, parseDecimal(product.minStake)) < 0) return 'belowMin';
  if (compareDecimal(value, parseDecimal(product.maxStake)) > 0) return 'aboveMax';
  return null;
}

/** A stake outside the product's range, as the stake field's error message (the form says "Amount out of range"). */
export const STAKE_OUT_OF_RANGE = 'options:stakeOutOfRange';

/** The product chosen first: the first one trading is open for. */
export function firstOpenProduct(products: readonly OptionProduct[]): OptionProduct | undefined {
  return products.find((product) => product.enabled);
}

/**
 * Milliseconds until an order expires, by the server's clock as this device estimates it
 * (`skewMs` = server time − device time), never below 0 and never more than the whole cycle (a
 * wrong estimate cannot show more time than the order has).
 */
export function remainingMs(order: Pick<OptionOrder, 'expiresAtMs' | 'cycleSeconds'>, nowLocalMs: number, skewMs: number): number {
  const left = order.expiresAtMs - (nowLocalMs + skewMs);
  return Math.min(Math.max(0, left), order.cycleSeconds * 1000);
}

/** Whole seconds left, rounded up (30, 29, … 1), 0 once expired. */
export function secondsLeft(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}

/** A countdown as m:ss (`0:29`, `4:59`), or h:mm:ss from an hour up. */
export function countdownText(ms: number): string {
  const total = secondsLeft(ms);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${ss}` : `${minutes}:${ss}`;
}

/**
 * The server's clock against this device's, from one answer that carries a server time made while
 * the request was on its way (e.g. an order's `placedAtMs`): the server time minus the request's
 * midpoint on the device clock.
 */
export function estimateSkewMs(serverMs: number, sentAtLocalMs: number, receivedAtLocalMs: number): number {
  return Math.round(serverMs - (sentAtLocalMs + receivedAtLocalMs) / 2);
}

/** A settled order's result as the user reads it. */
export type OrderResult = 'open' | 'profit' | 'loss' | 'flat' | 'void';

export function resultOf(order: Pick<OptionOrder, 'status'>): OrderResult {
  switch (order.status) {
    case 'won':
      return 'profit';
    case 'lost':
      return 'loss';
    case 'flat':
      return 'flat';
    case 'void':
      return 'void';
    default:
      return 'open';
  }
}

/** Seconds a closing price may be late before the order is void, as the screen states it. */
export function closeDelaySeconds(rule: OptionsOverview['rule']): string {
  const ms = rule.closeTickMaxDelayMs;
  return ms % 1000 === 0 ? String(ms / 1000) : decimalToString({ minor: BigInt(ms), scale: 3 }).replace(/0+$/, '');
}
