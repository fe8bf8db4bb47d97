import {
  createPrng,
  defaultSimulatedMarkets,
  formatPriceMinor,
  parsePriceMinor,
  type Prng,
  roundPriceMinor,
  type SimulatedMarket,
  simulatedMarket,
  startPriceMinor,
  walkStep,
} from '@keel/domain';
import { type FeedClock, type FeedStartContext, type FeedTick, type PriceFeed, systemClock } from './price-feed.ts';

export interface SimulatorFeedOptions {
  symbols: readonly string[];
  /** Same seed, same clock readings and same start prices: the same ticks. */
  seed: string;
  /** Mean time between beats; each beat is jittered to 50–150 % of it. */
  tickIntervalMs: number;
  clock?: FeedClock;
  markets?: readonly SimulatedMarket[];
}

interface MarketState {
  market: SimulatedMarket;
  /** Full-precision walk state (10⁻⁸ units); the quoted price is this rounded to the market's decimals. */
  priceMinor: bigint;
  anchorMinor: bigint;
  lastAtMs: number;
}

/**
 * The embedded market: on each beat every market ticks with its own probability (busy markets
 * more often), moving by one step of its random walk over the time since its previous tick.
 * Everything random comes from one seeded PRNG and all time from the injected clock, so a test
 * can replay a run exactly.
 */
export class SimulatorFeed implements PriceFeed {
  readonly source = 'simulator';
  private readonly options: SimulatorFeedOptions;
  private readonly clock: FeedClock;
  private prng: Prng;
  private states: MarketState[] = [];
  private timer: unknown;
  private onTick: ((tick: FeedTick) => void) | undefined;

  constructor(options: SimulatorFeedOptions) {
    const markets = options.markets ?? defaultSimulatedMarkets;
    const unknown = options.symbols.filter((symbol) => !simulatedMarket(symbol, markets));
    if (unknown.length > 0) throw new RangeError(`the simulator has no market ${unknown.join(', ')}`);
    if (!(options.tickIntervalMs > 0)) throw new RangeError('tickIntervalMs must be above zero');
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.prng = createPrng(options.seed);
  }

  async start(onTick: (tick: FeedTick) => void, context: FeedStartContext = {}): Promise<void> {
    if (this.onTick) return;
    const markets = this.options.markets ?? defaultSimulatedMarkets;
    const nowMs = this.clock.nowMs();
    // A new PRNG per start: a restarted feed with the same seed and start prices repeats itself.
    this.prng = createPrng(this.options.seed);
    this.states = this.options.symbols.map((symbol) => {
      const market = simulatedMarket(symbol, markets)!;
      const anchorMinor = startPriceMinor(market);
      const last = context.lastPrices?.get(symbol);
      return { market, anchorMinor, priceMinor: last ? parsePriceMinor(last) : anchorMinor, lastAtMs: nowMs };
    });
    this.onTick = onTick;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.onTick = undefined;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule() {
    const delayMs = Math.max(1, Math.round(this.options.tickIntervalMs * (0.5 + this.prng.nextFloat())));
    this.timer = this.clock.setTimeout(() => this.beat(), delayMs);
  }

  /** One beat: some markets move and tick, then the next beat is scheduled. */
  private beat() {
    const onTick = this.onTick;
    if (!onTick) return;
    const atMs = this.clock.nowMs();
    for (const state of this.states) {
      if (this.prng.nextFloat() >= state.market.activity) continue;
      state.priceMinor = walkStep({
        priceMinor: state.priceMinor,
        anchorMinor: state.anchorMinor,
        volatilityAnnual: state.market.volatilityAnnual,
        dtMs: atMs - state.lastAtMs,
        shock: this.prng.nextGaussian(),
      });
      state.lastAtMs = atMs;
      onTick({ symbol: state.market.symbol, price: formatPriceMinor(roundPriceMinor(state.priceMinor, state.market.decimals)), atMs });
    }
    if (this.onTick) this.schedule();
  }
}
