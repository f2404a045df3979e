/**
 * `npm run admin -- feedback export`: sellers' reports from the feedback table as labelled examples in the shape the
 * trainer reads (feedbackExampleSchema), oldest first, with the account hashed and the note left out.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildFeedbackStore } from '../../shared/composition/feedback';
import type { FeedbackRecord } from '../../shared/feedback/feedback';
import { accountHash, feedbackExampleSchema } from '../../shared/feedback/feedback-export';
import { runAdminOn } from '../support/admin-runner';
import { createTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let dir: string;

const record = (over: Partial<FeedbackRecord> & Pick<FeedbackRecord, 'feedbackId' | 'kind'>): FeedbackRecord => ({
  accountId: 'acct_feedbackexport1',
  title: 'Stainless steel apple slicer',
  keyId: 'key_1',
  reportRequestId: 'r-1',
  requestId: 'req-1',
  itemIndex: 0,
  createdAt: `${over.feedbackId.slice(3, 7)}-${over.feedbackId.slice(7, 9)}-${over.feedbackId.slice(9, 11)}T00:00:00.000Z`,
  ...over,
});

beforeAll(async () => {
  stack = await createTestStack();
  dir = mkdtempSync(path.join(os.tmpdir(), 'feedback-export-'));
  const store = buildFeedbackStore(stack.config);
  await store.add(
    record({ feedbackId: 'fb_20261120000000000_aaaaaaaaaa', kind: 'false_alarm', topConflict: 'APPLE', note: 'fruit' }),
  );
  await store.add(
    record({
      feedbackId: 'fb_20261121000000000_bbbbbbbbbb',
      kind: 'missed_brand',
      title: 'Wireless earbuds by Soundcore',
      brand: 'Soundcore',
      accountId: 'acct_feedbackexport2',
    }),
  );
  await store.add(record({ feedbackId: 'fb_20261122000000000_cccccccccc', kind: 'wrong_mark', topConflict: 'APPLE' }));
  await store.add(
    record({
      feedbackId: 'fb_20261123000000000_dddddddddd',
      kind: 'wrong_mark',
      mark: 'Apple Watch',
      topConflict: 'APPLE',
    }),
  );
});

const exported = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => feedbackExampleSchema.parse(JSON.parse(line)));

it('writes one labelled example per usable report, oldest first, and counts what it skipped', async () => {
  const out = path.join(dir, 'all.jsonl');

  const printed = JSON.parse(await runAdminOn(stack, ['feedback', 'export', '--out', out]));

  expect(printed).toEqual({
    out,
    examples: 3,
    exported: { false_alarm: 1, missed_brand: 1, wrong_mark: 1 },
    skipped: { wrong_mark_without_mark: 1 },
  });
  expect(exported(out)).toEqual([
    {
      title: 'Stainless steel apple slicer',
      mark: 'APPLE',
      label: 0,
      kind: 'false_alarm',
      provenance: {
        account: accountHash('acct_feedbackexport1'),
        feedback_id: 'fb_20261120000000000_aaaaaaaaaa',
        date: '2026-11-20',
      },
    },
    expect.objectContaining({ title: 'Wireless earbuds by Soundcore', mark: 'Soundcore', label: 1 }),
    expect.objectContaining({ mark: 'Apple Watch', label: 1, kind: 'wrong_mark' }),
  ]);
  const text = readFileSync(out, 'utf8');
  expect(text).not.toContain('acct_feedbackexport');
  expect(text).not.toContain('fruit');
});

it('--since keeps the reports made on or after that day', async () => {
  const out = path.join(dir, 'since.jsonl');

  await runAdminOn(stack, ['feedback', 'export', '--out', out, '--since', '2026-11-21']);

  expect(exported(out).map((e) => e.provenance.feedback_id)).toEqual([
    'fb_20261121000000000_bbbbbbbbbb',
    'fb_20261123000000000_dddddddddd',
  ]);
});

it('refuses another word than export, and a stray word after any other command', async () => {
  await expect(runAdminOn(stack, ['feedback', 'import', '--out', 'x'])).rejects.toThrow('usage: feedback export');
  await expect(runAdminOn(stack, ['list-accounts', 'extra'])).rejects.toThrow('unexpected argument "extra"');
});
