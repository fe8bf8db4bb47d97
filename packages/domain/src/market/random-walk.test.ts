import { describe, expect, it } from 'vitest';
import { formatPriceMinor, parsePriceMinor } from './price.ts';
import { createPrng } from './prng.ts';
import {
  defaultSimulatedMarkets,
  MAX_SHOCK_SIGMAS,
  maxStepLogReturn,
  roundPriceMinor,
  stepSigma,
  walkStep,
} from './random-walk.ts';

const btc = parsePriceMinor('90000');

describe('random walk step', () => {
  it('without a shock barely moves at the anchor, and drifts back towards it when away', () => {
    const atAnchor = walkStep({ priceMinor: btc, anchorMinor: btc, volatilityAnnual: 0.5, dtMs: 250, shock: 0 });
    // Only the Itô correction (−σ²/2, about 5e-10 here) moves it: less than one cent.
    expect(btc - atAnchor).toBeGreaterThanOrEqual(0n);
    expect(btc - atAnchor).toBeLessThan(parsePriceMinor('0.01'));
    const above = parsePriceMinor('180000');
    expect(walkStep({ priceMinor: above, anchorMinor: btc, volatilityAnnual: 0.5, dtMs: 60_000, shock: 0 })).toBeLessThan(above);
    const below = parsePriceMinor('45000');
    expect(walkStep({ priceMinor: below, anchorMinor: btc, volatilityAnnual: 0.5, dtMs: 60_000, shock: 0 })).toBeGreaterThan(below);
  });

  it('moves up for a positive shock and down for a negative one, and caps the shock', () => {
    const step = (shock: number) => walkStep({ priceMinor: btc, anchorMinor: btc, volatilityAnnual: 0.5, dtMs: 250, shock });
    expect(step(1)).toBeGreaterThan(btc);
    expect(step(-1)).toBeLessThan(btc);
    expect(step(100)).toBe(step(MAX_SHOCK_SIGMAS));
    expect(step(-100)).toBe(step(-MAX_SHOCK_SIGMAS));
  });

  it('never reaches zero and refuses a non-positive price', () => {
    expect(walkStep({ priceMinor: 1n, anchorMinor: 1n, volatilityAnnual: 5, dtMs: 60_000, shock: -4 })).toBe(1n);
    expect(() => walkStep({ priceMinor: 0n, anchorMinor: btc, volatilityAnnual: 0.5, dtMs: 250, shock: 0 })).toThrow(RangeError);
  });

  it('over many steps, log returns have the configured volatility and stay within the per-step bound', () => {
    const prng = createPrng('volatility');
    const volatilityAnnual = 0.7;
    const dtMs = 250;
    const sigma = stepSigma(volatilityAnnual, dtMs);
    const bound = maxStepLogReturn(volatilityAnnual, dtMs);
    let price = parsePriceMinor('3000');
    const anchor = price;
    const steps = 20_000;
    let sumSquares = 0;
    let largest = 0;
    for (let i = 0; i < steps; i += 1) {
      const next = walkStep({ priceMinor: price, anchorMinor: anchor, volatilityAnnual, dtMs, shock: prng.nextGaussian() });
      const logReturn = Math.log(Number(next) / Number(price));
      sumSquares += logReturn * logReturn;
      largest = Math.max(largest, Math.abs(logReturn));
      price = next;
    }
    const realised = Math.sqrt(sumSquares / steps);
    expect(realised / sigma).toBeGreaterThan(0.95);
    expect(realised / sigma).toBeLessThan(1.05);
    // Rounding to whole 10⁻⁸ units adds at most one unit in 3·10¹¹ at this price.
    expect(largest).toBeLessThanOrEqual(bound + 1e-9);
    // Five hours of 70 % volatility: a move of more than a few percent would be absurd.
    expect(Number(price) / Number(anchor)).toBeGreaterThan(0.9);
    expect(Number(price) / Number(anchor)).toBeLessThan(1.1);
  });
});

describe('quoted price rounding', () => {
  it('rounds half up to the market decimals and never to zero', () => {
    expect(formatPriceMinor(roundPriceMinor(parsePriceMinor('90000.004999'), 2))).toBe('90000.00000000');
    expect(formatPriceMinor(roundPriceMinor(parsePriceMinor('90000.005'), 2))).toBe('90000.01000000');
    expect(formatPriceMinor(roundPriceMinor(parsePriceMinor('0.000001'), 5))).toBe('0.00001000');
    expect(roundPriceMinor(123n, 8)).toBe(123n);
    expect(() => roundPriceMinor(1n, 9)).toThrow(RangeError);
  });
});

describe('default simulated markets', () => {
  it('are USDT markets with sensible parameters, BTC and ETH at realistic prices', () => {
    const symbols = defaultSimulatedMarkets.map((market) => market.symbol);
    expect(new Set(symbols).size).toBe(symbols.length);
    expect(symbols).toEqual(expect.arrayContaining(['BTC/USDT', 'ETH/USDT']));
    expect(symbols.length).toBeGreaterThanOrEqual(8);
    for (const market of defaultSimulatedMarkets) {
      expect(market.symbol).toMatch(/^[A-Z0-9]{2,10}\/USDT$/);
      expect(parsePriceMinor(market.startPrice)).toBeGreaterThan(0n);
      expect(market.startPrice.split('.')[1]?.length ?? 0).toBe(market.decimals);
      expect(market.volatilityAnnual).toBeGreaterThan(0.1);
      expect(market.volatilityAnnual).toBeLessThan(3);
      expect(market.activity).toBeGreaterThan(0);
      expect(market.activity).toBeLessThanOrEqual(1);
    }
    const start = (symbol: string) => parsePriceMinor(defaultSimulatedMarkets.find((m) => m.symbol === symbol)!.startPrice);
    expect(start('BTC/USDT')).toBe(parsePriceMinor('90000'));
    expect(start('ETH/USDT')).toBe(parsePriceMinor('3000'));
  });
});
