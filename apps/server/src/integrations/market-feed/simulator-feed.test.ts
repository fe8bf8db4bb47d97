import { defaultSimulatedMarkets, maxStepLogReturn, parsePriceMinor, stepSigma } from '@keel/domain';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../test/helpers/manual-clock.ts';
import type { FeedTick } from './price-feed.ts';
import { SimulatorFeed } from './simulator-feed.ts';

const symbols = defaultSimulatedMarkets.map((market) => market.symbol);

async function run(seed: string, durationMs: number, options: { lastPrices?: Map<string, string>; tickIntervalMs?: number } = {}) {
  const clock = new ManualClock();
  const feed = new SimulatorFeed({ symbols, seed, tickIntervalMs: options.tickIntervalMs ?? 300, clock });
  const ticks: FeedTick[] = [];
  await feed.start((tick) => ticks.push(tick), { lastPrices: options.lastPrices });
  clock.advance(durationMs);
  await feed.stop();
  return { ticks, clock, feed };
}

describe('market simulator', () => {
  it('is deterministic for a seed, and another seed gives other prices', async () => {
    const a = await run('seed-1', 60_000);
    const b = await run('seed-1', 60_000);
    const c = await run('seed-2', 60_000);
    expect(a.ticks.length).toBeGreaterThan(100);
    expect(b.ticks).toEqual(a.ticks);
    expect(c.ticks).not.toEqual(a.ticks);
  });

  it('ticks several times a second with jitter, every market, time never going back', async () => {
    const { ticks } = await run('rate', 60_000);
    const beats = [...new Set(ticks.map((tick) => tick.atMs))];
    // 300 ms on average, each beat at 150–450 ms after the previous one.
    expect(beats.length).toBeGreaterThan(60_000 / 450);
    expect(beats.length).toBeLessThan(60_000 / 150);
    const gaps = beats.slice(1).map((at, i) => at - beats[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(150);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(450);
    expect(new Set(gaps).size).toBeGreaterThan(10);
    for (const symbol of symbols) expect(ticks.some((tick) => tick.symbol === symbol), symbol).toBe(true);
    // The busiest market (BTC) ticks on nearly every beat: several times a second.
    expect(ticks.filter((tick) => tick.symbol === 'BTC/USDT').length).toBeGreaterThan(beats.length * 0.8);
    for (let i = 1; i < ticks.length; i += 1) expect(ticks[i]!.atMs).toBeGreaterThanOrEqual(ticks[i - 1]!.atMs);
  });

  it('emits decimal text at the market decimals, starting near the configured prices', async () => {
    const { ticks } = await run('format', 10_000);
    for (const tick of ticks) expect(tick.price).toMatch(/^\d+\.\d{8}$/);
    const btc = ticks.filter((tick) => tick.symbol === 'BTC/USDT');
    const eth = ticks.filter((tick) => tick.symbol === 'ETH/USDT');
    // Quoted in cents: the last six of the eight decimals are zero.
    for (const tick of btc) expect(tick.price).toMatch(/\.\d{2}000000$/);
    const near = (price: string, target: string) => Number(parsePriceMinor(price)) / Number(parsePriceMinor(target));
    expect(near(btc[0]!.price, '90000')).toBeGreaterThan(0.99);
    expect(near(btc[0]!.price, '90000')).toBeLessThan(1.01);
    expect(near(eth[0]!.price, '3000')).toBeGreaterThan(0.99);
    expect(near(eth[0]!.price, '3000')).toBeLessThan(1.01);
  });

  it('moves each market within its volatility bound, with about its configured volatility', async () => {
    const { ticks } = await run('bounds', 2 * 60 * 60_000);
    for (const market of defaultSimulatedMarkets) {
      const series = ticks.filter((tick) => tick.symbol === market.symbol);
      const roundingSlack = 10 ** -market.decimals / Number(market.startPrice) / 0.5; // a tick of rounding at half the price
      let sumSquaresPerSigma = 0;
      let worstExcess = Number.NEGATIVE_INFINITY;
      for (let i = 1; i < series.length; i += 1) {
        const dtMs = series[i]!.atMs - series[i - 1]!.atMs;
        const logReturn = Math.log(Number(parsePriceMinor(series[i]!.price)) / Number(parsePriceMinor(series[i - 1]!.price)));
        worstExcess = Math.max(worstExcess, Math.abs(logReturn) - maxStepLogReturn(market.volatilityAnnual, dtMs) - 2 * roundingSlack);
        sumSquaresPerSigma += (logReturn / stepSigma(market.volatilityAnnual, dtMs)) ** 2;
      }
      expect(series.length, market.symbol).toBeGreaterThan(1000);
      expect(worstExcess, market.symbol).toBeLessThanOrEqual(0);
      // Coarse quoting (DOGE in 0.00001) adds rounding noise on top of the walk; BTC and ETH are exact enough.
      const realised = Math.sqrt(sumSquaresPerSigma / (series.length - 1));
      if (market.symbol === 'BTC/USDT' || market.symbol === 'ETH/USDT') {
        expect(realised, market.symbol).toBeGreaterThan(0.85);
        expect(realised, market.symbol).toBeLessThan(1.15);
      }
    }
  });

  it('continues from the last recorded prices', async () => {
    const { ticks } = await run('resume', 5_000, { lastPrices: new Map([['BTC/USDT', '100000.00000000']]) });
    const first = ticks.find((tick) => tick.symbol === 'BTC/USDT')!;
    expect(Number(parsePriceMinor(first.price)) / Number(parsePriceMinor('100000'))).toBeGreaterThan(0.999);
    expect(Number(parsePriceMinor(first.price)) / Number(parsePriceMinor('100000'))).toBeLessThan(1.001);
  });

  it('stops: no tick after stop and no timer left', async () => {
    const clock = new ManualClock();
    const feed = new SimulatorFeed({ symbols, seed: 'stop', tickIntervalMs: 100, clock });
    const ticks: FeedTick[] = [];
    await feed.start((tick) => ticks.push(tick));
    clock.advance(1_000);
    await feed.stop();
    const count = ticks.length;
    clock.advance(10_000);
    expect(ticks.length).toBe(count);
    expect(clock.pendingTimers).toBe(0);
  });

  it('refuses a market it has no parameters for', () => {
    expect(() => new SimulatorFeed({ symbols: ['BTC/USDT', 'PEPE/USDT'], seed: 'x', tickIntervalMs: 100 })).toThrow(/PEPE/);
  });
});
