import type { candleSchema, recordedTickSchema } from '@keel/contracts';
import { type Candle, formatPriceMinor } from '@keel/domain';
import type { z } from 'zod';
import type { LatestTick } from './market-prices.ts';

/** A recorded tick as the API and /ws show it: the id as a decimal string. */
export function tickToWire(tick: LatestTick): z.input<typeof recordedTickSchema> {
  return { tickId: tick.tickId.toString(), symbol: tick.symbol, price: tick.price, atMs: tick.atMs, source: tick.source };
}

/** A candle as the API and /ws show it: prices with 8 decimals, like the database's numeric(38, 8). */
export function candleToWire(candle: Candle): z.input<typeof candleSchema> {
  return {
    openTimeMs: candle.openTimeMs,
    open: formatPriceMinor(candle.openMinor),
    high: formatPriceMinor(candle.highMinor),
    low: formatPriceMinor(candle.lowMinor),
    close: formatPriceMinor(candle.closeMinor),
    tickCount: candle.tickCount,
  };
}
