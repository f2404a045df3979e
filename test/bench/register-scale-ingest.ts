/**
 * The real ingest CLI on a register-scale marks JSONL (builders/register-scale-corpus.ts) against DynamoDB Local run
 * from disk (SQLite under -dbPath, -sharedDb), as an operator would run it:
 *   npx tsx test/bench/register-scale-ingest.ts <file.jsonl> --db-dir <empty dir on a big disk> [--keep]
 *
 * Steps: start DynamoDB Local from the jar of amplify-dynamodb-simulator (as local/dynamodb-local.ts does, but with
 * -dbPath and -sharedDb); create the tables of shared/tables/definitions.ts (local/create-tables.ts); run
 * `node --max-old-space-size=256 --import tsx local/ingest-cli.ts marks-jsonl <file> --market US --batch-date D`
 * (the command `npm run ingest` runs) under /usr/bin/time for its peak RSS; read the Java process's peak RSS
 * (VmHWM in /proc); scan every table in parallel segments counting items and their DynamoDB item sizes (attribute
 * names plus values, the rule DynamoDB bills by) and write units (1 KB each, rounded up per item); stop DynamoDB
 * Local and measure the folder. Output: one JSON report on stdout (and progress on stderr).
 * The folder is removed afterwards unless --keep. `--time-limit S` stops the ingest after S seconds (a run too long to
 * finish) and measures what it wrote by then.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
import { type AttributeValue, DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createTables } from '../../local/create-tables';
import { freePort } from '../../local/dynamodb-local';
import { localEnvironment } from '../../local/local-config';
import { TABLES, type TableId } from '../../shared/tables/definitions';
import { cpuSecondsOf, folderBytes, itemSize, marksIngestArguments } from './bench-support';

const ROOT = path.join(__dirname, '../..');
const TABLE_PREFIX = 'tmk-scale';

/** Peak RSS (VmHWM) of a running process, bytes; NaN when it is gone. */
function peakRssOf(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

interface TableCount {
  items: number;
  bytes: number;
  writeUnits: number;
  maxItemBytes: number;
  /** Items by size: up to 1 KB, 1-2 KB, 2-4 KB, over 4 KB. */
  sizeBands: [number, number, number, number];
  live?: number;
}

async function scanTable(client: DynamoDBClient, table: string, segments: number): Promise<TableCount> {
  const count: TableCount = { items: 0, bytes: 0, writeUnits: 0, maxItemBytes: 0, sizeBands: [0, 0, 0, 0] };
  await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      let start: Record<string, AttributeValue> | undefined;
      do {
        const page = await client.send(
          new ScanCommand({ TableName: table, Segment: segment, TotalSegments: segments, ExclusiveStartKey: start }),
        );
        for (const item of page.Items ?? []) {
          const size = itemSize(item);
          count.items++;
          count.bytes += size;
          count.writeUnits += Math.max(1, Math.ceil(size / 1024));
          count.maxItemBytes = Math.max(count.maxItemBytes, size);
          count.sizeBands[size <= 1024 ? 0 : size <= 2048 ? 1 : size <= 4096 ? 2 : 3] += 1;
          if (item.isLive?.BOOL === true) count.live = (count.live ?? 0) + 1;
        }
        start = page.LastEvaluatedKey;
      } while (start);
    }),
  );
  return count;
}

async function waitUntilListening(endpoint: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      await fetch(endpoint, { method: 'POST', signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error('DynamoDB Local did not start within 60 s');
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      'db-dir': { type: 'string' },
      keep: { type: 'boolean' },
      'batch-date': { type: 'string' },
      'time-limit': { type: 'string' },
    },
  });
  const [fileArg] = positionals;
  if (!fileArg || !values['db-dir'])
    throw new Error('usage: register-scale-ingest <file.jsonl> --db-dir DIR [--keep] [--time-limit S]');
  const file = path.resolve(fileArg);
  const dbDir = path.resolve(values['db-dir']);
  mkdirSync(dbDir, { recursive: true });
  if (readdirSync(dbDir).length > 0) throw new Error(`${dbDir} is not empty`);
  const batchDate = values['batch-date'] ?? '2026-11-28';

  const emulator = path.join(path.dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
  const port = await freePort();
  const javaArgs = [
    `-Djava.library.path=${path.join(emulator, 'DynamoDBLocal_lib')}`,
    '-Xmx1g',
    '-jar',
    path.join(emulator, 'DynamoDBLocal.jar'),
    '-dbPath',
    dbDir,
    '-sharedDb',
    '-disableTelemetry',
    '-port',
    String(port),
  ];
  const java = spawn('java', javaArgs, { cwd: emulator, stdio: ['ignore', 'ignore', 'inherit'] });
  const javaPid = java.pid!;
  const endpoint = `http://127.0.0.1:${port}`;
  const log = (line: string) => process.stderr.write(`[register-scale-ingest] ${line}\n`);
  try {
    await waitUntilListening(endpoint);
    const client = new DynamoDBClient({
      region: 'us-east-1',
      endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const names = await createTables(client, TABLE_PREFIX);
    log(`DynamoDB Local (pid ${javaPid}) on ${dbDir}, tables created`);

    const env = { ...process.env, ...localEnvironment({ dynamoDbEndpoint: endpoint, tablePrefix: TABLE_PREFIX }) };
    const ingestArgs = marksIngestArguments(
      file,
      batchDate,
      path.join(path.dirname(dbDir), `${path.basename(dbDir)}.rejects.jsonl`),
    );
    const javaCpuBefore = cpuSecondsOf(javaPid);
    const started = performance.now();
    const ingest = spawn('/usr/bin/time', ['-f', 'TIME maxrss_kb=%M user=%U sys=%S', process.execPath, ...ingestArgs], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let ingestOut = '';
    let ingestErr = '';
    ingest.stdout.setEncoding('utf8').on('data', (text: string) => {
      ingestOut += text;
      process.stderr.write(text);
    });
    ingest.stderr.setEncoding('utf8').on('data', (text: string) => {
      ingestErr += text;
      if (!text.startsWith('TIME ')) process.stderr.write(text);
    });
    // --time-limit S: stop the ingest (SIGTERM to the node process under /usr/bin/time) after S seconds and measure
    // what it wrote by then; the batch then stays unfinished.
    const limit = values['time-limit'] ? Number(values['time-limit']) * 1000 : undefined;
    let stoppedAtLimit = false;
    const timer =
      limit === undefined
        ? undefined
        : setTimeout(() => {
            stoppedAtLimit = true;
            const children = readFileSync(`/proc/${ingest.pid}/task/${ingest.pid}/children`, 'utf8').trim();
            for (const pid of children.split(' ').filter(Boolean)) process.kill(Number(pid), 'SIGTERM');
          }, limit);
    const code = await new Promise<number | null>((resolve, reject) => ingest.on('error', reject).on('close', resolve));
    if (timer) clearTimeout(timer);
    const wallSeconds = (performance.now() - started) / 1000;
    const javaCpuSeconds = cpuSecondsOf(javaPid) - javaCpuBefore;
    const time = /TIME maxrss_kb=(\d+) user=([\d.]+) sys=([\d.]+)/.exec(ingestErr);
    log(`ingest exited ${code} after ${wallSeconds.toFixed(1)} s`);

    const scanStarted = performance.now();
    const tables: Partial<Record<TableId, TableCount>> = {};
    for (const table of TABLES) {
      if (!['marks', 'mark-keys', 'data-batches', 'tro-brands'].includes(table.id)) continue;
      tables[table.id] = await scanTable(client, names[table.id], 4);
      log(`${table.id}: ${tables[table.id]!.items} items`);
    }
    const scanSeconds = (performance.now() - scanStarted) / 1000;
    const javaPeakRssBytes = peakRssOf(javaPid);
    client.destroy();
    await new Promise<void>((resolve) => {
      java.once('exit', () => resolve());
      java.kill('SIGTERM');
      setTimeout(() => java.kill('SIGKILL'), 10_000).unref();
    });
    const diskBytes = folderBytes(dbDir);
    const report = {
      file,
      fileBytes: statSync(file).size,
      batchDate,
      exitCode: code,
      stoppedAtLimit,
      lastProgressLine: ingestOut
        .trim()
        .split('\n')
        .filter((line) => line.includes('records/s'))
        .at(-1),
      ingestSummaryLine: ingestOut
        .trim()
        .split('\n')
        .filter((line) => /complete/i.test(line))
        .at(-1),
      wallSeconds,
      ingestPeakRssBytes: time ? Number(time[1]) * 1024 : Number.NaN,
      ingestCpuSeconds: time ? Number(time[2]) + Number(time[3]) : Number.NaN,
      javaPeakRssBytes,
      javaCpuSeconds,
      scanSeconds,
      tables,
      diskBytes,
      command: `node ${ingestArgs.join(' ')}`,
      java: `java ${javaArgs.join(' ')}`,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    if (java.exitCode === null && java.signalCode === null) java.kill('SIGKILL');
    if (!values.keep) rmSync(dbDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
