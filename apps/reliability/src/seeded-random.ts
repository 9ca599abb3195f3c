/** A deterministic pseudo-random source (mulberry32), so every fault schedule can be replayed. */
export interface SeededRandom {
  /** The seed this source started from. */
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). `n` must be a positive integer. */
  int(n: number): number;
  /** An integer in [min, max] (both included). */
  between(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
}

/**
 * Creates a {@link SeededRandom}. The same seed always yields the same sequence (on every platform:
 * only 32-bit integer arithmetic is used).
 *
 * @example
 * const rng = createSeededRandom(42);
 * rng.int(10); // same value on every run
 */
export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return {
    seed,
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError("pick() needs a non-empty array");
      return items[int(items.length)] as T;
    },
  };
}
