import { mulberry32 } from "@/lib/utils/mulberry32";
/**
 * A tiny deterministic pseudo-random number generator for the scene generator:
 * mulberry32 (Tommy Ettinger's public-domain 32-bit generator, 2017). One
 * 32-bit state word; each call adds the constant 0x6D2B79F5 and scrambles the
 * result with two xor-shift-multiply rounds. Period 2^32, good enough for
 * shuffling rooms, and identical on every JS engine because it only uses
 * `Math.imul` and 32-bit integer operations.
 */

/** A seeded random source. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
  /** True with probability `p`. */
  chance(p: number): boolean;
}

/** The raw mulberry32 generator: a function returning floats in [0, 1) (lib/utils/mulberry32.ts). */
export { mulberry32 };

/** A {@link Random} over mulberry32 seeded with `seed` (any integer; taken modulo 2^32). */
export function createRandom(seed: number): Random {
  const next = mulberry32(seed);
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[Math.floor(next() * items.length)] as T;
    },
    shuffle: <T>(items: readonly T[]): T[] => {
      const copy = [...items];
      for (let index = copy.length - 1; index > 0; index -= 1) {
        const other = Math.floor(next() * (index + 1));
        [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
      }
      return copy;
    },
    chance: (p) => next() < p,
  };
  return random;
}
