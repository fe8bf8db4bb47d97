import type { LeverageMarkPrice } from '@keel/contracts';
import { formatPriceMinor, MARK_PRICE_TICKS, markPriceAt, parsePriceMinor, type RecordedPrice } from '@keel/domain';

/**
 * The mark price on screen (issue 16, ADR 0034): the published rule — the median of a market's last
 * MARK_PRICE_TICKS recorded ticks among those within MARK_PRICE_WINDOW_MS of the newest, at least
 * MARK_PRICE_MIN_TICKS — the rule the server liquidates by (`markPriceAt` of the domain).
 *
 * The server answers a mark per market (the overview, the open positions) with the ids of the ticks
 * it took. From there the screen follows the ticks pushed over `/ws`, which come in recording
 * order with no gap (a connection resumes from the last tick it saw; a gap it cannot fill is a
 * resync, `forgetPushedTicks`). Once a market has pushed MARK_PRICE_TICKS ticks, the last of them
 * are exactly the ticks the rule takes, and the screen computes the mark itself, tick by tick.
 * Before that the server's mark is shown, and asked for again whenever a pushed tick is newer than
 * the ticks it was made from (`needsServerMark`).
 */

export interface ShownMark {
  symbol: string;
  /** Decimal price (8 decimals). */
  price: string;
  priceMinor: bigint;
  /** The recorded ticks the median was taken over, oldest first. */
  tickIds: string[];
  /** Observed time of the newest of them. */
  atMs: number;
  /** Computed here from pushed ticks, or the server's answer. */
  from: 'ticks' | 'server';
}

export interface PushedTick {
  tickId: string;
  symbol: string;
  price: string;
  atMs: number;
}

/** Per market, the last MARK_PRICE_TICKS ticks pushed since the screen began following them, oldest first. */
export type PushedTicks = ReadonlyMap<string, readonly RecordedPrice[]>;

export const noPushedTicks: PushedTicks = new Map();

/**
 * A pushed tick added to its market's run; the same map when it adds nothing (a tick already seen,
 * or older than the newest seen — a replay after a reconnect).
 */
export function addPushedTick(pushed: PushedTicks, tick: PushedTick): PushedTicks {
  const id = BigInt(tick.tickId);
  const run = pushed.get(tick.symbol) ?? [];
  const newest = run.at(-1);
  if (newest && id <= newest.tickId) return pushed;
  const next = new Map(pushed);
  next.set(tick.symbol, [...run, { tickId: id, priceMinor: parsePriceMinor(tick.price), atMs: tick.atMs }].slice(-MARK_PRICE_TICKS));
  return next;
}

/** Ticks were missed and cannot be replayed: every run starts again from the next pushed tick. */
export function forgetPushedTicks(): PushedTicks {
  return noPushedTicks;
}

const lastTickIdOf = (mark: Pick<LeverageMarkPrice, 'tickIds'>): bigint => BigInt(mark.tickIds.at(-1) ?? '0');

/** The newest of the server's answers per market (the overview's and the open positions' marks). */
export function newestServerMarks(...lists: readonly (readonly LeverageMarkPrice[] | undefined)[]): Map<string, LeverageMarkPrice> {
  const newest = new Map<string, LeverageMarkPrice>();
  for (const list of lists) {
    for (const mark of list ?? []) {
      const held = newest.get(mark.symbol);
      if (!held || lastTickIdOf(mark) > lastTickIdOf(held)) newest.set(mark.symbol, mark);
    }
  }
  return newest;
}

/**
 * The mark price of `symbol` as the screen shows it: computed from the pushed ticks once it has the
 * whole window of them (null when fewer than the minimum are within the window: no mark price, and
 * none on the server either), else the server's (null when it has none).
 */
export function shownMark(symbol: string, pushed: PushedTicks, serverMarks: ReadonlyMap<string, LeverageMarkPrice>): ShownMark | null {
  const run = pushed.get(symbol) ?? [];
  if (run.length >= MARK_PRICE_TICKS) {
    const mark = markPriceAt(run);
    if (!mark) return null;
    return {
      symbol,
      price: formatPriceMinor(mark.priceMinor),
      priceMinor: mark.priceMinor,
      tickIds: mark.tickIds.map(String),
      atMs: run.at(-1)!.atMs,
      from: 'ticks',
    };
  }
  const server = serverMarks.get(symbol);
  if (!server) return null;
  return { symbol, price: server.price, priceMinor: parsePriceMinor(server.price), tickIds: [...server.tickIds], atMs: server.atMs, from: 'server' };
}

/**
 * True when the screen cannot yet compute `symbol`'s mark itself and a pushed tick is newer than
 * the server's mark (or the server has none): the server's mark is out of date and worth asking again.
 */
export function needsServerMark(symbol: string, pushed: PushedTicks, serverMarks: ReadonlyMap<string, LeverageMarkPrice>): boolean {
  const run = pushed.get(symbol) ?? [];
  if (run.length === 0 || run.length >= MARK_PRICE_TICKS) return false;
  const server = serverMarks.get(symbol);
  return !server || run.at(-1)!.tickId > lastTickIdOf(server);
}
