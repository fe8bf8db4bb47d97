import { aggregateCandles, formatPriceMinor, normalizeFeedPrice, parsePriceMinor } from '@keel/domain';
import type { LatestTick } from '../market/market-prices.ts';
import type { Db, Queryable } from './db.ts';

/** A price observation on its way to being recorded. */
export interface TickInput {
  symbol: string;
  /** Decimal text; cut to PRICE_SCALE decimals when recorded. */
  price: string;
  atMs: number;
  source: string;
}

/** A recorded tick: a row of market_ticks. Same shape as what MarketPrices serves. */
export type RecordedTick = LatestTick;

/** The most ticks one INSERT carries; a feed's flush never needs more, and it bounds the statement. */
export const MAX_TICKS_PER_BATCH = 1_000;

// Any fixed number (the migrations use 7_242_001). Held from the INSERT to commit, so ids are
// handed out in commit order and a reader tailing "id > last" can never skip a row that commits later.
const RECORD_LOCK_ID = 7_242_002;

/** The feed lease a batch is recorded under; the batch commits only while it is held. */
export interface LeaseFence {
  name: string;
  holder: string;
}

/** The writer's lease expired or was taken over: it must stop recording. */
export class LeaseLostError extends Error {
  constructor(lease: LeaseFence) {
    super(`market feed lease "${lease.name}" is no longer held by ${lease.holder}`);
    this.name = 'LeaseLostError';
  }
}

interface TickRow {
  id: bigint;
  symbol: string;
  price: string;
  observed_at_ms: bigint;
  source: string;
}

const TICK_COLUMNS = 'id, symbol, price::text AS price, observed_at_ms, source';

function toRecordedTick(row: TickRow): RecordedTick {
  return { tickId: row.id, symbol: row.symbol, price: row.price, atMs: Number(row.observed_at_ms), source: row.source };
}

/**
 * Records a batch of ticks and folds them into the 1m…1d candles, in one transaction: one
 * multi-row INSERT (RETURNING the ids) and one multi-row candle upsert. Prices are cut to 8
 * decimals (normalizeFeedPrice); a malformed or non-positive price refuses the whole batch, so
 * callers check feed prices first. With `lease`, the batch commits only if the lease is still held
 * (the row is share-locked until commit, so it cannot be taken over mid-batch); otherwise
 * LeaseLostError and nothing is written. A tick observed before the last recorded tick of its
 * market is stale and left out. Returns the recorded ticks in id order.
 */
export async function recordTickBatch(db: Db, ticks: readonly TickInput[], options: { lease?: LeaseFence } = {}): Promise<RecordedTick[]> {
  if (ticks.length === 0) return [];
  if (ticks.length > MAX_TICKS_PER_BATCH) throw new RangeError(`at most ${MAX_TICKS_PER_BATCH} ticks per batch`);
  const prices = ticks.map((tick) => normalizeFeedPrice(tick.price));
  for (const tick of ticks) {
    if (!Number.isSafeInteger(tick.atMs) || tick.atMs < 0) throw new RangeError(`bad tick time ${tick.atMs}`);
  }
  return db.transaction(async (tx) => {
    if (options.lease) {
      const held = await tx.query(
        `SELECT 1 FROM market_feed_lease WHERE name = $1 AND holder = $2 AND expires_at > clock_timestamp() FOR SHARE`,
        [options.lease.name, options.lease.holder],
      );
      if (held.length === 0) throw new LeaseLostError(options.lease);
    }
    await tx.query('SELECT pg_advisory_xact_lock($1)', [RECORD_LOCK_ID]);
    // Per market, observed times never go back in recording order: a tick observed before the
    // last one recorded for its market is stale and left out (under the lock, so across feeds and
    // nodes too). Contract settlement relies on it (ADR 0017): the first tick recorded at or after
    // a time is then the one with the lowest observed time at or after it, one index probe away.
    const symbols = [...new Set(ticks.map((tick) => tick.symbol))];
    const lastRows = await tx.query<{ symbol: string; last_ms: bigint | null }>(
      `SELECT s.symbol, (SELECT m.observed_at_ms FROM market_ticks m WHERE m.symbol = s.symbol ORDER BY m.observed_at_ms DESC LIMIT 1) AS last_ms
       FROM unnest($1::text[]) AS s(symbol)`,
      [symbols],
    );
    const lastMs = new Map(lastRows.map((row) => [row.symbol, row.last_ms === null ? -1 : Number(row.last_ms)]));
    const kept: number[] = [];
    ticks.forEach((tick, index) => {
      if (tick.atMs < (lastMs.get(tick.symbol) ?? -1)) return;
      lastMs.set(tick.symbol, tick.atMs);
      kept.push(index);
    });
    if (kept.length === 0) return [];
    const fresh = kept.map((index) => ticks[index]!);
    const freshPrices = kept.map((index) => prices[index]!);
    // ORDER BY the array position makes the ids follow the batch order.
    const rows = await tx.query<TickRow>(
      `INSERT INTO market_ticks (symbol, price, observed_at_ms, source)
       SELECT symbol, price, observed_at_ms, source
       FROM unnest($1::text[], $2::numeric[], $3::bigint[], $4::text[]) WITH ORDINALITY AS t(symbol, price, observed_at_ms, source, n)
       ORDER BY n
       RETURNING ${TICK_COLUMNS}`,
      [fresh.map((tick) => tick.symbol), freshPrices, fresh.map((tick) => String(tick.atMs)), fresh.map((tick) => tick.source)],
    );
    const recorded = rows.map(toRecordedTick).sort((a, b) => (a.tickId < b.tickId ? -1 : 1));
    await upsertCandles(tx, recorded);
    return recorded;
  });
}

async function upsertCandles(tx: Queryable, ticks: readonly RecordedTick[]): Promise<void> {
  const candles = aggregateCandles(
    ticks.map((tick) => ({ tickId: tick.tickId, symbol: tick.symbol, priceMinor: parsePriceMinor(tick.price), atMs: tick.atMs })),
  );
  // Same rules as mergeCandles in the domain: the open stays, high and low widen, the close with
  // the larger tick id wins, counts add up.
  await tx.query(
    `INSERT INTO market_candles (symbol, interval, open_time_ms, open, high, low, close, tick_count, close_tick_id)
     SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[], $8::int[], $9::bigint[])
     ON CONFLICT (symbol, interval, open_time_ms) DO UPDATE SET
       high = GREATEST(market_candles.high, EXCLUDED.high),
       low = LEAST(market_candles.low, EXCLUDED.low),
       close = CASE WHEN EXCLUDED.close_tick_id > market_candles.close_tick_id THEN EXCLUDED.close ELSE market_candles.close END,
       close_tick_id = GREATEST(market_candles.close_tick_id, EXCLUDED.close_tick_id),
       tick_count = market_candles.tick_count + EXCLUDED.tick_count`,
    [
      candles.map((candle) => candle.symbol),
      candles.map((candle) => candle.interval),
      candles.map((candle) => String(candle.openTimeMs)),
      candles.map((candle) => formatPriceMinor(candle.openMinor)),
      candles.map((candle) => formatPriceMinor(candle.highMinor)),
      candles.map((candle) => formatPriceMinor(candle.lowMinor)),
      candles.map((candle) => formatPriceMinor(candle.closeMinor)),
      candles.map((candle) => candle.tickCount),
      candles.map((candle) => candle.closeTickId.toString()),
    ],
  );
}

/** Ticks recorded after `afterId`, oldest first, at most `limit`: how every node tails the table. */
export async function readTicksAfter(db: Queryable, afterId: bigint, limit: number): Promise<RecordedTick[]> {
  const rows = await db.query<TickRow>(`SELECT ${TICK_COLUMNS} FROM market_ticks WHERE id > $1 ORDER BY id LIMIT $2`, [afterId, limit]);
  return rows.map(toRecordedTick);
}

/**
 * The newest ticks with afterId < id ≤ upToId, at most `limit`, returned oldest first, and whether
 * older ones in that range were left out. For a resuming WebSocket client.
 */
export async function readTicksForReplay(db: Queryable, afterId: bigint, upToId: bigint, limit: number): Promise<{ ticks: RecordedTick[]; truncated: boolean }> {
  if (upToId <= afterId) return { ticks: [], truncated: false };
  const rows = await db.query<TickRow>(
    `SELECT ${TICK_COLUMNS} FROM market_ticks WHERE id > $1 AND id <= $2 ORDER BY id DESC LIMIT $3`,
    [afterId, upToId, limit + 1],
  );
  const truncated = rows.length > limit;
  return { ticks: rows.slice(0, limit).reverse().map(toRecordedTick), truncated };
}

/**
 * Where a tailing node starts: the last recorded id and, as of that id, the last tick of each of
 * `symbols` (one index probe per symbol on (symbol, id)).
 */
export async function readTailStart(db: Queryable, symbols: readonly string[]): Promise<{ lastTickId: bigint; latest: RecordedTick[] }> {
  const [head] = await db.query<{ last_id: bigint }>('SELECT coalesce(max(id), 0)::bigint AS last_id FROM market_ticks');
  const lastTickId = head?.last_id ?? 0n;
  const rows = await db.query<TickRow>(
    `SELECT t.id, t.symbol, t.price::text AS price, t.observed_at_ms, t.source
     FROM unnest($1::text[]) AS s(symbol)
     CROSS JOIN LATERAL (
       SELECT id, symbol, price, observed_at_ms, source FROM market_ticks m
       WHERE m.symbol = s.symbol AND m.id <= $2 ORDER BY m.id DESC LIMIT 1
     ) t`,
    [[...symbols], lastTickId],
  );
  return { lastTickId, latest: rows.map(toRecordedTick) };
}

/**
 * Deletes up to `limit` of the oldest ticks recorded more than `retentionHours` ago. Walks the
 * primary key from the oldest id, so it costs `limit` index entries whether or not anything is old.
 * Returns how many rows went; call again while it returns `limit`.
 */
export async function deleteTicksOlderThan(db: Queryable, retentionHours: number, limit: number): Promise<number> {
  const rows = await db.query(
    `WITH oldest AS (SELECT id FROM market_ticks ORDER BY id LIMIT $2)
     DELETE FROM market_ticks m USING oldest
     WHERE m.id = oldest.id AND m.recorded_at < now() - $1::int * interval '1 hour'
     RETURNING m.id`,
    [retentionHours, limit],
  );
  return rows.length;
}
