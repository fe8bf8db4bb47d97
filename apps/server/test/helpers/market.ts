import { defaultSimulatedMarkets } from '@keel/domain';
import type { FeedStartContext, FeedTick, PriceFeed } from '../../src/integrations/market-feed/price-feed.ts';
import { MarketService, type MarketServiceOptions } from '../../src/market/market.service.ts';
import type { Db } from '../../src/persistence/db.ts';
import { MAX_TICKS_PER_BATCH, type RecordedTick, recordTickBatch } from '../../src/persistence/market-ticks.store.ts';

/** A price to record in a test; the time defaults to now and the source to `test`. */
export interface TestTick {
  symbol: string;
  price: string;
  atMs?: number;
  source?: string;
}

/**
 * Records ticks through the production recorder (one batched INSERT and the candle upsert in one
 * transaction, prices cut to 8 decimals), so candles, tickers, replay and the tail see them
 * exactly as they see feed ticks. Returns the recorded rows in id order.
 */
export async function recordTicksForTest(db: Db, ticks: readonly TestTick[]): Promise<RecordedTick[]> {
  const nowMs = Date.now();
  const recorded: RecordedTick[] = [];
  for (let i = 0; i < ticks.length; i += MAX_TICKS_PER_BATCH) {
    const batch = ticks.slice(i, i + MAX_TICKS_PER_BATCH).map((tick) => ({
      symbol: tick.symbol,
      price: tick.price,
      atMs: tick.atMs ?? nowMs,
      source: tick.source ?? 'test',
    }));
    recorded.push(...(await recordTickBatch(db, batch)));
  }
  return recorded;
}

/** A feed that ticks when the test says so. */
export class ManualFeed implements PriceFeed {
  readonly source: string;
  private onTick: ((tick: FeedTick) => void) | undefined;
  /** The prices the last start was given (the last recorded ones). */
  startedWith: ReadonlyMap<string, string> | undefined;

  constructor(source = 'manual') {
    this.source = source;
  }

  get running(): boolean {
    return this.onTick !== undefined;
  }

  async start(onTick: (tick: FeedTick) => void, context: FeedStartContext = {}): Promise<void> {
    this.onTick = onTick;
    this.startedWith = context.lastPrices;
  }

  async stop(): Promise<void> {
    this.onTick = undefined;
  }

  /** Hands one observation to the service, if the feed is running (only on the lease holder). */
  emit(symbol: string, price: string, atMs = Date.now()): boolean {
    this.onTick?.({ symbol, price, atMs });
    return this.onTick !== undefined;
  }
}

export interface TestMarket {
  service: MarketService;
  /** Records ticks (recordTicksForTest) and waits until this node's MarketService has taken them in. */
  record(ticks: readonly TestTick[]): Promise<RecordedTick[]>;
  stop(): Promise<void>;
}

/**
 * A started MarketService on `db` with test-speed intervals; without a feed it only tails, which
 * is what an app under test needs to serve `deps.market.latest()` and /ws. Use `record` to set
 * known prices:
 *
 *   const market = await startTestMarket(db);
 *   await market.record([{ symbol: 'BTC/USDT', price: '90000' }]);
 *   market.service.latest('BTC/USDT')?.price; // '90000.00000000'
 */
export async function startTestMarket(db: Db, options: Partial<MarketServiceOptions> = {}): Promise<TestMarket> {
  const service = new MarketService({
    db,
    symbols: defaultSimulatedMarkets.map((market) => market.symbol),
    tailIntervalMs: 25,
    flushIntervalMs: 25,
    leaseTtlMs: 1_000,
    leaseRenewMs: 100,
    ...options,
  });
  await service.start();
  return {
    service,
    async record(ticks) {
      const recorded = await recordTicksForTest(db, ticks);
      await service.syncNow();
      return recorded;
    },
    stop: () => service.stop(),
  };
}
