import { describe, expect, it } from 'vitest';
import { createPrng } from './prng.ts';

function take(seed: string, count: number): number[] {
  const prng = createPrng(seed);
  return Array.from({ length: count }, () => prng.nextUint32());
}

describe('seeded PRNG', () => {
  it('gives the same sequence for the same seed, pinned so recorded demo runs stay reproducible', () => {
    expect(take('keel', 4)).toEqual([1253982933, 1933178677, 1364236924, 2368137969]);
    expect(take('keel', 1000)).toEqual(take('keel', 1000));
  });

  it('gives different sequences for different seeds', () => {
    expect(take('keel', 8)).not.toEqual(take('keel2', 8));
    expect(take('', 8)).not.toEqual(take(' ', 8));
  });

  it('spreads floats evenly over [0, 1)', () => {
    const prng = createPrng('uniform');
    const buckets = new Array<number>(10).fill(0);
    let sum = 0;
    let outside = 0;
    const count = 100_000;
    for (let i = 0; i < count; i += 1) {
      const value = prng.nextFloat();
      if (value < 0 || value >= 1) outside += 1;
      sum += value;
      buckets[Math.floor(value * 10)]! += 1;
    }
    expect(outside).toBe(0);
    expect(Math.abs(sum / count - 0.5)).toBeLessThan(0.01);
    for (const bucket of buckets) expect(Math.abs(bucket - count / 10)).toBeLessThan(count / 100);
  });

  it('draws standard normals (mean 0, deviation 1, about 68 % within one deviation)', () => {
    const prng = createPrng('normal');
    const count = 100_000;
    let sum = 0;
    let sumSquares = 0;
    let withinOne = 0;
    for (let i = 0; i < count; i += 1) {
      const value = prng.nextGaussian();
      sum += value;
      sumSquares += value * value;
      if (Math.abs(value) <= 1) withinOne += 1;
    }
    const mean = sum / count;
    expect(Math.abs(mean)).toBeLessThan(0.02);
    expect(Math.abs(Math.sqrt(sumSquares / count - mean * mean) - 1)).toBeLessThan(0.02);
    expect(Math.abs(withinOne / count - 0.6827)).toBeLessThan(0.01);
  });
});
