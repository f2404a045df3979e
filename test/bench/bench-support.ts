/** Shared by the benchmarks: percentiles, a bounded in-flight runner, the machine line, and BENCHMARKS.md sections. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

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
