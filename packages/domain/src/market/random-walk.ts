import { parsePriceMinor, PRICE_SCALE } from './price.ts';

/**
 * The market simulator's maths: a geometric random walk (log-normal steps, as for a share price)
 * with a weak pull back towards an anchor price, so a demo left running for months stays in a
 * believable range while minutes and hours look like a real market. Prices are held as bigint
 * units of 10⁻⁸ (PRICE_SCALE); only the step factor is a float, and it is turned into an integer
 * ratio (parts per billion) before it touches a price.
 */

/** Crypto trades every day of the year, so volatility is annualised over 365 days. */
export const MS_PER_YEAR = 365 * 24 * 60 * 60 * 1000;

/** A step's random shock is cut at this many standard deviations: no single tick is a crash. */
export const MAX_SHOCK_SIGMAS = 4;

/** Default half-life of a deviation from the anchor (log price): long against a day, short against a year. */
export const DEFAULT_REVERSION_HALF_LIFE_MS = 30 * 24 * 60 * 60 * 1000;

const PARTS_PER_BILLION = 1_000_000_000n;

export interface WalkStepInput {
  /** Current price in 10⁻⁸ units; above zero. */
  priceMinor: bigint;
  /** The price the walk drifts back to, in 10⁻⁸ units; above zero. */
  anchorMinor: bigint;
  /** Annualised volatility of log returns, e.g. 0.5 for 50 %. */
  volatilityAnnual: number;
  /** Time since the previous step of this market. */
  dtMs: number;
  /** A standard normal draw; cut to ±MAX_SHOCK_SIGMAS. */
  shock: number;
  reversionHalfLifeMs?: number;
}

/** Standard deviation of the log return over `dtMs`. */
export function stepSigma(volatilityAnnual: number, dtMs: number): number {
  return volatilityAnnual * Math.sqrt(dtMs / MS_PER_YEAR);
}

/** Log return of one step: pull towards the anchor, the Itô correction, and the capped shock. */
export function stepLogReturn(input: WalkStepInput): number {
  const dtMs = Math.max(1, input.dtMs);
  const sigma = stepSigma(input.volatilityAnnual, dtMs);
  const shock = Math.max(-MAX_SHOCK_SIGMAS, Math.min(MAX_SHOCK_SIGMAS, input.shock));
  const halfLifeMs = input.reversionHalfLifeMs ?? DEFAULT_REVERSION_HALF_LIFE_MS;
  const pullRate = Math.min(1, (Math.LN2 / halfLifeMs) * dtMs);
  const deviation = Math.log(Number(input.anchorMinor) / Number(input.priceMinor));
  return pullRate * deviation - 0.5 * sigma * sigma + sigma * shock;
}

/**
 * The largest |log return| one step of `dtMs` can make at `volatilityAnnual`, when the price sits
 * within a factor `maxDeviation` of its anchor, before the result is rounded to whole 10⁻⁸ units.
 * Tests hold the simulator to this bound.
 */
export function maxStepLogReturn(volatilityAnnual: number, dtMs: number, maxDeviation = 2, reversionHalfLifeMs = DEFAULT_REVERSION_HALF_LIFE_MS): number {
  const sigma = stepSigma(volatilityAnnual, Math.max(1, dtMs));
  const pullRate = Math.min(1, (Math.LN2 / reversionHalfLifeMs) * Math.max(1, dtMs));
  return pullRate * Math.log(maxDeviation) + 0.5 * sigma * sigma + MAX_SHOCK_SIGMAS * sigma;
}

/** One step of the walk: the next price in 10⁻⁸ units, never below one unit. */
export function walkStep(input: WalkStepInput): bigint {
  if (input.priceMinor <= 0n || input.anchorMinor <= 0n) throw new RangeError('prices must be above zero');
  const factorPpb = BigInt(Math.round(Math.exp(stepLogReturn(input)) * 1e9));
  const next = (input.priceMinor * factorPpb + PARTS_PER_BILLION / 2n) / PARTS_PER_BILLION;
  return next > 0n ? next : 1n;
}

/**
 * Rounds a price in 10⁻⁸ units to `decimals` places (half up), as an exchange quotes it, and
 * never to zero: the smallest quotable price is one step of that size.
 */
export function roundPriceMinor(priceMinor: bigint, decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > PRICE_SCALE) throw new RangeError(`bad decimals ${decimals}`);
  const step = 10n ** BigInt(PRICE_SCALE - decimals);
  const rounded = ((priceMinor + step / 2n) / step) * step;
  return rounded > 0n ? rounded : step;
}

/** A simulated market: where it starts, how it moves, how it is quoted. */
export interface SimulatedMarket {
  symbol: string;
  /** Starting (and anchor) price, decimal text. */
  startPrice: string;
  /** Decimals of the quoted price, like the exchange's tick size (BTC/USDT 0.01). */
  decimals: number;
  volatilityAnnual: number;
  /** Chance in [0, 1] that this market ticks on one beat of the simulator: busy markets tick more. */
  activity: number;
}

/**
 * The simulator's default markets, all quoted in USDT, with prices and volatilities in the range
 * these markets have shown recently. They are also the default list of markets (MARKET_SYMBOLS).
 */
export const defaultSimulatedMarkets: readonly SimulatedMarket[] = [
  { symbol: 'BTC/USDT', startPrice: '90000.00', decimals: 2, volatilityAnnual: 0.5, activity: 0.95 },
  { symbol: 'ETH/USDT', startPrice: '3000.00', decimals: 2, volatilityAnnual: 0.7, activity: 0.9 },
  { symbol: 'SOL/USDT', startPrice: '140.00', decimals: 2, volatilityAnnual: 0.9, activity: 0.7 },
  { symbol: 'BNB/USDT', startPrice: '900.00', decimals: 2, volatilityAnnual: 0.55, activity: 0.5 },
  { symbol: 'XRP/USDT', startPrice: '2.1000', decimals: 4, volatilityAnnual: 0.85, activity: 0.6 },
  { symbol: 'DOGE/USDT', startPrice: '0.15000', decimals: 5, volatilityAnnual: 1.0, activity: 0.6 },
  { symbol: 'LTC/USDT', startPrice: '85.00', decimals: 2, volatilityAnnual: 0.75, activity: 0.4 },
  { symbol: 'TRX/USDT', startPrice: '0.28000', decimals: 5, volatilityAnnual: 0.55, activity: 0.4 },
  { symbol: 'ADA/USDT', startPrice: '0.4200', decimals: 4, volatilityAnnual: 0.85, activity: 0.5 },
];

export function simulatedMarket(symbol: string, markets: readonly SimulatedMarket[] = defaultSimulatedMarkets): SimulatedMarket | undefined {
  return markets.find((market) => market.symbol === symbol);
}

/** The start price of a simulated market in 10⁻⁸ units. */
export function startPriceMinor(market: SimulatedMarket): bigint {
  return parsePriceMinor(market.startPrice);
}
