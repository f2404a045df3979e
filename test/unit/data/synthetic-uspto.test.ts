import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import {
  SYNTHETIC_FIRST_SERIAL,
  writeSyntheticDailyXml,
  type SyntheticDailyXmlOptions,
  type SyntheticDailyXmlSummary,
} from '../../../builders/synthetic-uspto/daily-xml';
import { SYNTHETIC_OWNER_MARKER } from '../../../builders/synthetic-uspto/vocabulary';
import type { ParsedMark } from '../../../shared/marks/mark-record';
import { parseUsptoDailyXml } from '../../../shared/marks/uspto-daily-xml';

/** A sink that keeps every chunk, so the output can be parsed and hashed. */
class CollectingSink extends Writable {
  readonly chunks: Buffer[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    callback();
  }
}

/** A slow sink that only counts: it makes the writer wait for 'drain' and holds nothing itself. */
class CountingSink extends Writable {
  bytes = 0;
  maxBuffered = 0;

  constructor() {
    super({ highWaterMark: 16 * 1024 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.bytes += chunk.length;
    this.maxBuffered = Math.max(this.maxBuffered, this.writableLength);
    setImmediate(callback);
  }
}

async function generated(
  options: SyntheticDailyXmlOptions,
): Promise<{ xml: Buffer; summary: SyntheticDailyXmlSummary }> {
  const sink = new CollectingSink();
  const summary = await writeSyntheticDailyXml(sink, options);
  return { xml: Buffer.concat(sink.chunks), summary };
}

async function parsed(xml: Buffer): Promise<ParsedMark[]> {
  const results: ParsedMark[] = [];
  const input = Readable.from([xml.subarray(0, 70_000), xml.subarray(70_000)]);
  for await (const result of parseUsptoDailyXml(input, { batchDate: '2025-01-02', source: 'synthetic' })) {
    results.push(result);
  }
  return results;
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('writeSyntheticDailyXml', () => {
  let xml: Buffer;
  let summary: SyntheticDailyXmlSummary;
  let results: ParsedMark[];

  beforeAll(async () => {
    ({ xml, summary } = await generated({ records: 2500, seed: 7 }));
    results = await parsed(xml);
  });

  it('writes exactly the requested number of case-files, every one a valid daily XML record', () => {
    const rejects = results.filter((result) => !result.ok);

    expect(rejects).toEqual([]);
    expect(results).toHaveLength(2500);
    expect(summary.records).toBe(2500);
    expect(summary.registered + summary.pending + summary.dead).toBe(2500);
  });

  it('keeps the real file structure: DTD, root, action keys and the case-file sections', () => {
    const text = xml.toString('utf8');

    expect(text).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\r?\n<!DOCTYPE trademark-applications-daily \[/);
    expect(text.trimEnd().endsWith('</trademark-applications-daily>')).toBe(true);
    expect(text.match(/<case-file>/g)).toHaveLength(2500);
    const sections = ['case-file-header', 'case-file-statements', 'case-file-event-statements', 'classifications'];
    for (const section of [...sections, 'correspondent', 'case-file-owners']) {
      expect(text.match(new RegExp(`<${section}>`, 'g'))).toHaveLength(2500);
    }
    expect(text.match(/<action-keys>/g)).toHaveLength(3);
    const events = text.match(/<case-file-event-statement>/g)?.length ?? 0;
    expect(events / 2500).toBeGreaterThan(8);
    expect(events / 2500).toBeLessThan(25);
  });

  it('uses consecutive serials from a range no real file uses and marks every owner as synthetic', () => {
    const records = results.flatMap((result) => (result.ok ? [result.record] : []));

    expect(records[0]?.serial).toBe(String(SYNTHETIC_FIRST_SERIAL));
    expect(records.at(-1)?.serial).toBe(String(SYNTHETIC_FIRST_SERIAL + 2499));
    expect(records.every((record) => /^6\d{7}$/.test(record.serial))).toBe(true);
    expect(records.every((record) => record.owner?.startsWith(SYNTHETIC_OWNER_MARKER))).toBe(true);
    expect(results.some((result) => result.ok && result.duplicate)).toBe(false);
  });

  it('mixes live, pending and dead statuses as the summary says, with plausible marks and classes', () => {
    const records = results.flatMap((result) => (result.ok ? [result.record] : []));
    const count = (category: string): number => records.filter((record) => record.statusCategory === category).length;

    expect(count('registered')).toBe(summary.registered);
    expect(count('pending')).toBe(summary.pending);
    expect(count('dead')).toBe(summary.dead);
    expect(summary.dead / 2500).toBeGreaterThan(0.15);
    expect(summary.dead / 2500).toBeLessThan(0.25);
    expect(records.filter((record) => record.isLive)).toHaveLength(summary.registered);
    expect(new Set(records.map((record) => record.statusCode)).size).toBeGreaterThan(20);
    expect(records.filter((record) => record.niceClasses.length === 0)).toEqual([]);
    expect(records.filter((record) => record.markText !== '').length / 2500).toBeGreaterThan(0.9);
    expect(records.some((record) => record.markText.includes('&'))).toBe(true);
  });

  it('is deterministic for a seed and different for another seed', async () => {
    const again = await generated({ records: 2500, seed: 7 });
    const other = await generated({ records: 2500, seed: 8 });

    expect(sha256(again.xml)).toBe(sha256(xml));
    expect(sha256(other.xml)).not.toBe(sha256(xml));
  });

  it('follows the dead share it is given', async () => {
    const allLive = await generated({ records: 300, seed: 3, deadShare: 0 });
    const allDead = await generated({ records: 300, seed: 3, deadShare: 1 });

    expect(allLive.summary.dead).toBe(0);
    expect(allDead.summary.dead).toBe(300);
    const deadResults = await parsed(allDead.xml);
    expect(deadResults.every((result) => result.ok && result.record.statusCategory === 'dead')).toBe(true);
  });

  it('writes a well-formed empty file for zero records', async () => {
    const empty = await generated({ records: 0 });

    expect(await parsed(empty.xml)).toEqual([]);
  });

  it('refuses impossible options', async () => {
    const sink = new CollectingSink();

    await expect(writeSyntheticDailyXml(sink, { records: -1 })).rejects.toThrow(RangeError);
    await expect(writeSyntheticDailyXml(sink, { records: 1.5 })).rejects.toThrow(RangeError);
    await expect(writeSyntheticDailyXml(sink, { records: 10, deadShare: 1.2 })).rejects.toThrow(RangeError);
    await expect(writeSyntheticDailyXml(sink, { records: 10, transactionDate: '20250230' })).rejects.toThrow();
  });

  it('waits for a slow sink and keeps memory flat for 20,000 records', async () => {
    const sink = new CountingSink();
    // Warm up first so the measurement sees steady state rather than module loading and JIT.
    await writeSyntheticDailyXml(new CountingSink(), { records: 500, seed: 1 });
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 5);

    const result = await writeSyntheticDailyXml(sink, { records: 20_000, seed: 11 });
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);

    expect(result.records).toBe(20_000);
    // About 230 MB went through the sink; holding it (or even a tenth of it) would show in RSS.
    expect(sink.bytes).toBeGreaterThan(150 * 1024 * 1024);
    expect(rssPeak - rssBefore).toBeLessThan(64 * 1024 * 1024);
    // Backpressure honoured: never more than one chunk beyond the sink's high-water mark was queued.
    expect(sink.maxBuffered).toBeLessThanOrEqual(16 * 1024 + 2 * 64 * 1024);
  });
});
