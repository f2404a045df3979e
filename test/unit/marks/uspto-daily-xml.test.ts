/** Over 400 lines on purpose: one parser (the USPTO daily XML), its field cases and properties together. */
import { createReadStream, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { BatchEncodingError, BatchFormatError, BatchSyntaxError } from '../../../shared/marks/batch-errors';
import type { MarkRecord, ParsedMark } from '../../../shared/marks/mark-record';
import { parseUsptoDailyXml } from '../../../shared/marks/uspto-daily-xml';
import {
  BATCH,
  caseFileXml,
  collect,
  collectUntilError,
  DAILY_SAMPLE_PATH,
  dailyXmlDocument,
  inChunks,
  TSDR_SAMPLES_DIR,
} from './batch-test-inputs';

const sampleBytes = readFileSync(DAILY_SAMPLE_PATH);

function records(results: ParsedMark[]): MarkRecord[] {
  return results.map((result) => {
    if (!result.ok) throw new Error(`unexpected reject at line ${result.line}: ${result.error}`);
    return result.record;
  });
}

function parseText(xml: string): Promise<ParsedMark[]> {
  return collect(parseUsptoDailyXml(inChunks(Buffer.from(xml, 'utf8'), 4096), BATCH));
}

/**
 * Expected values read from seed.xml itself (serial-number, registration-number, filing-date, status-code,
 * mark-identification, mark-drawing-code, every international-code, the first case-file-owner's party-name,
 * and the line of each <case-file> tag), not produced by the parser.
 */
const SAMPLE_EXPECTATIONS = [
  {
    line: 252,
    serial: '87310367',
    registrationNumber: undefined,
    filingDate: '2017-01-23',
    statusCode: '688',
    markText: 'TUSIMPLE',
    drawingKind: 'word',
    niceClasses: ['09', '12', '39', '42'],
    owner: 'TuSimple',
    statusCategory: 'pending',
    isLive: false,
  },
  {
    line: 557,
    serial: '87703889',
    registrationNumber: undefined,
    filingDate: '2017-11-30',
    statusCode: '630',
    markText: 'TU SIMPLE',
    drawingKind: 'both',
    niceClasses: ['09', '12', '39', '42'],
    owner: 'TuSimple',
    statusCategory: 'pending',
    isLive: false,
  },
  {
    line: 774,
    serial: '87703896',
    registrationNumber: undefined,
    filingDate: '2017-11-30',
    statusCode: '630',
    markText: 'TU SIMPLE',
    drawingKind: 'both',
    niceClasses: ['09', '12', '39', '42'],
    owner: 'TuSimple',
    statusCategory: 'pending',
    isLive: false,
  },
  {
    line: 979,
    serial: '87796079',
    registrationNumber: undefined,
    filingDate: '2018-02-13',
    statusCode: '630',
    markText: 'CLEANPULP',
    drawingKind: 'word',
    niceClasses: ['42'],
    owner: 'Solenis Technologies, L.P.',
    statusCategory: 'pending',
    isLive: false,
  },
  {
    line: 1125,
    serial: '71112081',
    registrationNumber: '0124134',
    filingDate: '1918-07-11',
    statusCode: '800',
    markText: 'CUTEX',
    drawingKind: 'word',
    niceClasses: ['08'],
    owner: 'CUTEX, INC.',
    statusCategory: 'registered',
    isLive: true,
  },
  {
    line: 1445,
    serial: '71522974',
    registrationNumber: '0436748',
    filingDate: '1947-05-24',
    statusCode: '800',
    markText: 'COLUMBIAN',
    drawingKind: 'word',
    niceClasses: ['16'],
    owner: 'Quality Park, LLC',
    statusCategory: 'registered',
    isLive: true,
  },
  {
    line: 1779,
    serial: '72029003',
    registrationNumber: '0657968',
    filingDate: '1957-04-29',
    statusCode: '800',
    markText: 'B & G',
    drawingKind: 'word',
    niceClasses: ['06'],
    owner: 'FLUID HANDLING LLC',
    statusCategory: 'registered',
    isLive: true,
  },
  {
    line: 2061,
    serial: '72045204',
    registrationNumber: '0672905',
    filingDate: '1958-02-03',
    statusCode: '800',
    markText: 'ROCK CREEK',
    drawingKind: 'both',
    niceClasses: ['32'],
    owner: 'CANADA DRY POTOMAC CORPORATION',
    statusCategory: 'registered',
    isLive: true,
  },
  {
    line: 2353,
    serial: '72243407',
    registrationNumber: '0832787',
    filingDate: '1966-04-14',
    statusCode: '800',
    markText: 'CELANESE',
    drawingKind: 'both',
    niceClasses: ['01'],
    owner: 'CELANESE INTERNATIONAL CORPORATION',
    statusCategory: 'registered',
    isLive: true,
  },
  {
    line: 2665,
    serial: '72244388',
    registrationNumber: '0864928',
    filingDate: '1966-04-27',
    statusCode: '703',
    markText: 'AUDION',
    drawingKind: 'word',
    niceClasses: ['07'],
    owner: 'AUDION ELEKTRO B.V.',
    statusCategory: 'registered',
    isLive: true,
  },
  {
    line: 2856,
    serial: '72244547',
    registrationNumber: '0843074',
    filingDate: '1966-04-29',
    statusCode: '800',
    markText: 'CARBOLINE',
    drawingKind: 'word',
    niceClasses: ['01', '02', '03', '19'],
    owner: 'CARBOLINE INTERNATIONAL CORPORATION',
    statusCategory: 'registered',
    isLive: true,
  },
] as const;

describe('parseUsptoDailyXml on the real 11-record daily sample', () => {
  let results: ParsedMark[];

  beforeAll(async () => {
    results = await collect(parseUsptoDailyXml(createReadStream(DAILY_SAMPLE_PATH), BATCH));
  });

  it('yields every case-file, in file order, none rejected', () => {
    expect(results).toHaveLength(11);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(results.map((result) => result.line)).toEqual(SAMPLE_EXPECTATIONS.map((expected) => expected.line));
  });

  it.each(SAMPLE_EXPECTATIONS.map((expected) => [expected.markText, expected.serial, expected] as const))(
    '%s (%s): every mapped field',
    (_mark, serial, expected) => {
      const result = results.find((candidate) => candidate.ok && candidate.record.serial === serial);
      if (!result?.ok) throw new Error(`serial ${serial} missing`);
      const { record } = result;
      expect(result.line).toBe(expected.line);
      expect(result.duplicate).toBe(false);
      expect(record.serial).toBe(expected.serial);
      expect(record.registrationNumber).toBe(expected.registrationNumber);
      expect(record.markText).toBe(expected.markText);
      expect(record.niceClasses).toEqual(expected.niceClasses);
      expect(record.statusCode).toBe(expected.statusCode);
      expect(record.statusCategory).toBe(expected.statusCategory);
      expect(record.isLive).toBe(expected.isLive);
      expect(record.owner).toBe(expected.owner);
      expect(record.filingDate).toBe(expected.filingDate);
      expect(record.drawingKind).toBe(expected.drawingKind);
      expect(record.market).toBe('US');
      expect(record.source).toBe(BATCH.source);
      expect(record.batchDate).toBe(BATCH.batchDate);
      expect(record.goodsExcerpt?.length).toBeLessThanOrEqual(300);
    },
  );

  it('keeps short goods and services text whole', () => {
    const goodsBySerial = new Map(records(results).map((record) => [record.serial, record.goodsExcerpt]));
    expect(goodsBySerial.get('71112081')).toBe('EMERY BOARDS');
    expect(goodsBySerial.get('71522974')).toBe('ENVELOPES EQUIPPED WITH METAL FASTENERS');
    expect(goodsBySerial.get('72045204')).toBe('CARBONATED BEVERAGES SOLD AS SOFT DRINKS AND FOR USE AS MIXERS');
    expect(goodsBySerial.get('72244388')).toBe('SEALING MACHINES FOR SEALING SYNTHETIC PACKING MATERIALS');
  });

  it('cuts long goods text to an excerpt of at most 300 characters with an ellipsis', () => {
    const tusimple = records(results).find((record) => record.serial === '87310367');
    expect(tusimple?.goodsExcerpt).toMatch(/^Computer software, computer software applications, operating systems/);
    expect(tusimple?.goodsExcerpt?.endsWith('…')).toBe(true);
    expect(tusimple?.goodsExcerpt?.length).toBeLessThanOrEqual(300);
  });

  it('leaves out statements that are not goods and services (pseudo mark, colour, description)', () => {
    const tuSimpleDesign = records(results).find((record) => record.serial === '87703889');
    expect(tuSimpleDesign?.goodsExcerpt).not.toContain('Color is not claimed');
    expect(tuSimpleDesign?.goodsExcerpt).not.toContain('TO SIMPLE');
  });

  it('shows goods as they stand: deleted [..] goods dropped, *..* additions kept without the asterisks', () => {
    const carboline = records(results).find((record) => record.serial === '72244547');
    expect(carboline?.goodsExcerpt).toMatch(/^ADHESIVES FOR BONDING WOOD, LEATHER, PLASTIC, GLASS, STONE/);
    expect(carboline?.goodsExcerpt).toContain('TWO-COMPONENT EPOXYAMINE PRIMER AND FINISH COATINGS');
    expect(carboline?.goodsExcerpt).not.toContain('PRIMES');
    expect(carboline?.goodsExcerpt).not.toContain('*');
  });

  it('decodes the entity in "B &amp; G"', () => {
    expect(records(results).map((record) => record.markText)).toContain('B & G');
  });

  it('gives the same records whatever the chunk boundaries (property)', async () => {
    const reference = JSON.stringify(results);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 9000 }), { minLength: 1, maxLength: 6 }), async (sizes) => {
        const chunked = await collect(parseUsptoDailyXml(inChunks(sampleBytes, ...sizes), BATCH));
        expect(JSON.stringify(chunked)).toBe(reference);
      }),
      { numRuns: 25 },
    );
  });
});

describe('parseUsptoDailyXml streams', () => {
  it('yields the first records after reading only the first chunks of an endless file', async () => {
    let chunksRead = 0;
    async function* endlessDailyFile(): AsyncGenerator<Buffer> {
      chunksRead += 1;
      yield Buffer.from('<?xml version="1.0" encoding="utf-8"?>\n<trademark-applications-daily><action-keys>\n');
      for (let index = 0; ; index += 1) {
        chunksRead += 1;
        const serial = String(80000000 + index);
        yield Buffer.from(caseFileXml({ serial, statusCode: '700', mark: `MARK ${index}`, classes: ['025'] }));
      }
    }

    const firstThree: ParsedMark[] = [];
    for await (const result of parseUsptoDailyXml(endlessDailyFile(), BATCH)) {
      firstThree.push(result);
      if (firstThree.length === 3) break;
    }

    expect(firstThree.map((result) => result.ok && result.record.markText)).toEqual(['MARK 0', 'MARK 1', 'MARK 2']);
    expect(chunksRead).toBeLessThanOrEqual(5);
  });
});

describe('parseUsptoDailyXml record-level rejects', () => {
  it('rejects an absurdly long mark with its line and serial, and goes on with the next record', async () => {
    const xml = dailyXmlDocument([
      caseFileXml({ serial: '90000001', statusCode: '700', mark: 'X'.repeat(50_000) }),
      caseFileXml({ serial: '90000002', statusCode: '700', mark: 'NEXT ONE' }),
    ]);

    const results = await parseText(xml);

    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      ok: false,
      error: 'mark text is 50000 characters long (at most 1000)',
      line: 6,
      serial: '90000001',
    });
    expect(results[1]?.ok && results[1].record.markText).toBe('NEXT ONE');
  });

  it('accepts a mark of exactly 1000 characters', async () => {
    const [result] = await parseText(
      dailyXmlDocument([caseFileXml({ serial: '90000003', statusCode: '700', mark: 'Y'.repeat(1000) })]),
    );
    expect(result?.ok && result.record.markText.length).toBe(1000);
  });

  it('rejects a case-file without serial, with a malformed serial, without or with an unknown status code', async () => {
    const xml = dailyXmlDocument([
      caseFileXml({ statusCode: '700', mark: 'NO SERIAL' }),
      caseFileXml({ serial: '1234', statusCode: '700', mark: 'SHORT SERIAL' }),
      caseFileXml({ serial: '90000004', mark: 'NO STATUS' }),
      caseFileXml({ serial: '90000005', statusCode: '999', mark: 'ODD STATUS' }),
    ]);

    const results = await parseText(xml);

    expect(results.map((result) => (result.ok ? 'ok' : result.error))).toEqual([
      'no serial number',
      'serial number "1234" is not 8 digits',
      'no status code',
      'status code "999" is not in the USPTO status table',
    ]);
    expect(results.map((result) => !result.ok && result.serial)).toEqual([undefined, '1234', '90000004', '90000005']);
  });

  it('keeps a design-only mark with empty text', async () => {
    const [result] = await parseText(
      dailyXmlDocument([caseFileXml({ serial: '90000006', statusCode: '700', drawingCode: '2000', classes: ['025'] })]),
    );
    expect(result?.ok && result.record).toMatchObject({ markText: '', drawingKind: 'design', niceClasses: ['25'] });
  });

  it('drops USPTO-only class codes that are not Nice classes (A, B, 200)', async () => {
    const [result] = await parseText(
      dailyXmlDocument([
        caseFileXml({ serial: '90000007', statusCode: '700', mark: 'CERT', classes: ['A', '200', '025', '025'] }),
      ]),
    );
    expect(result?.ok && result.record.niceClasses).toEqual(['25']);
  });

  it('yields both case-files of a repeated serial, the later one flagged as a duplicate', async () => {
    const xml = dailyXmlDocument([
      caseFileXml({ serial: '90000010', statusCode: '700', mark: 'FIRST' }),
      caseFileXml({ serial: '90000011', statusCode: '700', mark: 'OTHER' }),
      caseFileXml({ serial: '90000010', statusCode: '710', mark: 'FIRST' }),
    ]);

    const results = await parseText(xml);

    expect(
      results.map((result) => result.ok && [result.record.serial, result.record.isLive, result.duplicate]),
    ).toEqual([
      ['90000010', true, false],
      ['90000011', true, false],
      ['90000010', false, true],
    ]);
  });
});

describe('parseUsptoDailyXml on a broken file', () => {
  it('yields the complete records before a truncation, then throws a syntax error naming the line', async () => {
    const cut = sampleBytes.indexOf('<mark-identification>CLEANPULP');
    const truncated = sampleBytes.subarray(0, cut);

    const { items, error } = await collectUntilError(parseUsptoDailyXml(inChunks(truncated, 1000), BATCH));

    expect(items.map((result) => result.ok && result.record.serial)).toEqual(['87310367', '87703889', '87703896']);
    expect(error).toBeInstanceOf(BatchSyntaxError);
    expect((error as BatchSyntaxError).message).toMatch(/^line \d+, column \d+: unclosed tag/);
    expect((error as BatchSyntaxError).message).toContain('unclosed tag');
    expect((error as BatchSyntaxError).line).toBeGreaterThanOrEqual(979);
  });

  it('names the line of a mismatched closing tag', async () => {
    const xml = dailyXmlDocument([caseFileXml({ serial: '90000020', statusCode: '700', mark: 'OK' })]).replace(
      '</case-file-header>',
      '</case-file-headr>',
    );

    const { items, error } = await collectUntilError(parseUsptoDailyXml(inChunks(Buffer.from(xml), 50), BATCH));

    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(BatchSyntaxError);
    expect((error as BatchSyntaxError).line).toBe(11);
    expect((error as BatchSyntaxError).message).toContain('unexpected close tag');
  });

  it.each([
    ['plain text', 'this is not xml at all'],
    ['binary bytes', '\u0000\u0001\u0002PNG garbage'],
    ['an empty file', ''],
    [
      'an unescaped ampersand',
      '<trademark-applications-daily><case-file><serial-number>A & B</serial-number></case-file></trademark-applications-daily>',
    ],
  ])('rejects %s with a syntax error', async (_label, text) => {
    const { items, error } = await collectUntilError(parseUsptoDailyXml(inChunks(Buffer.from(text), 8), BATCH));
    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(BatchSyntaxError);
    expect((error as BatchSyntaxError).line).toBe(1);
  });

  it('stops on text outside any element at the first chunk, without reading the rest', async () => {
    let chunksRead = 0;
    async function* endlessText(): AsyncGenerator<Buffer> {
      for (;;) {
        chunksRead += 1;
        yield Buffer.from('lorem ipsum dolor sit amet '.repeat(2000));
      }
    }

    const { error } = await collectUntilError(parseUsptoDailyXml(endlessText(), BATCH));

    expect(error).toBeInstanceOf(BatchSyntaxError);
    expect((error as Error).message).toContain('text data outside of root node');
    expect(chunksRead).toBe(1);
  });

  it('stops when no root element starts within the first MiB (an endless comment) instead of reading it all', async () => {
    let chunksRead = 0;
    async function* endlessComment(): AsyncGenerator<Buffer> {
      yield Buffer.from('<?xml version="1.0"?>\n<!-- ');
      for (;;) {
        chunksRead += 1;
        yield Buffer.from('comment '.repeat(2000));
      }
    }

    const { error } = await collectUntilError(parseUsptoDailyXml(endlessComment(), BATCH));

    expect(error).toBeInstanceOf(BatchFormatError);
    expect((error as Error).message).toContain('no root element in the first 1 MiB');
    expect(chunksRead).toBeLessThan(80);
  });

  it('refuses another XML document (a TSDR status file) by its root element', async () => {
    const tsdr = readFileSync(`${TSDR_SAMPLES_DIR}/sn76044902.xml`);
    const { error } = await collectUntilError(parseUsptoDailyXml(inChunks(tsdr, 4096), BATCH));
    expect(error).toBeInstanceOf(BatchFormatError);
    expect((error as Error).message).toContain('the root element is <Transaction>');
  });
});

describe('parseUsptoDailyXml encodings', () => {
  const latinCaseFiles = [
    caseFileXml({ serial: '90000030', statusCode: '700', mark: 'PLAIN' }),
    caseFileXml({ serial: '90000031', statusCode: '700', mark: 'CAFÉ NOËL' }),
  ];

  it('refuses a file declared UTF-8 that holds Latin-1 bytes, naming the line of the first bad byte', async () => {
    const bytes = Buffer.from(dailyXmlDocument(latinCaseFiles), 'latin1');

    const { items, error } = await collectUntilError(parseUsptoDailyXml(inChunks(bytes, 100), BATCH));

    expect(error).toBeInstanceOf(BatchEncodingError);
    expect((error as BatchEncodingError).line).toBe(18);
    expect((error as Error).message).toContain('byte 0xc9 is not valid UTF-8');
    expect(items.map((result) => result.ok && result.record.markText)).toEqual(['PLAIN']);
  });

  it('decodes a file that declares ISO-8859-1', async () => {
    const xml = dailyXmlDocument(latinCaseFiles, '<?xml version="1.0" encoding="ISO-8859-1"?>');
    const results = await collect(parseUsptoDailyXml(inChunks(Buffer.from(xml, 'latin1'), 7), BATCH));
    expect(results.map((result) => result.ok && result.record.markText)).toEqual(['PLAIN', 'CAFÉ NOËL']);
  });

  it('decodes UTF-16LE with a byte order mark to the same records as the UTF-8 original', async () => {
    const text = sampleBytes.toString('utf8').replace('encoding="utf-8"', 'encoding="UTF-16"');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

    const fromUtf16 = await collect(parseUsptoDailyXml(inChunks(utf16, 1001), BATCH));
    const fromUtf8 = await collect(parseUsptoDailyXml(inChunks(sampleBytes, 1000), BATCH));

    expect(fromUtf16).toEqual(fromUtf8);
  });

  it('decodes multi-byte UTF-8 characters split across chunks', async () => {
    const xml = dailyXmlDocument([caseFileXml({ serial: '90000032', statusCode: '700', mark: '耐克 NIKÉ 😀' })]);
    const results = await collect(parseUsptoDailyXml(inChunks(Buffer.from(xml, 'utf8'), 1), BATCH));
    expect(results[0]?.ok && results[0].record.markText).toBe('耐克 NIKÉ 😀');
  });

  it('refuses a declared encoding it cannot decode, and a UTF-16 declaration over single-byte text', async () => {
    const shiftJis = Buffer.from(
      dailyXmlDocument(latinCaseFiles, '<?xml version="1.0" encoding="Shift_JIS"?>'),
      'latin1',
    );
    const fakeUtf16 = Buffer.from(dailyXmlDocument(latinCaseFiles, '<?xml version="1.0" encoding="UTF-16"?>'), 'utf8');

    const shiftJisOutcome = await collectUntilError(parseUsptoDailyXml(inChunks(shiftJis, 4096), BATCH));
    const fakeUtf16Outcome = await collectUntilError(parseUsptoDailyXml(inChunks(fakeUtf16, 4096), BATCH));

    expect(shiftJisOutcome.error).toBeInstanceOf(BatchEncodingError);
    expect((shiftJisOutcome.error as Error).message).toContain('"Shift_JIS"');
    expect(fakeUtf16Outcome.error).toBeInstanceOf(BatchEncodingError);
    expect((fakeUtf16Outcome.error as Error).message).toContain('not UTF-16');
  });
});
