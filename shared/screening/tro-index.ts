/**
 * The TRO list in memory, found by the same keys as marks: a title word matches a TRO brand exactly, or as a
 * close misspelling (same phonetic skeleton and a small edit distance).
 */
import { editDistance, joined, normalizeText, phoneticSkeleton } from '../marks/lookup-keys';
import type { TroBrand } from '../ports';

export interface TroMatch {
  brand: TroBrand;
  distance: number;
}

export class TroIndex {
  private readonly byJoined = new Map<string, TroBrand>();
  private readonly bySkeleton = new Map<string, { joined: string; brand: TroBrand }[]>();

  constructor(brands: readonly TroBrand[]) {
    for (const brand of brands) {
      const key = joined(normalizeText(brand.brand));
      if (!key) continue;
      this.byJoined.set(key, brand);
      const skeleton = phoneticSkeleton(key);
      if (skeleton) this.bySkeleton.set(skeleton, [...(this.bySkeleton.get(skeleton) ?? []), { joined: key, brand }]);
    }
  }

  get size(): number {
    return this.byJoined.size;
  }

  /** The TRO brand a candidate's joined text names, if any. `maxDistance` bounds misspellings. */
  match(candidateJoined: string, skeleton: string | undefined, maxDistance: number): TroMatch | undefined {
    const exact = this.byJoined.get(candidateJoined);
    if (exact) return { brand: exact, distance: 0 };
    if (!skeleton || maxDistance === 0) return undefined;
    for (const entry of this.bySkeleton.get(skeleton) ?? []) {
      const distance = editDistance(candidateJoined, entry.joined, maxDistance);
      if (distance <= maxDistance) return { brand: entry.brand, distance };
    }
    return undefined;
  }

  /** Whether a mark's text is itself a TRO brand. */
  names(markJoined: string): TroBrand | undefined {
    return this.byJoined.get(markJoined);
  }
}
