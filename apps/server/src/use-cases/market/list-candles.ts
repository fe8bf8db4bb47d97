import type { candleSchema } from '@keel/contracts';
import { type CandleInterval, parsePriceMinor } from '@keel/domain';
import type { z } from 'zod';
import type { Deps } from '../../deps.ts';
import { candleToWire } from '../../market/tick-wire.ts';
import { assertListedMarket } from './listed-market.ts';

interface CandleRow {
  open_time_ms: bigint;
  open: string;
  high: string;
  low: string;
  close: string;
  tick_count: number;
  close_tick_id: bigint;
}

/**
 * Candles of a listed market, oldest first: the `limit` latest ones, or the `limit` latest that
 * opened before `beforeMs` (paging back in time). A bucket without any tick has no candle.
 */
export async function listCandles(
  deps: Pick<Deps, 'db' | 'config'>,
  input: { symbol: string; interval: CandleInterval; limit: number; beforeMs?: number },
): Promise<{ symbol: string; interval: CandleInterval; items: z.input<typeof candleSchema>[] }> {
  assertListedMarket(deps.config, input.symbol);
  const rows = await deps.db.query<CandleRow>(
    `SELECT open_time_ms, open::text AS open, high::text AS high, low::text AS low, close::text AS close, tick_count, close_tick_id
     FROM market_candles
     WHERE symbol = $1 AND interval = $2 AND ($3::bigint IS NULL OR open_time_ms < $3)
     ORDER BY open_time_ms DESC LIMIT $4`,
    [input.symbol, input.interval, input.beforeMs ?? null, input.limit],
  );
  const items = rows.reverse().map((row) =>
    candleToWire({
      symbol: input.symbol,
      interval: input.interval,
      openTimeMs: Number(row.open_time_ms),
      openMinor: parsePriceMinor(row.open),
      highMinor: parsePriceMinor(row.high),
      lowMinor: parsePriceMinor(row.low),
      closeMinor: parsePriceMinor(row.close),
      tickCount: row.tick_count,
      closeTickId: row.close_tick_id,
    }),
  );
  return { symbol: input.symbol, interval: input.interval, items };
}
