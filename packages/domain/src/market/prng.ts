/**
 * A seeded pseudo-random generator: xoshiro128** (Blackman and Vigna), its 128-bit state filled
 * from the seed text through FNV-1a and splitmix32. The same seed always gives the same sequence,
 * which is what makes the market simulator reproducible in tests and demos. Not for secrets.
 */
export interface Prng {
  /** Uniform integer in [0, 2^32). */
  nextUint32(): number;
  /** Uniform in [0, 1), 32 bits of resolution. */
  nextFloat(): number;
  /** Standard normal (mean 0, standard deviation 1), by the Box–Muller transform. */
  nextGaussian(): number;
}

/** FNV-1a over the UTF-16 code units of the seed: a short text becomes a well-spread 32-bit number. */
function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** splitmix32: spreads one 32-bit seed over the four state words, never all zero. */
function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

const rotl = (x: number, k: number) => ((x << k) | (x >>> (32 - k))) >>> 0;

export function createPrng(seed: string): Prng {
  const mix = splitmix32(fnv1a32(seed));
  let s0 = mix();
  let s1 = mix();
  let s2 = mix();
  let s3 = mix();
  // The one state xoshiro cannot leave; splitmix32 makes it practically impossible, this makes it impossible.
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1;
  // Box–Muller yields two normals per pair of uniforms; the second is kept for the next call.
  let spareGaussian: number | undefined;

  const nextUint32 = () => {
    const result = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    s0 >>>= 0;
    s1 >>>= 0;
    s2 >>>= 0;
    return result;
  };
  const nextFloat = () => nextUint32() / 4_294_967_296;

  return {
    nextUint32,
    nextFloat,
    nextGaussian() {
      if (spareGaussian !== undefined) {
        const spare = spareGaussian;
        spareGaussian = undefined;
        return spare;
      }
      // 1 - u keeps the logarithm's argument in (0, 1].
      const u = 1 - nextFloat();
      const v = nextFloat();
      const radius = Math.sqrt(-2 * Math.log(u));
      spareGaussian = radius * Math.sin(2 * Math.PI * v);
      return radius * Math.cos(2 * Math.PI * v);
    },
  };
}
