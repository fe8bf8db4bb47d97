import type { candleSchema } from '@keel/contracts';
import type { CandleInterval } from '@keel/domain';
import type { z } from 'zod';
import type { Deps } from '../../deps.ts';
import { candleToWire } from '../../market/tick-wire.ts';
import { readLatestCandles } from '../../persistence/market-candles.store.ts';
import { assertListedMarket } from './listed-market.ts';

/**
 * Candles of a listed market, oldest first: the `limit` latest ones, or the `limit` latest that
 * opened before `beforeMs` (paging back in time). A bucket without any tick has no candle.
 */
export async function listCandles(
  deps: Pick<Deps, 'db' | 'config'>,
  input: { symbol: string; interval: CandleInterval; limit: number; beforeMs?: number },
): Promise<{ symbol: string; interval: CandleInterval; items: z.input<typeof candleSchema>[] }> {
  assertListedMarket(deps.config, input.symbol);
  const newestFirst = await readLatestCandles(deps.db, input);
  return { symbol: input.symbol, interval: input.interval, items: newestFirst.reverse().map(candleToWire) };
}
