import { createReadStream } from 'node:fs';
import path from 'node:path';
import { BatchEncodingError } from '../../../shared/marks/batch-errors';
import { JSONL_MAX_LINE_CHARS, parseMarkJsonl } from '../../../shared/marks/cn-jsonl';
import type { ParsedMark } from '../../../shared/marks/mark-record';
import { collect, collectUntilError, FIXTURES_DIR, inChunks } from './batch-test-inputs';

const CN_BATCH = { batchDate: '2025-06-30', source: 'cn-beta-sample', market: 'CN' as const };
const US_BATCH = { batchDate: '2025-06-30', source: 'sample-corpus', market: 'US' as const };

function linesOf(...lines: string[]): AsyncGenerator<Buffer> {
  return inChunks(Buffer.from(lines.join('\n'), 'utf8'), 5);
}

function outcome(result: ParsedMark | undefined): string {
  if (result === undefined) return 'missing';
  return result.ok ? `ok ${result.record.serial}` : `line ${result.line}: ${result.error}`;
}

describe('parseMarkJsonl on the CN sample fixture', () => {
  let results: ParsedMark[];

  beforeAll(async () => {
    results = await collect(
      parseMarkJsonl(createReadStream(path.join(FIXTURES_DIR, 'cn/marks-sample.jsonl')), CN_BATCH),
    );
  });

  it('reports every non-blank line with its own line number', () => {
    expect(results.map(outcome)).toEqual([
      'ok CN-SAMPLE-000001',
      'ok CN-SAMPLE-000002',
      'line 4: the CN store holds only marks in force: is_live must be true',
      'line 5: nice.1: 46 is not a Nice class (1 to 45)',
      expect.stringMatching(/^line 6: not valid JSON/),
      'line 7: Unrecognized key: "is_alive"',
      'ok CN-SAMPLE-000001',
    ]);
  });

  it('maps every field of a full line onto the mark record', () => {
    const first = results[0];
    expect(first?.ok && first.record).toEqual({
      serial: 'CN-SAMPLE-000001',
      markText: '星河织造 XINGHE WEAVE',
      transliteration: 'xing he zhi zao',
      niceClasses: ['24', '25'],
      statusCode: 'registered',
      statusCategory: 'registered',
      isLive: true,
      owner: 'Sample Owner One (fictional)',
      filingDate: '2019-03-15',
      drawingKind: 'word',
      goodsExcerpt: '纺织品; 服装',
      market: 'CN',
      source: 'cn-beta-sample',
      batchDate: '2025-06-30',
    });
  });

  it('fills the defaults of a minimal line: design mark without text, status from is_live, drawing kind', () => {
    const second = results[1];
    expect(second?.ok && second.record).toEqual({
      serial: 'CN-SAMPLE-000002',
      markText: '',
      niceClasses: ['09'],
      statusCode: 'REGISTERED',
      statusCategory: 'registered',
      isLive: true,
      drawingKind: 'design',
      goodsExcerpt: 'Earphones; phone cases',
      market: 'CN',
      source: 'cn-beta-sample',
      batchDate: '2025-06-30',
    });
  });

  it('names the serial of a refused line when it can be read', () => {
    const refused = results[2];
    expect(refused?.ok === false && refused.serial).toBe('CN-SAMPLE-000003');
  });

  it('yields a repeated serial again, flagged as a duplicate, for the store to apply in order', () => {
    const accepted = results.filter((result) => result.ok);
    expect(
      accepted.map((result) => result.ok && [result.record.serial, result.record.markText, result.duplicate]),
    ).toEqual([
      ['CN-SAMPLE-000001', '星河织造 XINGHE WEAVE', false],
      ['CN-SAMPLE-000002', '', false],
      ['CN-SAMPLE-000001', '星河织造 XINGHE', true],
    ]);
  });
});

describe('parseMarkJsonl rules', () => {
  it('keeps a mark that is not live for the US market, as dead or pending', async () => {
    const results = await collect(
      parseMarkJsonl(
        linesOf(
          '{"serial":"SAMPLE-US-1","mark":"OLD BRAND","nice":[25],"is_live":false}',
          '{"serial":"SAMPLE-US-2","mark":"NEW BRAND","nice":[25],"is_live":false,"status_category":"pending"}',
        ),
        US_BATCH,
      ),
    );
    expect(results.map((result) => result.ok && [result.record.statusCategory, result.record.isLive])).toEqual([
      ['dead', false],
      ['pending', false],
    ]);
  });

  it('refuses contradictions: a line of another market, is_live with a pending status', async () => {
    const results = await collect(
      parseMarkJsonl(
        linesOf(
          '{"serial":"X1","mark":"A","is_live":true,"market":"US"}',
          '{"serial":"X2","mark":"B","is_live":true,"status_category":"pending"}',
        ),
        CN_BATCH,
      ),
    );
    expect(results.map(outcome)).toEqual([
      "line 1: market US does not match the batch's market CN",
      'line 2: isLive: isLive must be true exactly when statusCategory is "registered"',
    ]);
  });

  it('refuses an absurdly long mark and a bad date, with reasons', async () => {
    const results = await collect(
      parseMarkJsonl(
        linesOf(
          JSON.stringify({ serial: 'X3', mark: 'M'.repeat(1001), is_live: true }),
          '{"serial":"X4","mark":"D","is_live":true,"filing_date":"2024-02-30"}',
          '{"serial":"bad serial!","mark":"S","is_live":true}',
        ),
        CN_BATCH,
      ),
    );
    expect(results.map(outcome)).toEqual([
      'line 1: mark: must be at most 1000 characters',
      'line 2: filing_date: must be a real calendar date written YYYY-MM-DD',
      'line 3: serial: must be 1 to 40 letters, digits, ".", "_" or "-"',
    ]);
  });

  it('reports an overlong line by its length without holding it, then reads the next line', async () => {
    const huge = JSON.stringify({
      serial: 'X5',
      mark: 'M',
      goods: 'g'.repeat(JSONL_MAX_LINE_CHARS * 3),
      is_live: true,
    });
    const results = await collect(
      parseMarkJsonl(inChunks(Buffer.from(`${huge}\n{"serial":"X6","mark":"OK","is_live":true}\n`), 1000), CN_BATCH),
    );
    expect(results.map(outcome)).toEqual([
      `line 1: line is ${huge.length} characters long (at most ${JSONL_MAX_LINE_CHARS})`,
      'ok X6',
    ]);
  });

  it('accepts Windows line endings, a byte order mark, blank lines and a last line without newline', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        '{"serial":"W1","mark":"ONE","is_live":true}\r\n\r\n{"serial":"W2","mark":"TWO","is_live":true}',
        'utf8',
      ),
    ]);
    const results = await collect(parseMarkJsonl(inChunks(bytes, 3), CN_BATCH));
    expect(results.map((result) => [result.line, result.ok && result.record.markText])).toEqual([
      [1, 'ONE'],
      [3, 'TWO'],
    ]);
  });

  it('ends with an encoding error naming the line when the bytes are not UTF-8', async () => {
    const bytes = Buffer.from(
      '{"serial":"L1","mark":"OK","is_live":true}\n{"serial":"L2","mark":"CAFÉ","is_live":true}\n',
      'latin1',
    );

    const { items, error } = await collectUntilError(parseMarkJsonl(inChunks(bytes, 4096), CN_BATCH));

    expect(items.map(outcome)).toEqual(['ok L1']);
    expect(error).toBeInstanceOf(BatchEncodingError);
    expect((error as BatchEncodingError).line).toBe(2);
  });
});
