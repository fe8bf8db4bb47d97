/**
 * What the rest of the server asks of market data: the last recorded tick of a symbol. Swap
 * quotes, contract settlement and liquidations read prices only through this, and every price
 * they use is a recorded tick (id, time, source) that the user is shown.
 */
export interface LatestTick {
  /** Id of the row in market_ticks. */
  tickId: bigint;
  /** ccxt-style symbol, `BTC/USDT`. */
  symbol: string;
  /** Decimal string with PRICE_SCALE (8) decimals. */
  price: string;
  /** When the source observed the price. */
  atMs: number;
  /** `simulator`, `ccxt:binance`, … */
  source: string;
}

export interface MarketPrices {
  /** The last recorded tick of `symbol`, or undefined when none has been recorded yet. */
  latest(symbol: string): LatestTick | undefined;
}

/** For processes that serve no prices: every lookup finds nothing (callers answer PRICE_UNAVAILABLE). */
export const noMarketPrices: MarketPrices = { latest: () => undefined };
