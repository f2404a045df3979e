import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brandKey, isSelfContainedSvg } from '../../../builders/build-sample-corpus';
import { parseMarkJsonl } from '../../../shared/marks/cn-jsonl';
import { calendarDateSchema, type MarkRecord, type ParsedMark } from '../../../shared/marks/mark-record';

/** The shipped sample corpus (data/sample) must load through the real parsers with nothing refused. */

const SAMPLE_DIR = path.resolve(__dirname, '../../../data/sample');
const LOGOS_DIR = path.join(SAMPLE_DIR, 'logos');

async function parsedFile(fileName: string, market: 'US' | 'CN'): Promise<ParsedMark[]> {
  const results: ParsedMark[] = [];
  const batch = { batchDate: '2026-01-01', source: 'sample-corpus', market };
  for await (const result of parseMarkJsonl(createReadStream(path.join(SAMPLE_DIR, fileName)), batch)) {
    results.push(result);
  }
  return results;
}

function recordsOf(results: ParsedMark[]): MarkRecord[] {
  return results.flatMap((result) => (result.ok ? [result.record] : []));
}

function nonBlankLines(fileName: string): string[] {
  return readFileSync(path.join(SAMPLE_DIR, fileName), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

function sizeOf(target: string): number {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(target).reduce((total, entry) => total + sizeOf(path.join(target, entry)), 0);
}

describe('US sample marks (us-marks.jsonl)', () => {
  let results: ParsedMark[];
  let records: MarkRecord[];

  beforeAll(async () => {
    results = await parsedFile('us-marks.jsonl', 'US');
    records = recordsOf(results);
  });

  it('parses every line with no reject and no repeated serial', () => {
    const rejects = results.filter((result) => !result.ok);
    const duplicates = results.filter((result) => result.ok && result.duplicate);

    expect(rejects).toEqual([]);
    expect(duplicates).toEqual([]);
    expect(records).toHaveLength(nonBlankLines('us-marks.jsonl').length);
    expect(records.length).toBeGreaterThan(5000);
  });

  it('uses sample serials that cannot be mistaken for 8-digit USPTO serials', () => {
    const serials = records.map((record) => record.serial);

    expect(new Set(serials).size).toBe(serials.length);
    expect(serials.filter((serial) => !/^US-SAMPLE-\d{6}$/.test(serial))).toEqual([]);
    expect(serials.filter((serial) => /^\d{8}$/.test(serial))).toEqual([]);
  });

  it('holds each brand once, compared without case or punctuation', () => {
    const keys = records.map((record) => brandKey(record.markText));

    expect(new Set(keys).size).toBe(keys.length);
  });

  it('marks every record live, word-only and without an invented owner', () => {
    expect(
      records.filter((record) => !record.isLive || record.drawingKind !== 'word' || record.owner !== undefined),
    ).toEqual([]);
  });

  it('keeps the dual-use brands screening must not cry wolf about, with their classes', () => {
    const classesOf = (mark: string): string[] | undefined =>
      records.find((record) => record.markText.toLowerCase() === mark)?.niceClasses;

    expect(classesOf('apple')).toEqual(['09']);
    expect(classesOf('dove')).toEqual(['03', '30']);
    expect(classesOf('gap')).toEqual(['25', '35']);
    expect(classesOf('coach')).toEqual(['18', '25']);
    expect(classesOf('ring')).toEqual(['09']);
    expect(classesOf('always')).toEqual(['05']);
    expect(classesOf('command')).toEqual(['16', '20']);
    expect(classesOf('nike')).toEqual(['25', '28']);
  });

  it('leaves classes empty where the sources cannot tell them', () => {
    const withClasses = records.filter((record) => record.niceClasses.length > 0).length;

    expect(withClasses).toBeGreaterThan(1000);
    expect(withClasses).toBeLessThan(records.length / 2);
  });
});

describe('CN beta sample (cn-marks.jsonl, cn-coverage.json)', () => {
  let results: ParsedMark[];
  let records: MarkRecord[];

  beforeAll(async () => {
    results = await parsedFile('cn-marks.jsonl', 'CN');
    records = recordsOf(results);
  });

  it('parses every line as a CN mark in force, with no reject', () => {
    expect(results.filter((result) => !result.ok)).toEqual([]);
    expect(records).toHaveLength(nonBlankLines('cn-marks.jsonl').length);
    expect(records.every((record) => record.isLive && record.market === 'CN')).toBe(true);
  });

  it('uses unique CN sample serials, none of them 8 digits', () => {
    const serials = records.map((record) => record.serial);

    expect(new Set(serials).size).toBe(serials.length);
    expect(serials.filter((serial) => !/^CN-SAMPLE-\d{6}$/.test(serial))).toEqual([]);
  });

  it('holds Chinese marks with their pinyin and Latin marks', () => {
    const chinese = records.filter((record) => /\p{Script=Han}/u.test(record.markText));
    const latinOnly = records.filter((record) => !/\p{Script=Han}/u.test(record.markText));

    expect(chinese.length).toBeGreaterThan(50);
    expect(latinOnly.length).toBeGreaterThan(50);
    expect(chinese.filter((record) => record.transliteration === undefined)).toEqual([]);
    expect(records.find((record) => record.markText === '耐克')?.transliteration).toBe('nai ke');
  });

  it('comes with a coverage record that admits it is a partial sample', () => {
    const coverage = JSON.parse(readFileSync(path.join(SAMPLE_DIR, 'cn-coverage.json'), 'utf8')) as Record<
      string,
      unknown
    >;

    expect(coverage).toEqual({
      country: 'CN',
      source: expect.stringMatching(/sample/),
      partial: true,
      coverage_note: expect.stringMatching(/sample/),
      data_as_of: expect.any(String),
    });
    expect(calendarDateSchema.safeParse(coverage.data_as_of).success).toBe(true);
  });
});

interface LogoLine {
  serial: string;
  mark: string;
  file: string;
  nice: number[];
  is_live: boolean;
  source: string;
}

describe('sample logo batch (logos/logos.jsonl)', () => {
  let logos: LogoLine[];
  let usBySerial: Map<string, MarkRecord>;

  beforeAll(async () => {
    logos = readFileSync(path.join(LOGOS_DIR, 'logos.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as LogoLine);
    usBySerial = new Map(recordsOf(await parsedFile('us-marks.jsonl', 'US')).map((record) => [record.serial, record]));
  });

  it('has between 150 and 400 logos, each line with exactly the documented fields', () => {
    expect(logos.length).toBeGreaterThanOrEqual(150);
    expect(logos.length).toBeLessThanOrEqual(400);
    for (const logo of logos) {
      expect(Object.keys(logo).sort()).toEqual(['file', 'is_live', 'mark', 'nice', 'serial', 'source']);
      expect(['simple-icons', 'devicon']).toContain(logo.source);
    }
  });

  it('points every line at an existing file inside the batch folder', () => {
    const bad = logos.filter((logo) => {
      const resolved = path.resolve(LOGOS_DIR, logo.file);
      return path.isAbsolute(logo.file) || !resolved.startsWith(`${LOGOS_DIR}${path.sep}`) || !existsSync(resolved);
    });

    expect(bad).toEqual([]);
  });

  it('names marks of the US sample, with the same text, classes and status', () => {
    const mismatched = logos.filter((logo) => {
      const record = usBySerial.get(logo.serial);
      const nice = logo.nice.map((niceClass) => String(niceClass).padStart(2, '0'));
      return (
        record === undefined ||
        record.markText !== logo.mark ||
        JSON.stringify(record.niceClasses) !== JSON.stringify(nice) ||
        record.isLive !== logo.is_live
      );
    });

    expect(mismatched).toEqual([]);
  });

  it('ships only well-formed, self-contained SVGs', () => {
    const unsafe = logos.filter((logo) => !isSelfContainedSvg(readFileSync(path.join(LOGOS_DIR, logo.file), 'utf8')));

    expect(unsafe).toEqual([]);
  });

  it('refuses SVGs that would fetch or run something', () => {
    expect(isSelfContainedSvg('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h1"/></svg>')).toBe(true);
    expect(isSelfContainedSvg('<svg><image href="http://example.com/a.png"/></svg>')).toBe(false);
    expect(isSelfContainedSvg('<svg><script>alert(1)</script></svg>')).toBe(false);
    expect(isSelfContainedSvg('<svg><rect style="fill:url(http://x/y)"/></svg>')).toBe(false);
    expect(isSelfContainedSvg('<svg><rect onload="x()"/></svg>')).toBe(false);
    expect(isSelfContainedSvg('<svg><path d="M0 0"></svg>')).toBe(false);
  });
});

describe('sample corpus as a whole', () => {
  it('carries a SOURCE.txt and the licence of every source', () => {
    for (const file of [
      'SOURCE.txt',
      'licenses/amazon-brand-list.LICENSE',
      'licenses/simple-icons.LICENSE.md',
      'licenses/devicon.LICENSE',
      'logos/SOURCE.txt',
      'logos/simple-icons/LICENSE.md',
      'logos/devicon/LICENSE',
    ]) {
      expect(existsSync(path.join(SAMPLE_DIR, file))).toBe(true);
    }
  });

  it('stays under 5 MB', () => {
    expect(sizeOf(SAMPLE_DIR)).toBeLessThan(5 * 1024 * 1024);
  });
});
