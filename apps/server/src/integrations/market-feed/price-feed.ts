import type { FastifyBaseLogger } from 'fastify';

/**
 * Where prices come from. A feed only observes prices and hands them on; the MarketService
 * records them (on the lease-holding node), and everything else reads the recorded ticks.
 */
export interface FeedTick {
  /** ccxt-style symbol, `BTC/USDT`. */
  symbol: string;
  /** Decimal text (no exponent); cut to 8 decimals when recorded. */
  price: string;
  /** When the source observed the price, ms since the epoch. */
  atMs: number;
}

export interface FeedStartContext {
  /**
   * The last recorded price per symbol, so a feed that makes its prices up (the simulator)
   * continues from where the previous run or the previous lease holder left off.
   */
  lastPrices?: ReadonlyMap<string, string>;
  /** Where the feed reports trouble (a failed poll). */
  logger?: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}

export interface PriceFeed {
  /** Recorded with every tick: `simulator`, `ccxt:binance`, … */
  readonly source: string;
  /** Starts observing; `onTick` is called for every observation. */
  start(onTick: (tick: FeedTick) => void, context?: FeedStartContext): Promise<void>;
  /** Stops observing; no `onTick` call happens after it resolves. */
  stop(): Promise<void>;
}

/** Time and timers, injectable so feeds can be driven step by step in tests. */
export interface FeedClock {
  nowMs(): number;
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: FeedClock = {
  nowMs: () => Date.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
