/** Vectors for index tests: the same seed gives the same unit vector, so a test can ask for a stored one again. */

/** A unit vector of `dimensions` floats from a small linear congruential generator seeded by `seed`. */
export function seededUnitVector(seed: number, dimensions: number): Float32Array {
  let state = seed * 2654435761;
  const vector = new Float32Array(dimensions).map(() => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  });
  const norm = Math.hypot(...vector);
  return vector.map((v) => v / norm);
}
