import { AppError } from '@keel/contracts';
import type { Config } from '../../config/env.ts';

/** Refuses a symbol that is not a listed market (MARKET_SYMBOLS), naming it. */
export function assertListedMarket(config: Pick<Config, 'MARKET_SYMBOLS'>, symbol: string): void {
  if (!config.MARKET_SYMBOLS.includes(symbol)) throw new AppError('RECORD_NOT_FOUND', { symbol });
}
