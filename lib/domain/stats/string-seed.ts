/**
 * A 32-bit seed from a string (FNV-1a, G. Fowler, L. C. Noll & K.-P. Vo; offset basis 2166136261,
 * prime 16777619), so a bootstrap or the demo model's seeded choices are a pure function of names
 * such as an experiment id and an arm label. Not a cryptographic hash.
 * @returns an unsigned 32-bit integer.
 */
export function stringSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A number in [0, 1) fixed by `seed` and `key`: {@link stringSeed} of both, put through the
 * mulberry32 finaliser so near keys give unrelated values. Same inputs, same value, always.
 */
export function seededUnit(seed: number, key: string): number {
  let t = (stringSeed(`${seed}\u0000${key}`) + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
