/**
 * A test stack holding one live word mark, ANKER in class 9 (filed through the real ingest), served over HTTP: what
 * the tools that call the API (the MCP server, the README's commands) need to see a conflict.
 */
import { Readable } from 'node:stream';
import type { RunningServer } from '../../local/server';
import { buildDataStores } from '../../shared/composition/data-stores';
import { ingestBatch } from '../../shared/ingest/ingest-batch';
import { startTestServer } from './test-server';
import { createTestStack, type TestStack } from './test-stack';

export async function startOneMarkServer(holder: string): Promise<{ stack: TestStack; server: RunningServer }> {
  const stack = await createTestStack();
  const mark = {
    serial: `US-${holder.toUpperCase()}-ANKER`,
    mark: 'Anker',
    nice: [9],
    is_live: true,
    drawing_kind: 'word',
  };
  await ingestBatch(buildDataStores(stack.config), {
    holder,
    source: 'e2e',
    kind: 'marks-jsonl',
    market: 'US',
    input: Readable.from([JSON.stringify(mark)]),
    batchDate: '2026-11-20',
  });
  return { stack, server: await startTestServer(stack) };
}
