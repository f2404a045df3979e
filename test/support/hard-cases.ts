/** The hand-written hard cases of screening (test/fixtures/screening/hard-cases.json). */
export interface HardCase {
  kind: string;
  title: string;
  nice?: string;
  risk: '高' | '中' | '低';
  top_conflict?: string;
  tro_hit?: boolean;
  /** Why the shipped brand-use model answers otherwise: the case is a known miss, reported, not hidden. */
  known_miss?: string;
}

export function hardCases(): HardCase[] {
  return require('../fixtures/screening/hard-cases.json') as HardCase[];
}
