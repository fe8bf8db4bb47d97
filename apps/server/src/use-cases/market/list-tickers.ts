import type { tickerSchema } from '@keel/contracts';
import { parsePriceMinor, percentChangeText, tickerWindow } from '@keel/domain';
import type { z } from 'zod';
import type { Deps } from '../../deps.ts';
import { tickToWire } from '../../market/tick-wire.ts';

interface TickerRow {
  symbol: string;
  id: bigint;
  price: string;
  observed_at_ms: bigint;
  source: string;
  open: string | null;
  high: string | null;
  low: string | null;
}

/**
 * Every listed market that has a recorded tick, in the listed order: its last tick and its 24 h
 * open, high, low and change. One statement: the last tick is one index probe per market, and the
 * 24 h figures come from at most 60 one-minute and 24 one-hour candles per market (see
 * tickerWindow), never from raw ticks.
 */
export async function listTickers(deps: Pick<Deps, 'db' | 'config' | 'now'>): Promise<{ items: z.input<typeof tickerSchema>[] }> {
  const symbols = deps.config.MARKET_SYMBOLS;
  const window = tickerWindow(deps.now().getTime());
  const rows = await deps.db.query<TickerRow>(
    `WITH listed AS (
       SELECT symbol, ord FROM unnest($1::text[]) WITH ORDINALITY AS l(symbol, ord)
     ), last_tick AS (
       SELECT l.symbol, l.ord, t.id, t.price, t.observed_at_ms, t.source
       FROM listed l
       CROSS JOIN LATERAL (
         SELECT id, price::text AS price, observed_at_ms, source FROM market_ticks m
         WHERE m.symbol = l.symbol ORDER BY m.id DESC LIMIT 1
       ) t
     ), day AS (
       SELECT symbol,
              (array_agg(open ORDER BY open_time_ms))[1] AS open,
              max(high) AS high,
              min(low) AS low
       FROM market_candles
       WHERE symbol = ANY($1::text[])
         AND ((interval = '1m' AND open_time_ms >= $2 AND open_time_ms < $3)
           OR (interval = '1h' AND open_time_ms >= $3 AND open_time_ms <= $4))
       GROUP BY symbol
     )
     SELECT last_tick.symbol, last_tick.id, last_tick.price, last_tick.observed_at_ms, last_tick.source,
            day.open::text AS open, day.high::text AS high, day.low::text AS low
     FROM last_tick LEFT JOIN day ON day.symbol = last_tick.symbol
     ORDER BY last_tick.ord`,
    [[...symbols], window.minuteFromMs, window.hourFromMs, window.toMs],
  );
  return {
    items: rows.map((row) => {
      const [base, quote] = row.symbol.split('/') as [string, string];
      // No candle in the window: nothing traded for a day, so the last price is all there is.
      const open = row.open ?? row.price;
      return {
        symbol: row.symbol,
        base,
        quote,
        last: tickToWire({ tickId: row.id, symbol: row.symbol, price: row.price, atMs: Number(row.observed_at_ms), source: row.source }),
        open24h: open,
        high24h: row.high ?? row.price,
        low24h: row.low ?? row.price,
        change24hPct: percentChangeText(parsePriceMinor(open), parsePriceMinor(row.price)),
      };
    }),
  };
}
