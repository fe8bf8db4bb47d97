import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { normalizeFeedPrice } from '@keel/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { FeedTick, PriceFeed } from '../integrations/market-feed/price-feed.ts';
import type { Db } from '../persistence/db.ts';
import { releaseLease, seizeLease, takeOrRenewLease } from '../persistence/market-feed-lease.store.ts';
import {
  deleteTicksOlderThan,
  LeaseLostError,
  MAX_TICKS_PER_BATCH,
  readTailStart,
  readTicksAfter,
  type RecordedTick,
  recordTickBatch,
} from '../persistence/market-ticks.store.ts';
import type { LatestTick, MarketPrices } from './market-prices.ts';

type Logger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** What the WebSocket gateway needs: prices plus the stream of recorded ticks in id order. */
export interface TickStream extends MarketPrices {
  /** Id of the last tick this node has taken in (and announced); later ticks reach `onTicks` listeners. */
  readonly lastTickId: bigint;
  /**
   * Called with each run of newly recorded ticks, in id order, with no gap and no repeat. The call
   * is synchronous with the update of `lastTickId`, so a listener added at a given moment receives
   * exactly the ticks after the `lastTickId` of that moment.
   */
  onTicks(listener: (ticks: readonly RecordedTick[]) => void): () => void;
}

export function isTickStream(value: MarketPrices): value is TickStream {
  return typeof (value as Partial<TickStream>).onTicks === 'function';
}

export interface MarketServiceOptions {
  db: Db;
  /** The listed markets: loaded at start so `latest` answers at once. */
  symbols: readonly string[];
  /** The feed this node runs while it holds the lease; none: the node only tails. */
  feed?: PriceFeed;
  /** Who this node is in the lease row. */
  holderId?: string;
  leaseName?: string;
  /** How long a taken or renewed lease lasts. */
  leaseTtlMs?: number;
  /** How often the lease is renewed (or, by a follower, asked for); well under the TTL. */
  leaseRenewMs?: number;
  /**
   * Take the lease at start whoever holds it: only for a database no other process can open
   * (embedded PGlite), where the holder can only be a previous run of this process.
   */
  takeOverLeaseOnStart?: boolean;
  /**
   * How often buffered feed ticks are recorded at the latest (one transaction per flush). A tick
   * starts a flush at once when none is under way; this timer retries a flush that failed.
   */
  flushIntervalMs?: number;
  /**
   * How often the node reads ticks recorded since its last read, at the latest: the recording node
   * reads at once after each flush, and other nodes when they hear of it (`onRecorded`; issue 15).
   */
  tailIntervalMs?: number;
  tailPageSize?: number;
  /** Feed ticks held while the database is slow or down; the oldest are dropped beyond it. */
  maxBufferedTicks?: number;
  /** Raw ticks older than this are deleted by the lease holder; 0 keeps them all. */
  retentionHours?: number;
  retentionIntervalMs?: number;
}

/**
 * Market data on one node. Every node tails market_ticks by id into its latest-tick map, which is
 * how it implements MarketPrices, and announces the new ticks to its listeners (the WebSocket
 * gateway). Only the node holding the feed lease runs the feed and records: a tick starts a flush
 * at once unless one is under way (ticks arriving meanwhile go in the next), under the lease, and
 * reaches every node, this one included, through the tail — read at once after the flush here, on
 * other nodes when the event bus brings the news (`onRecorded`, `syncSoon`), and on every node at
 * least every `tailIntervalMs`. So all nodes on one database serve the same recorded prices; the
 * bus only makes them sooner.
 */
export class MarketService implements TickStream {
  readonly holderId: string;
  private readonly options: Required<Omit<MarketServiceOptions, 'feed' | 'holderId'>> & Pick<MarketServiceOptions, 'feed'>;
  private logger: Logger = silentLogger;
  private readonly latestBySymbol = new Map<string, LatestTick>();
  private readonly listeners = new Set<(ticks: readonly RecordedTick[]) => void>();
  private readonly recordedListeners = new Set<() => void>();
  private lastId = 0n;
  private started = false;
  private stopping = false;
  private leading = false;
  private buffer: FeedTick[] = [];
  private tailChain: Promise<void> = Promise.resolve();
  private flushChain: Promise<void> = Promise.resolve();
  private leaseChain: Promise<void> = Promise.resolve();
  /** A read or a flush is asked for and not yet begun: further asks join it (see `syncSoon`, `flushSoon`). */
  private tailAsked = false;
  private flushAsked = false;
  /** The last flush failed: the timer retries, not every arriving tick. */
  private flushFailing = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private lastRetentionMs = 0;

  constructor(options: MarketServiceOptions) {
    this.holderId = options.holderId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.options = {
      leaseName: 'market-feed',
      leaseTtlMs: 10_000,
      leaseRenewMs: 3_000,
      takeOverLeaseOnStart: false,
      flushIntervalMs: 150,
      tailIntervalMs: 200,
      tailPageSize: 1_000,
      maxBufferedTicks: 10_000,
      retentionHours: 0,
      retentionIntervalMs: 60_000,
      ...options,
    };
    if (this.options.leaseRenewMs * 2 > this.options.leaseTtlMs) throw new RangeError('renew the lease at least twice per TTL');
  }

  get symbols(): readonly string[] {
    return this.options.symbols;
  }

  get lastTickId(): bigint {
    return this.lastId;
  }

  /** Whether this node holds the lease and runs the feed. */
  get isLeader(): boolean {
    return this.leading;
  }

  latest(symbol: string): LatestTick | undefined {
    return this.latestBySymbol.get(symbol);
  }

  onTicks(listener: (ticks: readonly RecordedTick[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Called on the recording node after each flush that recorded ticks, so other nodes can read them
   * at once: buildApp publishes it on the event bus, and each node's `syncSoon` answers (issue 15).
   */
  onRecorded(listener: () => void): () => void {
    this.recordedListeners.add(listener);
    return () => this.recordedListeners.delete(listener);
  }

  async start(logger: Logger = silentLogger): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.logger = logger;
    const { lastTickId, latest } = await readTailStart(this.options.db, this.options.symbols);
    this.lastId = lastTickId;
    for (const tick of latest) this.latestBySymbol.set(tick.symbol, tick);
    this.every(this.options.tailIntervalMs, () => this.syncNow());
    if (this.options.feed) {
      if (this.options.takeOverLeaseOnStart) await seizeLease(this.options.db, this.leaseRequest());
      await this.leaseRound();
      this.every(this.options.leaseRenewMs, () => this.leaseRound());
      this.every(this.options.flushIntervalMs, () => this.flushNow());
    }
  }

  /**
   * Stops the feed, records what it still holds, gives the lease up (unless `releaseLease` is
   * false, which a test uses to play a crashed node) and stops tailing. `latest` keeps answering
   * with the last ticks seen.
   */
  async stop(options: { releaseLease?: boolean } = {}): Promise<void> {
    if (!this.started) return;
    this.stopping = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.leaseChain;
    if (this.leading) {
      await this.options.feed?.stop();
      if (options.releaseLease !== false) {
        await this.flushNow();
        await releaseLease(this.options.db, this.leaseRequest()).catch((error: unknown) => {
          this.logger.warn({ err: error }, 'market: could not release the feed lease');
        });
      }
      this.leading = false;
      this.buffer = [];
    }
    await this.flushChain;
    await this.tailChain;
    this.started = false;
  }

  /**
   * Reads the ticks recorded since the last read soon: after the read under way, and once however
   * often it is asked meanwhile (a wake-up after each recording, from this node or another).
   */
  syncSoon(): void {
    if (this.tailAsked || !this.started || this.stopping) return;
    this.tailAsked = true;
    void this.syncNow();
  }

  /** Reads every tick recorded since the last read and announces it (serialised with the timer's reads). */
  syncNow(): Promise<void> {
    this.tailChain = this.tailChain.then(() => this.tailRound()).catch((error: unknown) => {
      this.logger.error({ err: error }, 'market: reading recorded ticks failed');
    });
    return this.tailChain;
  }

  /** Records the buffered feed ticks now (serialised with the timer's flushes). */
  flushNow(): Promise<void> {
    this.flushChain = this.flushChain.then(() => this.flushRound()).catch((error: unknown) => {
      this.logger.error({ err: error }, 'market: recording ticks failed');
    });
    return this.flushChain;
  }

  private leaseRequest() {
    return { name: this.options.leaseName, holder: this.holderId, ttlMs: this.options.leaseTtlMs };
  }

  /** Runs `work` every `intervalMs`, one run at a time, until stop. */
  private every(intervalMs: number, work: () => Promise<void>) {
    const loop = () => {
      const timer = setTimeout(async () => {
        this.timers.delete(timer);
        await work();
        if (!this.stopping) loop();
      }, intervalMs);
      this.timers.add(timer);
    };
    loop();
  }

  private async tailRound(): Promise<void> {
    this.tailAsked = false;
    // Bounded, so one burst cannot keep this loop from yielding; the next round picks up the rest.
    for (let page = 0; page < 20; page += 1) {
      const ticks = await readTicksAfter(this.options.db, this.lastId, this.options.tailPageSize);
      if (ticks.length === 0) return;
      this.takeIn(ticks);
      if (ticks.length < this.options.tailPageSize) return;
    }
  }

  /** Updates the map and announces, synchronously: see TickStream.onTicks. */
  private takeIn(ticks: readonly RecordedTick[]) {
    for (const tick of ticks) this.latestBySymbol.set(tick.symbol, tick);
    this.lastId = ticks[ticks.length - 1]!.tickId;
    for (const listener of this.listeners) {
      try {
        listener(ticks);
      } catch (error) {
        this.logger.error({ err: error }, 'market: a tick listener failed');
      }
    }
  }

  private leaseRound(): Promise<void> {
    this.leaseChain = this.leaseChain
      .then(async () => {
        if (this.stopping) return;
        let held = false;
        try {
          held = await takeOrRenewLease(this.options.db, this.leaseRequest());
        } catch (error) {
          // Unsure whether we still hold it: recording is fenced by the lease row anyway, so keep
          // the feed running; a lost lease shows at the next flush.
          this.logger.warn({ err: error }, 'market: could not renew the feed lease');
          return;
        }
        if (held && !this.leading) await this.lead();
        else if (!held && this.leading) await this.follow('the lease is held by another node');
        if (this.leading) await this.applyRetention();
      })
      .catch((error: unknown) => {
        this.logger.error({ err: error }, 'market: lease round failed');
      });
    return this.leaseChain;
  }

  private async lead() {
    const feed = this.options.feed;
    if (!feed || this.stopping) return;
    // Continue from the last recorded prices, including those another node recorded until now.
    await this.syncNow();
    const lastPrices = new Map([...this.latestBySymbol].map(([symbol, tick]) => [symbol, tick.price]));
    this.buffer = [];
    this.leading = true;
    try {
      await feed.start((tick) => this.accept(tick, feed.source), { lastPrices, logger: this.logger });
    } catch (error) {
      // A feed that cannot start (unknown exchange, no network) must not sit on the lease.
      this.leading = false;
      await releaseLease(this.options.db, this.leaseRequest()).catch(() => {});
      throw error;
    }
    this.logger.info({ holder: this.holderId, source: feed.source }, 'market: this node holds the feed lease and records prices');
  }

  private async follow(reason: string) {
    this.leading = false;
    this.buffer = [];
    await this.options.feed?.stop();
    this.logger.warn({ holder: this.holderId, reason }, 'market: this node stopped recording prices');
  }

  /** A feed observation, checked and buffered for the next flush. */
  private accept(tick: FeedTick, source: string) {
    if (!this.leading) return;
    let price: string;
    try {
      price = normalizeFeedPrice(tick.price);
    } catch {
      this.logger.warn({ tick, source }, 'market: the feed sent a price that is not a positive decimal; dropped');
      return;
    }
    if (!Number.isSafeInteger(tick.atMs) || tick.atMs < 0) {
      this.logger.warn({ tick, source }, 'market: the feed sent a bad time; dropped');
      return;
    }
    this.buffer.push({ symbol: tick.symbol, price, atMs: tick.atMs });
    if (this.buffer.length > this.options.maxBufferedTicks) {
      // The database is not keeping up (or is down): keep the newest prices.
      this.buffer.splice(0, this.buffer.length - this.options.maxBufferedTicks);
    }
    this.flushSoon();
  }

  /**
   * Records the buffer as soon as the flush under way (if any) is done: ticks arriving meanwhile
   * wait for it and go together in the next transaction, so the batch grows with the database's
   * latency instead of a fixed wait (issue 15: a tick waited up to 150 ms to be recorded).
   */
  private flushSoon(): void {
    if (this.flushAsked || this.flushFailing || this.stopping) return;
    this.flushAsked = true;
    void this.flushNow();
  }

  private async flushRound(): Promise<void> {
    this.flushAsked = false;
    const feed = this.options.feed;
    let recordedAny = false;
    try {
      while (this.leading && feed && this.buffer.length > 0) {
        recordedAny = (await this.recordBatch(feed)) || recordedAny;
      }
      this.flushFailing = false;
    } catch (error) {
      this.flushFailing = true;
      throw error;
    } finally {
      if (recordedAny) {
        // This node reads them now; the others when they hear of it (or at their next timed read).
        this.syncSoon();
        for (const listener of this.recordedListeners) listener();
      }
    }
  }

  /** Records the first batch of the buffer; whether any tick was recorded. */
  private async recordBatch(feed: PriceFeed): Promise<boolean> {
    const batch = this.buffer.slice(0, MAX_TICKS_PER_BATCH);
    let recorded: RecordedTick[];
    try {
      recorded = await recordTickBatch(
        this.options.db,
        batch.map((tick) => ({ ...tick, source: feed.source })),
        { lease: { name: this.options.leaseName, holder: this.holderId } },
      );
    } catch (error) {
      if (error instanceof LeaseLostError) {
        await this.follow('the lease expired before the ticks could be recorded');
        return false;
      }
      // Kept for the next flush (bounded by maxBufferedTicks).
      throw error;
    }
    // A feed whose times go back sends stale prices; they are left out (ADR 0009 addendum), and said.
    if (recorded.length < batch.length) {
      this.logger.warn({ source: feed.source, stale: batch.length - recorded.length }, 'market: stale ticks (observed before the last recorded one) left out');
    }
    // Only now are they gone from the buffer: a failed flush keeps them.
    this.buffer.splice(0, batch.length);
    return recorded.length > 0;
  }

  private async applyRetention() {
    const { retentionHours, retentionIntervalMs } = this.options;
    if (retentionHours <= 0) return;
    const nowMs = Date.now();
    if (nowMs - this.lastRetentionMs < retentionIntervalMs) return;
    this.lastRetentionMs = nowMs;
    const limit = 5_000;
    // Bounded per round; a backlog is worked off over the following rounds.
    for (let round = 0; round < 10; round += 1) {
      if ((await deleteTicksOlderThan(this.options.db, retentionHours, limit)) < limit) return;
    }
  }
}
