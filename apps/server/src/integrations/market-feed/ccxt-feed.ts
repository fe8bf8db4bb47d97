import type { Exchange } from 'ccxt';
import type { FastifyBaseLogger } from 'fastify';
import { type FeedClock, type FeedStartContext, type FeedTick, type PriceFeed, systemClock } from './price-feed.ts';

/** The fetch ccxt calls for every HTTP request; replaced in tests to serve recorded responses. */
export type FetchImplementation = (url: string, init: Record<string, unknown>) => Promise<Response>;

export type CcxtPriceMethod = 'lastPrices' | 'tickers' | 'ticker';

export interface CcxtFeedOptions {
  /** A ccxt exchange id, e.g. `binance`. */
  exchangeId: string;
  symbols: readonly string[];
  pollIntervalMs: number;
  /**
   * An unchanged price is recorded again after this long, so the last tick stays recent while the
   * market is quiet (consumers refuse stale prices).
   */
  maxSilenceMs?: number;
  /** Which ccxt call reads prices; by default the cheapest the exchange has. */
  priceMethod?: CcxtPriceMethod;
  clock?: FeedClock;
  logger?: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  fetchImplementation?: FetchImplementation;
}

/** A ccxt number as plain decimal text (ccxt is set to hand numbers over as strings; a float is converted without an exponent). */
function priceText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  }
  return undefined;
}

/** A time ccxt reported, if it is a plausible epoch time in ms. */
function timestampMs(value: unknown): number | undefined {
  const ms = typeof value === 'string' ? Number(value) : value;
  return typeof ms === 'number' && Number.isSafeInteger(ms) && ms > 0 ? ms : undefined;
}

/**
 * A real exchange's public prices through ccxt: polls the exchange's tickers for the configured
 * symbols every `pollIntervalMs` (no API key; ccxt's own rate limiter is on). ccxt is loaded only
 * when this feed starts, so a server on the simulator never pays for loading it.
 */
export class CcxtFeed implements PriceFeed {
  readonly source: string;
  private readonly options: CcxtFeedOptions;
  private readonly clock: FeedClock;
  private exchange: Exchange | undefined;
  private onTick: ((tick: FeedTick) => void) | undefined;
  private timer: unknown;
  private polling: Promise<unknown> | undefined;
  private readonly lastEmitted = new Map<string, { price: string; atMs: number }>();
  private warnedMissing = false;
  private logger: CcxtFeedOptions['logger'];

  constructor(options: CcxtFeedOptions) {
    if (!/^[a-z0-9]{2,40}$/.test(options.exchangeId)) throw new RangeError(`bad exchange id ${options.exchangeId}`);
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.source = `ccxt:${options.exchangeId}`;
    this.logger = options.logger;
  }

  async start(onTick: (tick: FeedTick) => void, context: FeedStartContext = {}): Promise<void> {
    if (this.onTick) return;
    this.logger = context.logger ?? this.options.logger;
    this.exchange ??= await this.createExchange();
    this.onTick = onTick;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.onTick = undefined;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    await this.polling?.catch(() => {});
  }

  private async createExchange(): Promise<Exchange> {
    const ccxt = await import('ccxt');
    const { exchangeId } = this.options;
    // The named export `exchanges` maps each exchange id to its class.
    const classes = ccxt.exchanges as unknown as Record<string, new (config: Record<string, unknown>) => Exchange>;
    if (!Object.hasOwn(classes, exchangeId)) throw new RangeError(`ccxt has no exchange "${exchangeId}"`);
    const ExchangeClass = classes[exchangeId]!;
    const exchange = new ExchangeClass({
      enableRateLimit: true,
      timeout: Math.min(10_000, Math.max(1_000, this.options.pollIntervalMs * 5)),
      options: { defaultType: 'spot' },
    });
    // Numbers as the exchange's own decimal text, never a float (ccxt's documented String mode).
    exchange.number = String as unknown as Exchange['number'];
    // Only spot markets are listed here: loading derivatives markets would cost extra requests.
    const fetchMarkets = exchange.options.fetchMarkets as unknown;
    if (Array.isArray(fetchMarkets)) exchange.options.fetchMarkets = ['spot'];
    else if (fetchMarkets && typeof fetchMarkets === 'object' && Array.isArray((fetchMarkets as { types?: unknown }).types)) {
      exchange.options.fetchMarkets = { ...(fetchMarkets as object), types: ['spot'] };
    }
    if (this.options.fetchImplementation) exchange.fetchImplementation = this.options.fetchImplementation;
    return exchange;
  }

  private schedule(delayMs: number) {
    this.timer = this.clock.setTimeout(() => {
      this.polling = this.pollOnce()
        .catch((error: unknown) => {
          this.logger?.warn({ err: error, exchange: this.options.exchangeId }, 'market feed: ccxt poll failed');
        })
        .finally(() => {
          if (this.onTick) this.schedule(this.options.pollIntervalMs);
        });
    }, delayMs);
  }

  private priceMethod(exchange: Exchange): CcxtPriceMethod {
    if (this.options.priceMethod) return this.options.priceMethod;
    if (exchange.has.fetchLastPrices === true) return 'lastPrices';
    if (exchange.has.fetchTickers === true) return 'tickers';
    return 'ticker';
  }

  /** One poll: reads the prices and emits a tick for each new price. Returns the ticks emitted. */
  async pollOnce(): Promise<FeedTick[]> {
    this.exchange ??= await this.createExchange();
    const exchange = this.exchange;
    await exchange.loadMarkets();
    const markets = exchange.markets ?? {};
    const symbols = this.options.symbols.filter((symbol) => symbol in markets);
    if (symbols.length < this.options.symbols.length && !this.warnedMissing) {
      this.warnedMissing = true;
      const missing = this.options.symbols.filter((symbol) => !(symbol in markets));
      this.logger?.warn({ exchange: this.options.exchangeId, missing }, 'market feed: the exchange does not list some symbols');
    }
    if (symbols.length === 0) return [];

    const observations: Array<{ symbol: string; price: unknown; timestamp: unknown }> = [];
    const method = this.priceMethod(exchange);
    if (method === 'lastPrices') {
      const prices = await exchange.fetchLastPrices(symbols);
      for (const symbol of symbols) {
        const entry = prices[symbol];
        if (entry) observations.push({ symbol, price: entry.price, timestamp: entry.timestamp });
      }
    } else if (method === 'tickers') {
      const tickers = await exchange.fetchTickers(symbols);
      for (const symbol of symbols) {
        const ticker = tickers[symbol];
        if (ticker) observations.push({ symbol, price: ticker.last ?? ticker.close, timestamp: ticker.timestamp });
      }
    } else {
      for (const symbol of symbols) {
        const ticker = await exchange.fetchTicker(symbol);
        observations.push({ symbol, price: ticker.last ?? ticker.close, timestamp: ticker.timestamp });
      }
    }

    const nowMs = this.clock.nowMs();
    const maxSilenceMs = this.options.maxSilenceMs ?? 10_000;
    const emitted: FeedTick[] = [];
    for (const observation of observations) {
      const price = priceText(observation.price);
      if (!price) continue;
      const atMs = timestampMs(observation.timestamp) ?? nowMs;
      const previous = this.lastEmitted.get(observation.symbol);
      // Same price, recently recorded: nothing new was observed.
      if (previous && previous.price === price && nowMs - previous.atMs < maxSilenceMs) continue;
      this.lastEmitted.set(observation.symbol, { price, atMs: nowMs });
      const tick = { symbol: observation.symbol, price, atMs };
      emitted.push(tick);
      this.onTick?.(tick);
    }
    return emitted;
  }
}
