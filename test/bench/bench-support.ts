/** Shared by the benchmarks: percentiles, a bounded in-flight runner, the machine line, and BENCHMARKS.md sections. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { parse } from 'csv-parse/sync';
import { build } from 'esbuild';
import { esbuildOptions } from '../../infra/constructs/bundling';

// Benchmarks and evaluations keep their local state in a folder of their own: a running `npm start` is never touched.
process.env.TMK_STATE_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'tmk-bench-state-'));

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  const index = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1));
  return sortedMs[index]!;
}

/** Runs `total` calls with at most `inFlight` at once; returns each call's latency (ms) and the wall time. */
export async function runInFlight(
  total: number,
  inFlight: number,
  call: (i: number) => Promise<void>,
): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await call(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), wallMs: performance.now() - started };
}

export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`;
}

const FILE = path.join(__dirname, '../../BENCHMARKS.md');

/** Replaces (or appends) the section that starts with `## <title>` in BENCHMARKS.md (or in `file`). */
export function writeSection(title: string, body: string, file = FILE): void {
  const header =
    file === FILE
      ? "# Benchmarks\n\nFigures measured on this project's own machines; each section names the machine, the date and the command.\n"
      : `# ${path.basename(file, '.md')}\n`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : header;
  const section = `## ${title}\n\n${body.trim()}\n`;
  const pattern = new RegExp(`## ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n[\\s\\S]*?(?=\\n## |$)`);
  const updated = pattern.test(current) ? current.replace(pattern, section) : `${current.trimEnd()}\n\n${section}`;
  writeFileSync(file, updated.endsWith('\n') ? updated : `${updated}\n`);
}

/** A bench or evaluation run on its own (`tsx file.ts`): measures, writes its BENCHMARKS.md section, prints it. */
export function runAndWriteSection(title: string, measure: () => Promise<string>): void {
  measure()
    .then((section) => {
      writeSection(title, section);
      console.log(section);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}

const TITLE_FIXTURES = path.join(__dirname, '../fixtures/titles');

/** Real listing titles (flipkart-dev and markup-amazon), blank ones left out, each cut to `maxChars`. */
export function realTitles(maxChars = 500): string[] {
  const flipkart = (
    parse(readFileSync(path.join(TITLE_FIXTURES, 'flipkart-dev/flipkart_dev.csv'), 'utf8'), { columns: true }) as {
      product_name: string;
    }[]
  ).map((r) => r.product_name);
  const amazon = Object.values(
    JSON.parse(readFileSync(path.join(TITLE_FIXTURES, 'markup-amazon/titles.json'), 'utf8')) as Record<string, string>,
  );
  return [...flipkart, ...amazon].filter((t) => t.trim()).map((t) => t.slice(0, maxChars));
}

export type Screener = { screen(items: { title: string }[]): Promise<unknown> };
export type ScreeningServiceModule = typeof import('../../shared/screening/screening-service');

/**
 * The screening engine as the batch-screen function ships it: shared/screening/screening-service.ts bundled with
 * the functions' esbuild options (infra/constructs/bundling.ts) into node_modules/.cache/<cacheName>, loaded from
 * the bundle.
 */
export async function bundledScreeningService(cacheName: string): Promise<ScreeningServiceModule> {
  const outfile = path.join(__dirname, `../../node_modules/.cache/${cacheName}/screening-service.js`);
  mkdirSync(path.dirname(outfile), { recursive: true });
  await build(esbuildOptions(path.join(__dirname, '../../shared/screening/screening-service.ts'), outfile));
  return require(outfile) as ScreeningServiceModule;
}

/**
 * Titles per second over five passes of every title, warm (each screened once before the clock starts): wall clock,
 * and per second of this process's CPU time (user + system, all its threads), which on a machine shared with other
 * work is what one core gives. Sorted, so [2] is the median.
 */
export async function engineRates(
  screener: Screener,
  titles: readonly string[],
): Promise<{ wall: number[]; cpu: number[] }> {
  const pass = async () => {
    for (let i = 0; i < titles.length; i += 1000)
      await screener.screen(titles.slice(i, i + 1000).map((title) => ({ title })));
  };
  await pass();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await pass();
    const used = process.cpuUsage(cpu0);
    wall.push(titles.length / ((performance.now() - t0) / 1000));
    cpu.push(titles.length / ((used.user + used.system) / 1e6));
  }
  return { wall: wall.sort((a, b) => a - b), cpu: cpu.sort((a, b) => a - b) };
}

/**
 * Titles per CPU second of the process on titles new to the screener: a fresh screener is given the first
 * `warmUp` titles (its code compiled and optimised, its tables holding what those titles found), then the rest,
 * each for the first time, timed. What an instance that has served others meets in most requests; the warm rate
 * (engineRates) is the same titles again, where most runs are already known to match nothing.
 */
export async function newTitleRate(screener: Screener, titles: readonly string[], warmUp = 5000): Promise<number> {
  for (let i = 0; i < warmUp; i += 1000) await screener.screen(titles.slice(i, i + 1000).map((title) => ({ title })));
  const cpu0 = process.cpuUsage();
  for (let i = warmUp; i < titles.length; i += 1000)
    await screener.screen(titles.slice(i, i + 1000).map((title) => ({ title })));
  const used = process.cpuUsage(cpu0);
  return (titles.length - warmUp) / ((used.user + used.system) / 1e6);
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN once it is gone. */
export function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** A process's resident memory in bytes, from /proc (Linux); NaN once it is gone. */
export function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The bytes of every file under a folder. */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(full) : statSync(full).size;
  }
  return total;
}

/** Node's arguments for `npm run ingest -- marks-jsonl FILE` of a US batch, run as its own process from the root. */
export function marksIngestArguments(file: string, batchDate: string, rejects: string): string[] {
  return [
    '--max-old-space-size=256',
    '--import',
    'tsx',
    'local/ingest-cli.ts',
    'marks-jsonl',
    file,
    '--market',
    'US',
    '--batch-date',
    batchDate,
    '--rejects',
    rejects,
  ];
}

/** One batch-screen call of `titles` over HTTP; its milliseconds, end to end (throws on any status but 200). */
export async function timedBatchScreen(baseUrl: string, apiKey: string, titles: readonly string[]): Promise<number> {
  const body = JSON.stringify({ items: titles.map((title) => ({ title })) });
  const t0 = performance.now();
  const response = await fetch(`${baseUrl}/v1/batch-screen`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiKey}` },
    body,
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`batch-screen answered ${response.status}`);
  return performance.now() - t0;
}

/** DynamoDB's size of a number: about one byte per two significant digits, plus one. */
function numberSize(text: string): number {
  const digits = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

/** The size DynamoDB bills an attribute value by (developer guide, "Item sizes and formats"). */
export function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, s) => sum + Buffer.byteLength(s), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, n) => sum + numberSize(n), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, b) => sum + b.length, 0);
  if (value.L !== undefined) return 3 + value.L.reduce((sum, v) => sum + 1 + valueSize(v), 0);
  if (value.M !== undefined)
    return 3 + Object.entries(value.M).reduce((sum, [k, v]) => sum + 1 + Buffer.byteLength(k) + valueSize(v), 0);
  return 0;
}

export function itemSize(item: Record<string, AttributeValue>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += Buffer.byteLength(name) + valueSize(value);
  return size;
}
