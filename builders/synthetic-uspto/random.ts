/** The seeded generator behind every synthetic record: same seed, same draws. */

/** mulberry32: small, fast and good enough to make varied, reproducible records (and perturbations). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Draw {
  random: () => number;
  int: (min: number, max: number) => number;
  pick: <T>(values: readonly T[]) => T;
  chance: (probability: number) => boolean;
}

export function drawFrom(random: () => number): Draw {
  const int = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1));
  return {
    random,
    int,
    pick: <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T,
    chance: (probability) => random() < probability,
  };
}
