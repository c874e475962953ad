/**
 * mulberry32 (Tommy Ettinger's 32-bit generator): a tiny deterministic PRNG returning floats in
 * [0, 1). Same seed (any integer, taken modulo 2^32), same sequence, on every platform. Used where
 * a reproducible sequence matters more than quality: the household world's generator, synthetic
 * stress runs and seeded benchmark data.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
