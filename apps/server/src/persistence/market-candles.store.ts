import { type Candle, type CandleInterval, parsePriceMinor } from '@keel/domain';
import type { Queryable } from './db.ts';

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
 * The `limit` latest candles of a market and interval, newest first, optionally only those that
 * opened before `beforeMs`. (Written by recordTickBatch in market-ticks.store.ts.)
 */
export async function readLatestCandles(
  db: Queryable,
  query: { symbol: string; interval: CandleInterval; limit: number; beforeMs?: number },
): Promise<Candle[]> {
  const rows = await db.query<CandleRow>(
    `SELECT open_time_ms, open::text AS open, high::text AS high, low::text AS low, close::text AS close, tick_count, close_tick_id
     FROM market_candles
     WHERE symbol = $1 AND interval = $2 AND ($3::bigint IS NULL OR open_time_ms < $3)
     ORDER BY open_time_ms DESC LIMIT $4`,
    [query.symbol, query.interval, query.beforeMs ?? null, query.limit],
  );
  return rows.map((row) => ({
    symbol: query.symbol,
    interval: query.interval,
    openTimeMs: Number(row.open_time_ms),
    openMinor: parsePriceMinor(row.open),
    highMinor: parsePriceMinor(row.high),
    lowMinor: parsePriceMinor(row.low),
    closeMinor: parsePriceMinor(row.close),
    tickCount: row.tick_count,
    closeTickId: row.close_tick_id,
  }));
}
