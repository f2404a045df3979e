/** For the watch tests: word marks put into a test stack through the real ingest, one batch per call. */
import { Readable } from 'node:stream';
import { buildDataStores } from '../../shared/composition/data-stores';
import { ingestBatch, type IngestSummary } from '../../shared/ingest/ingest-batch';
import type { TestStack } from './test-stack';

export async function ingestWordMarks(
  stack: TestStack,
  batchDate: string,
  marks: { serial: string; mark: string; nice: number[] }[],
): Promise<IngestSummary> {
  const lines = marks.map((m) => JSON.stringify({ ...m, is_live: true, drawing_kind: 'word' }));
  const summary = await ingestBatch(buildDataStores(stack.config), {
    kind: 'marks-jsonl',
    market: 'US',
    batchDate,
    source: `watch-test-${batchDate}.jsonl`,
    holder: 'watch-test',
    input: Readable.from([lines.join('\n')]),
  });
  if (!summary.complete) throw new Error(`test batch did not complete: ${summary.failure ?? summary.refused}`);
  return summary;
}
