/**
 * The stack of the POST /v1/batch-screen end-to-end tests: DynamoDB Local tables with a small corpus loaded through the
 * real ingest (US marks with an older and a broken later batch, a CN batch, a TRO list), served by the real handler
 * over real HTTP. `useBatchScreenServer()` starts it before a file's tests and stops it after.
 */
import { Readable } from 'node:stream';
import type { BatchScreenResponse } from '../../functions/batch-screen/handler';
import type { RunningServer } from '../../local/server';
import { buildDataStores } from '../../shared/composition/data-stores';
import { ingestBatch, type IngestRequest, type IngestStores } from '../../shared/ingest/ingest-batch';
import type { ScreeningResult } from '../../shared/screening/title-conflicts';
import { post, readJson, startTestServer } from './test-server';
import { createTestStack, type TestStack } from './test-stack';

/** The date of the latest complete US marks batch: what every answer must give as data_as_of. */
export const US_BATCH_DATE = '2026-11-20';

const US_MARKS = [
  { serial: 'US-E2E-NIKE', mark: 'Nike', nice: [25, 28], is_live: true, drawing_kind: 'word' },
  { serial: 'US-E2E-ADIDAS', mark: 'adidas', nice: [25], is_live: true, drawing_kind: 'word' },
  { serial: 'US-E2E-APPLE', mark: 'Apple', nice: [9], is_live: true, drawing_kind: 'word' },
  { serial: 'US-E2E-IPHONE', mark: 'iPhone', nice: [9], is_live: true, drawing_kind: 'word' },
  { serial: 'US-E2E-COACH', mark: 'Coach', nice: [18, 25], is_live: true, drawing_kind: 'word' },
  { serial: 'US-E2E-STANLEY', mark: 'Stanley', nice: [8, 21], is_live: true, drawing_kind: 'word' },
];
/** An older complete US batch: its date must not be the answer's data_as_of. */
const OLDER_US_MARKS = [{ serial: 'US-E2E-OLD', mark: 'Quillorbant', nice: [3], is_live: true }];
const CN_MARKS = [
  { serial: 'CN-E2E-NAIKE', mark: '耐克', transliteration: 'nai ke', nice: [25], is_live: true, drawing_kind: 'word' },
  {
    serial: 'CN-E2E-NAIKE-NIKE',
    mark: '耐克 NIKE',
    transliteration: 'nai ke',
    nice: [25, 28],
    is_live: true,
    drawing_kind: 'word',
  },
];
const TRO_CSV = [
  'brand,plaintiff,case_no,court,filed,source,checked_against_docket',
  'Nike,Nike Inc.,1:24-cv-00001,N.D. Ill.,2024-01-02,e2e fixture,no',
].join('\n');

export const RISKS = ['高', '中', '低'];
export const NIKE_TITLE = 'Nike running shoes';
export const GENERIC_TITLE = 'stainless steel apple slicer';

let stack: TestStack;
let server: RunningServer | undefined;
let endpoint: string;

const jsonl = (records: readonly object[]) => Readable.from([records.map((r) => JSON.stringify(r)).join('\n')]);

async function loadCorpus(stores: IngestStores): Promise<void> {
  const base = { holder: 'e2e-batch-screen', source: 'e2e' } as const;
  const batches: IngestRequest[] = [
    {
      ...base,
      kind: 'marks-jsonl',
      market: 'US',
      input: jsonl(OLDER_US_MARKS),
      batchDate: '2026-11-10',
      source: 'e2e-older',
    },
    { ...base, kind: 'marks-jsonl', market: 'US', input: jsonl(US_MARKS), batchDate: US_BATCH_DATE },
    {
      ...base,
      kind: 'marks-jsonl',
      market: 'CN',
      input: jsonl(CN_MARKS),
      batchDate: '2026-11-22',
      coverage: { country: 'CN', source: 'e2e', partial: true, coverage_note: 'e2e' },
    },
    { ...base, kind: 'tro', market: 'US', input: Readable.from([TRO_CSV]), batchDate: '2026-11-25', source: 'e2e-tro' },
  ];
  for (const batch of batches) {
    const summary = await ingestBatch(stores, batch);
    if (!summary.complete || summary.rejected > 0)
      throw new Error(`the e2e corpus did not load: ${JSON.stringify(summary)}`);
  }
  // A later US batch that breaks off: never complete, so never the data date.
  const broken = new Readable({
    read() {
      this.destroy(new Error('the file broke off'));
    },
  });
  const summary = await ingestBatch(stores, {
    ...base,
    kind: 'marks-jsonl',
    market: 'US',
    input: broken,
    batchDate: '2026-11-28',
    source: 'e2e-broken',
  });
  if (summary.complete) throw new Error('the broken batch should not be complete');
}

/** Registers the hooks that start the stack and server before the file's tests and close the server after. */
export function useBatchScreenServer(): void {
  beforeAll(async () => {
    stack = await createTestStack();
    await loadCorpus(buildDataStores(stack.config));
    server = await startTestServer(stack);
    endpoint = `${server.url}/v1/batch-screen`;
  });
  afterAll(async () => server?.close());
}

export const openAccount = (...args: Parameters<TestStack['openAccount']>) => stack.openAccount(...args);
const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });
export const balanceOf = async (accountId: string) =>
  (await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points;
export const chargesOf = async (accountId: string) =>
  (await stack.deps.ledger.entries(accountId)).filter((e) => e.kind === 'charge');
export const screen = (apiKey: string, body: unknown, headers: Record<string, string> = {}) =>
  post(endpoint, body, { ...bearer(apiKey), ...headers });
export const items = (...titles: string[]) => titles.map((title) => ({ title }));

/** Screens titles on a fresh account and returns the results (asserting the call succeeded). */
export async function screenTitles(titles: string[], options: { detail?: boolean } = {}): Promise<ScreeningResult[]> {
  const { apiKey } = await openAccount({ points: 1000 });
  const response = await screen(apiKey, { items: items(...titles), ...(options.detail ? { detail: true } : {}) });
  const body = (await readJson(response)) as BatchScreenResponse;
  expect(response.status).toBe(200);
  return body.results;
}

/** Screens one title on a fresh account and returns its result. */
export async function screenTitle(title: string, options: { detail?: boolean } = {}): Promise<ScreeningResult> {
  const results = await screenTitles([title], options);
  expect(results).toHaveLength(1);
  return results[0]!;
}
