/** The hand-written hard cases of screening (test/fixtures/screening/hard-cases.json). */
export interface HardCase {
  kind: string;
  title: string;
  nice?: string;
  risk: '高' | '中' | '低';
  top_conflict?: string;
  tro_hit?: boolean;
}

export function hardCases(): HardCase[] {
  return require('../fixtures/screening/hard-cases.json') as HardCase[];
}
