import { randomBytes } from 'node:crypto';
import type { Config } from '../../config/env.ts';
import { CcxtFeed } from './ccxt-feed.ts';
import type { PriceFeed } from './price-feed.ts';
import { SimulatorFeed } from './simulator-feed.ts';

/** The feed MARKET_FEED names, or undefined for `off` (the node then only serves recorded ticks). */
export function createConfiguredFeed(config: Config): PriceFeed | undefined {
  switch (config.MARKET_FEED) {
    case 'simulator':
      return new SimulatorFeed({
        symbols: config.MARKET_SYMBOLS,
        // Without a configured seed each start walks a new path (from the last recorded prices).
        seed: config.MARKET_SIM_SEED ?? randomBytes(8).toString('hex'),
        tickIntervalMs: config.MARKET_TICK_INTERVAL_MS,
      });
    case 'ccxt':
      return new CcxtFeed({
        exchangeId: config.MARKET_CCXT_EXCHANGE,
        symbols: config.MARKET_SYMBOLS,
        pollIntervalMs: config.MARKET_CCXT_POLL_MS,
      });
    case 'off':
      return undefined;
  }
}
