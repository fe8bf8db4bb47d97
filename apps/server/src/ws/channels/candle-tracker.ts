import { type Candle, type CandleInterval, candleOfTick, candleOpenTimeMs, mergeCandles, parsePriceMinor } from '@keel/domain';
import type { Queryable } from '../../persistence/db.ts';
import { readLatestCandles } from '../../persistence/market-candles.store.ts';
import type { RecordedTick } from '../../persistence/market-ticks.store.ts';

export interface CandleChannel {
  symbol: string;
  interval: CandleInterval;
}

const keyOf = (channel: CandleChannel) => `${channel.symbol}\u0000${channel.interval}`;

/**
 * The current candle of each candle channel someone is subscribed to, kept up to date from the
 * ticks this node takes in, so a push costs no query. A channel's candle is read from the
 * database once (when first needed); from then on only ticks with a larger id than its close tick
 * are folded in (mergeCandles, the same rule as the database upsert), so a tick is never counted
 * twice whether the read happened before or after the tick arrived. Not safe for concurrent use:
 * the gateway runs every call through one queue.
 */
export class CandleTracker {
  private readonly current = new Map<string, Candle | null>();

  constructor(private readonly db: Queryable) {}

  /** The channel's current candle (reading it from the database if not yet held), or undefined if it has none. */
  async candle(channel: CandleChannel): Promise<Candle | undefined> {
    const key = keyOf(channel);
    if (!this.current.has(key)) this.current.set(key, await this.load(channel));
    return this.current.get(key) ?? undefined;
  }

  /**
   * Folds `ticks` (in id order) into the candles of `channels`; returns each candle after each
   * tick that changed it, in order.
   */
  async apply(ticks: readonly RecordedTick[], channels: readonly CandleChannel[]): Promise<Array<{ channel: CandleChannel; candle: Candle }>> {
    const updates: Array<{ channel: CandleChannel; candle: Candle }> = [];
    for (const channel of channels) {
      const key = keyOf(channel);
      for (const tick of ticks) {
        if (tick.symbol !== channel.symbol) continue;
        const freshlyLoaded = !this.current.has(key);
        const held = await this.candle(channel);
        const priced = { tickId: tick.tickId, symbol: tick.symbol, priceMinor: parsePriceMinor(tick.price), atMs: tick.atMs };
        const bucketMs = candleOpenTimeMs(tick.atMs, channel.interval);
        let next: Candle | undefined;
        if (!held || bucketMs > held.openTimeMs) next = candleOfTick(priced, channel.interval);
        else if (bucketMs === held.openTimeMs && tick.tickId > held.closeTickId) next = mergeCandles(held, candleOfTick(priced, channel.interval));
        // Read after this tick was recorded: the stored candle already holds it, and is news to the subscribers.
        else if (freshlyLoaded && bucketMs === held.openTimeMs) next = held;
        // Otherwise the tick is already in the candle, or belongs to an older bucket: nothing changes.
        if (!next) continue;
        this.current.set(key, next);
        updates.push({ channel, candle: next });
      }
    }
    return updates;
  }

  /** Forgets the candles of channels nobody is subscribed to any more. */
  retain(channels: readonly CandleChannel[]): void {
    const keep = new Set(channels.map(keyOf));
    for (const key of this.current.keys()) if (!keep.has(key)) this.current.delete(key);
  }

  private async load(channel: CandleChannel): Promise<Candle | null> {
    const [latest] = await readLatestCandles(this.db, { ...channel, limit: 1 });
    return latest ?? null;
  }
}
