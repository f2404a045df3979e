/**
 * Batch screening at register scale: `npm run bench -- screening --register <marks-jsonl>` (a file of
 * builders/register-scale-corpus.ts), or `--register none` for the sample corpus alone on the same code (the trend's
 * first point). Its section of BENCHMARKS.md is headed with the register's size.
 *
 * DynamoDB Local runs from disk (-dbPath, a folder under REGISTER_BENCH_DIR, /work/register-bench by default). The
 * register goes in through the real ingest (`local/ingest-cli.ts marks-jsonl`, the command `npm run ingest` runs, in
 * its own process), then the sample corpus on top (local/sample-corpus.ts). A folder holds one register file, keyed by
 * its name, size and mtime: a second run on the same file starts DynamoDB Local on it and skips the register ingest.
 * DynamoDB Local's SQLite syncs every write to disk (about 160 records/s here on disk, 1,900 on tmpfs), so the ingest
 * writes into a folder on tmpfs (REGISTER_BENCH_STAGE_DIR, /dev/shm by default; empty: straight to disk) and the
 * database files are then moved under REGISTER_BENCH_DIR, where every measurement reads them.
 *
 * Measured:
 *  - 1,000-title batches over HTTP (auth, debit, screening, response; the local server as screening.bench.ts runs
 *    it), a server warmed by 5 batches, then batches of titles new to the process (cold key cache);
 *  - the engine alone, warm cache, from the esbuild bundle the batch-screen function ships: titles per CPU second;
 *  - DynamoDB work: keys the screening asks the MarkStore for (its lookup wrapped here), BatchGetItem calls, keys
 *    requested and items returned (counted at the SDK), the DynamoDB size of every key item returned, the read
 *    request units those reads cost and their on-demand price;
 *  - the process's RSS (and DynamoDB Local's) after the load and after the measurements.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClients } from '../../shared/adapters/aws/dynamodb-client';
import { buildDataStores } from '../../shared/composition/data-stores';
import { buildDependencies } from '../../shared/composition/metering';
import { loadConfig } from '../../shared/config';
import { buildApiHandler } from '../../shared/http/api-handler';
import { issueApiKey, openAccount } from '../../shared/metering/accounts';
import type { MarkStore } from '../../shared/ports';
import { refileKeys } from '../../shared/ingest/refile-keys';
import { lookupKeysOfRecord } from '../../shared/marks/lookup-keys';
import { createScreeningService } from '../../shared/screening/screening-service';
import { batchScreenOperation } from '../../functions/batch-screen/handler';
import { ROUTES } from '../../functions/routes';
import { handler as notFound } from '../../functions/not-found/handler';
import { createTables } from '../../local/create-tables';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../local/dynamodb-local';
import { localEnvironment } from '../../local/local-config';
import { loadSampleCorpus } from '../../local/sample-corpus';
import { createLocalApp, listen } from '../../local/server';
import {
  bundledScreeningService,
  marksIngestArguments,
  timedBatchScreen,
  engineRates,
  newTitleRate,
  folderBytes,
  machineLine,
  percentile,
  realTitles,
  rssOf,
  cpuSecondsOf,
} from './bench-support';

const ROOT = path.join(__dirname, '../..');
const DATA_ROOT = process.env.REGISTER_BENCH_DIR || '/work/register-bench';
const STAGE_ROOT = process.env.REGISTER_BENCH_STAGE_DIR ?? '/dev/shm';
const TABLE_PREFIX = 'tmk-regbench';
const MARKER = 'register-loaded.json';
/**
 * DynamoDB on-demand, us-east-1: USD per million read request units, an assumption: the rate since AWS halved
 * on-demand throughput prices in November 2024, as a third-party page quotes it
 * (https://airbyte.com/data-engineering-resources/dynamodb-pricing). AWS's page
 * (https://aws.amazon.com/dynamodb/pricing/on-demand/) defines the units; its rate was not at hand.
 */
const USD_PER_MILLION_RRU = 0.125;
const n = (x: number) => Math.round(x).toLocaleString('en');
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** `--register FILE` (or `none`) in the bench's arguments; undefined when not given. */
export function registerArgument(argv: readonly string[]): string | undefined {
  const at = argv.indexOf('--register');
  if (at < 0) return undefined;
  const value = argv[at + 1];
  if (!value || value.startsWith('--'))
    throw new Error('--register needs a marks-jsonl file, or `none` for the sample corpus alone');
  return value;
}

function countLines(file: string): number {
  const fd = openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(16 * 2 ** 20);
  let lines = 0;
  let last = 10;
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      for (let i = buffer.indexOf(10, 0); i >= 0 && i < read; i = buffer.indexOf(10, i + 1)) lines++;
      last = buffer[read - 1]!;
    }
  } finally {
    closeSync(fd);
  }
  return last === 10 ? lines : lines + 1;
}

/** The bench for `--register`: its BENCHMARKS.md title (with the register's size) and the measurement. */
export function registerScaleBench(register: string): [string, () => Promise<string>] {
  if (register === 'none')
    return ['Batch screening at register scale: sample corpus only', () => benchRegisterScale(undefined)];
  const file = path.resolve(register);
  if (!existsSync(file)) throw new Error(`--register: no file ${file}`);
  const marks = countLines(file);
  return [
    `Batch screening at register scale: ${n(marks)} US marks`,
    () => benchRegisterScale({ file, marks, command: `npm run bench -- screening --register ${register}` }),
  ];
}

interface RegisterFile {
  file: string;
  marks: number;
  command: string;
}

interface LoadedMarker {
  file: string;
  bytes: number;
  mtimeMs: number;
  marks: number;
  batchDate: string;
  ingestSeconds: number;
  ingestLine: string;
  sampleSeconds: number;
  stagedOn: string;
  loadedAt: string;
  /** The keys its marks are filed under (keyLayout); absent: loaded before the bench recorded it. */
  keyLayout?: string;
  /** How the database was last filed again under this code's keys (refile-keys), when it was. */
  refileLine?: string;
}

/** DynamoDB Local's Java heap: a fresh load of a million marks needs about 4 GB (1 GB fails at its last key writes). */
const heapMbFor = (register: RegisterFile | undefined) => Math.max(1024, Math.ceil((register?.marks ?? 0) / 250));

/**
 * What this code files marks under, as a short fingerprint: the keys lookupKeysOfRecord gives a few marks that
 * cover every kind of key. A database loaded with other keys is filed again (refile-keys), as a deployed store is.
 */
function keyLayout(): string {
  const probes = [
    { markText: 'Nike', statusCategory: 'registered' },
    { markText: 'Adidas', statusCategory: 'registered', owner: 'adidas AG' },
    { markText: 'Stanley', statusCategory: 'pending' },
    { markText: 'Starbucks Coffee', statusCategory: 'registered' },
    { markText: 'Blackberry', statusCategory: 'dead' },
    { markText: '耐克 NIKE', statusCategory: 'registered', transliteration: 'naike' },
  ] as const;
  const keys = probes.map((probe) => lookupKeysOfRecord(probe));
  return createHash('sha256').update(JSON.stringify(keys)).digest('hex').slice(0, 12);
}

/**
 * Files a database loaded with other keys under this code's (shared/ingest/refile-keys.ts, as
 * `npm run ingest -- refile-keys` does for a deployed store): on tmpfs when STAGE_ROOT is set, then moved back.
 */
async function refileDatabase(dir: string, heapMb: number, log: (line: string) => void): Promise<string> {
  const stage = STAGE_ROOT ? mkdtempSync(path.join(STAGE_ROOT, 'tmk-regbench-')) : dir;
  if (stage !== dir) for (const entry of readdirSync(dir)) copyFileSync(path.join(dir, entry), path.join(stage, entry));
  const engine = await startDynamoDbLocal({ dbPath: stage, timeoutMs: 120_000, heapMb });
  let line: string;
  try {
    const summary = await refileKeys(storesAt(engine.endpoint), {
      market: 'US',
      holder: `register-bench:${process.pid}`,
      onProgress: (p) => {
        if (p.read % 100_000 < 4_000) log(`  refile: read ${n(p.read)}, refiled ${n(p.refiled)}`);
      },
    });
    line = `${n(summary.read)} marks read, ${n(summary.refiled)} filed again in ${summary.seconds.toFixed(0)} s`;
    log(`refiled: ${line}`);
  } finally {
    await engine.stop();
  }
  if (stage !== dir) moveFolderContents(stage, dir);
  return line;
}

function moveFolderContents(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) copyFileSync(path.join(from, entry), path.join(to, entry));
  rmSync(from, { recursive: true, force: true });
}

/** `npm run ingest -- marks-jsonl FILE` against the tables of `endpoint`, in its own process; its summary line. */
async function ingestRegister(file: string, endpoint: string, batchDate: string, rejects: string): Promise<string> {
  const env = { ...process.env, ...localEnvironment({ dynamoDbEndpoint: endpoint, tablePrefix: TABLE_PREFIX }) };
  const child = spawn(process.execPath, marksIngestArguments(file, batchDate, rejects), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    out += text;
    process.stderr.write(text);
  });
  const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
  const summary = out.split('\n').find((line) => line.startsWith('Complete:') || line.startsWith('NOT complete'));
  if (code !== 0 || !summary?.startsWith('Complete:'))
    throw new Error(`register ingest failed (exit ${code}): ${summary ?? out.slice(-2000)}`);
  return summary;
}

function storesAt(endpoint: string) {
  return buildDataStores(
    loadConfig(localEnvironment({ dynamoDbEndpoint: endpoint, tablePrefix: TABLE_PREFIX, envName: 'test' })),
  );
}

/**
 * DynamoDB Local from its folder under DATA_ROOT with the register and then the sample corpus in: reused when the
 * folder's marker names the same file (size and mtime), otherwise loaded afresh (on tmpfs when STAGE_ROOT is set,
 * then moved here). Without a register the folder holds the sample corpus alone and is loaded afresh every run.
 */
async function openRegisterDatabase(
  register: RegisterFile | undefined,
  log: (line: string) => void,
): Promise<{ engine: DynamoDbLocal; dir: string; marker: LoadedMarker; reused: boolean }> {
  mkdirSync(DATA_ROOT, { recursive: true });
  const stat = register ? statSync(register.file) : undefined;
  const dir = path.join(
    DATA_ROOT,
    register && stat ? `${path.basename(register.file)}-${stat.size}-${Math.floor(stat.mtimeMs)}` : 'sample-only',
  );
  const markerFile = path.join(dir, MARKER);
  const heapMb = heapMbFor(register);
  if (register && stat && existsSync(markerFile)) {
    const marker = JSON.parse(readFileSync(markerFile, 'utf8')) as LoadedMarker;
    if (marker.bytes === stat.size && marker.mtimeMs === stat.mtimeMs && marker.file === register.file) {
      log(`reusing ${dir} (loaded ${marker.loadedAt})`);
      if (marker.keyLayout !== keyLayout()) {
        log(`its marks are filed under other keys (${marker.keyLayout ?? 'unrecorded'}): refile-keys`);
        marker.refileLine = await refileDatabase(dir, heapMb, log);
        marker.keyLayout = keyLayout();
        writeFileSync(markerFile, JSON.stringify(marker, null, 2));
      }
      return {
        engine: await startDynamoDbLocal({ dbPath: dir, timeoutMs: 120_000, heapMb }),
        dir,
        marker,
        reused: true,
      };
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const stage = STAGE_ROOT ? mkdtempSync(path.join(STAGE_ROOT, 'tmk-regbench-')) : dir;
  mkdirSync(stage, { recursive: true });
  const batchDate = new Date(stat?.mtimeMs ?? Date.now()).toISOString().slice(0, 10);
  let engine = await startDynamoDbLocal({ dbPath: stage, heapMb });
  try {
    const { raw } = createDynamoDbClients({ region: 'us-east-1', endpoint: engine.endpoint });
    await createTables(raw, TABLE_PREFIX);
    raw.destroy();
    let ingestLine = '';
    let ingestSeconds = 0;
    if (register) {
      log(`ingesting ${register.file} (${n(register.marks)} marks) into ${stage}`);
      const t0 = performance.now();
      ingestLine = await ingestRegister(
        register.file,
        engine.endpoint,
        batchDate,
        path.join(DATA_ROOT, `${path.basename(dir)}.rejects.jsonl`),
      );
      ingestSeconds = (performance.now() - t0) / 1000;
    }
    const t1 = performance.now();
    await loadSampleCorpus(storesAt(engine.endpoint));
    const sampleSeconds = (performance.now() - t1) / 1000;
    log(`sample corpus in ${sampleSeconds.toFixed(1)} s`);
    if (stage !== dir) {
      await engine.stop();
      moveFolderContents(stage, dir);
      engine = await startDynamoDbLocal({ dbPath: dir, timeoutMs: 120_000, heapMb });
    }
    const marker: LoadedMarker = {
      file: register?.file ?? '',
      bytes: stat?.size ?? 0,
      mtimeMs: stat?.mtimeMs ?? 0,
      marks: register?.marks ?? 0,
      batchDate,
      ingestSeconds,
      ingestLine,
      sampleSeconds,
      stagedOn: stage === dir ? 'disk' : `tmpfs (${STAGE_ROOT})`,
      loadedAt: new Date().toISOString(),
      keyLayout: keyLayout(),
    };
    writeFileSync(markerFile, JSON.stringify(marker, null, 2));
    return { engine, dir, marker, reused: false };
  } catch (error) {
    await engine.stop();
    if (stage !== dir) rmSync(stage, { recursive: true, force: true });
    throw error;
  }
}

/** DynamoDB's size of an item as the document client gives it (developer guide, "Item sizes and formats"). */
function valueSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'bigint') {
    const digits = String(value).replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
    return Math.ceil(Math.max(1, digits.length) / 2) + 1;
  }
  if (typeof value === 'boolean' || value === null || value === undefined) return 1;
  if (value instanceof Uint8Array) return value.length;
  if (value instanceof Set) return [...value].reduce((sum: number, v) => sum + valueSize(v), 0);
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, v) => sum + 1 + valueSize(v), 0);
  if (typeof value === 'object')
    return 3 + Object.entries(value).reduce((sum, [k, v]) => sum + 1 + Buffer.byteLength(k) + valueSize(v), 0);
  return 0;
}

function itemSize(item: Record<string, unknown>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += Buffer.byteLength(name) + valueSize(value);
  return size;
}

/** What the screening asked of DynamoDB, counted at the SDK (mark-keys reads) and at the MarkStore. */
class ReadCounter {
  calls = new Map<string, number>();
  batchGets = 0;
  keysRequested = 0;
  itemsReturned = 0;
  consistentKeys = 0;
  /** Read request units by DynamoDB's rule: each item rounded up to 4 KB, an absent one billed as one unit. */
  rru = 0;
  consumedReported = 0;
  itemSizes: number[] = [];
  lookupCalls = 0;
  lookupKeys = 0;
  lookupFound = 0;

  constructor(private readonly markKeysTable: string) {}

  attach(raw: DynamoDBClient): void {
    raw.middlewareStack.add(
      (next, context) => async (args) => {
        const name = context.commandName ?? 'unknown';
        this.calls.set(name, (this.calls.get(name) ?? 0) + 1);
        if (name !== 'BatchGetItemCommand') return next(args);
        const input = args.input as {
          RequestItems?: Record<string, { Keys?: unknown[]; ConsistentRead?: boolean }>;
          ReturnConsumedCapacity?: string;
        };
        const request = input.RequestItems?.[this.markKeysTable];
        const result = await next({ ...args, input: { ...input, ReturnConsumedCapacity: 'TOTAL' } });
        if (!request) return result;
        const output = result.output as {
          Responses?: Record<string, Record<string, unknown>[]>;
          UnprocessedKeys?: Record<string, { Keys?: unknown[] }>;
          ConsumedCapacity?: { TableName?: string; CapacityUnits?: number }[];
        };
        const items = output.Responses?.[this.markKeysTable] ?? [];
        const requested =
          (request.Keys?.length ?? 0) - (output.UnprocessedKeys?.[this.markKeysTable]?.Keys?.length ?? 0);
        const unit = request.ConsistentRead ? 1 : 0.5;
        this.batchGets++;
        this.keysRequested += requested;
        if (request.ConsistentRead) this.consistentKeys += requested;
        this.itemsReturned += items.length;
        for (const item of items) {
          const size = itemSize(item);
          this.itemSizes.push(size);
          this.rru += unit * Math.max(1, Math.ceil(size / 4096));
        }
        this.rru += unit * Math.max(0, requested - items.length);
        for (const c of output.ConsumedCapacity ?? [])
          if (c.TableName === this.markKeysTable) this.consumedReported += c.CapacityUnits ?? 0;
        return result;
      },
      { step: 'initialize', name: 'countScreeningReads' },
    );
  }

  /** The MarkStore with its `lookup` counted (keys asked for, keys found); everything else as it is. */
  wrap(marks: MarkStore): MarkStore {
    const counted = Object.create(marks) as MarkStore;
    counted.lookup = async (market, keys) => {
      this.lookupCalls++;
      this.lookupKeys += keys.length;
      const found = await marks.lookup(market, keys);
      this.lookupFound += found.size;
      return found;
    };
    return counted;
  }

  snapshot() {
    return {
      batchGets: this.batchGets,
      keysRequested: this.keysRequested,
      itemsReturned: this.itemsReturned,
      consistentKeys: this.consistentKeys,
      rru: this.rru,
      consumedReported: this.consumedReported,
      lookupCalls: this.lookupCalls,
      lookupKeys: this.lookupKeys,
      lookupFound: this.lookupFound,
      sizes: this.itemSizes.length,
    };
  }
}

type Snapshot = ReturnType<ReadCounter['snapshot']>;
function since(a: Snapshot, b: Snapshot): Snapshot {
  return Object.fromEntries(Object.entries(b).map(([k, v]) => [k, v - a[k as keyof Snapshot]])) as Snapshot;
}

function sizeSummary(sizes: readonly number[]): string {
  if (sizes.length === 0) return 'no key items returned';
  const sorted = [...sizes].sort((a, b) => a - b);
  const over4k = sorted.filter((s) => s > 4096).length;
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return `${n(sorted.length)} items: mean ${n(mean)} B, p50 ${n(percentile(sorted, 50))} B, p99 ${n(percentile(sorted, 99))} B, largest ${n(sorted.at(-1)!)} B; ${over4k} over 4 KB (${((100 * over4k) / sorted.length).toFixed(2)}%)`;
}

async function benchRegisterScale(register: RegisterFile | undefined): Promise<string> {
  const log = (line: string) => process.stderr.write(`[register-scale] ${line}\n`);
  const started = performance.now();
  const { engine, dir, marker, reused } = await openRegisterDatabase(register, log);
  try {
    const env = {
      ...localEnvironment({ dynamoDbEndpoint: engine.endpoint, tablePrefix: TABLE_PREFIX, envName: 'test' }),
      LOGO_INDEX_DIR: mkdtempSync(path.join(os.tmpdir(), 'logo-indexes-')),
    };
    const config = loadConfig(env);
    const loadSeconds = (performance.now() - started) / 1000;
    const rssAfterLoad = process.memoryUsage().rss;
    const javaRssAfterLoad = rssOf(engine.pid);
    log(`ready in ${loadSeconds.toFixed(1)} s`);
    const titles = realTitles();

    // Every read of the screening goes through one counted client.
    const counter = new ReadCounter(config.tables['mark-keys']);
    const { raw, doc } = createDynamoDbClients({ region: 'us-east-1', endpoint: engine.endpoint });
    counter.attach(raw);
    const counted = () => {
      const stores = buildDataStores(config, doc);
      return { ...stores, marks: counter.wrap(stores.marks) };
    };

    // A brand-new service per 1,000-title batch: a cold instance's first batch, nothing cached.
    const coldBatches: Snapshot[] = [];
    for (let i = 0; i + 1000 <= Math.min(titles.length, 5000); i += 1000) {
      const service = createScreeningService(counted());
      const before = counter.snapshot();
      await service.screen(
        titles.slice(i, i + 1000).map((title) => ({ title })),
        {},
      );
      coldBatches.push(since(before, counter.snapshot()));
    }

    // End to end over HTTP: the service behind the real chain with the default refresh (a cached key is trusted 4 s).
    const deps = buildDependencies(config);
    const screening = createScreeningService(counted());
    const handler = buildApiHandler(batchScreenOperation(screening), deps);
    const server = await listen(
      createLocalApp({
        routes: ROUTES.filter((r) => r.functionName === 'batch-screen').map((r) => ({ ...r, handler })),
        fallback: notFound,
      }),
      { port: 0 },
    );
    const now = new Date();
    const account = await openAccount(deps, {
      name: 'register-scale bench',
      tier: 'professional',
      points: 10_000_000,
      rateLimit: 100_000,
      now,
    });
    const { apiKey } = await issueApiKey(deps.accounts, { accountId: account.accountId, envName: 'test', now });
    const post = (batch: readonly string[]) => timedBatchScreen(server.url, apiKey, batch);
    const firstBatches: number[] = [];
    for (let i = 0; i < 5000; i += 1000) firstBatches.push(await post(titles.slice(i, i + 1000)));
    const warmedBefore = counter.snapshot();
    const callsBefore = new Map(counter.calls);
    const newTitleBatches: number[] = [];
    // Where the time of those batches goes: this process (the server and the client sending the batches), and
    // DynamoDB Local's Java process answering the reads.
    const nodeCpu0 = process.cpuUsage();
    const javaCpu0 = cpuSecondsOf(engine.pid);
    for (let i = 5000; i + 1000 <= titles.length; i += 1000)
      newTitleBatches.push(await post(titles.slice(i, i + 1000)));
    const nodeCpu = process.cpuUsage(nodeCpu0);
    const nodeCpuMs = (nodeCpu.user + nodeCpu.system) / 1000 / newTitleBatches.length;
    const javaCpuMs = ((cpuSecondsOf(engine.pid) - javaCpu0) * 1000) / newTitleBatches.length;
    const warmed = since(warmedBefore, counter.snapshot());
    const warmedTitles = newTitleBatches.length * 1000;
    const otherCalls = [...counter.calls]
      .map(([name, count]) => [name, count - (callsBefore.get(name) ?? 0)] as const)
      .filter(([name, count]) => name !== 'BatchGetItemCommand' && count > 0)
      .map(([name, count]) => `${name.replace(/Command$/, '')} ${count}`)
      .join(', ');
    await server.close();
    const rssAfterHttp = process.memoryUsage().rss;

    // The engine alone, warm cache, from the bundle (screening.bench.ts's measure).
    const bundled = (await bundledScreeningService('register-scale-bench')).createScreeningService(
      buildDataStores(config),
      {
        refreshMs: 3_600_000,
      },
    );
    const rates = await engineRates(bundled.screener, titles);
    const fresh = (await bundledScreeningService('register-scale-bench-fresh')).createScreeningService(
      buildDataStores(config),
      { refreshMs: 3_600_000 },
    );
    const newRate = await newTitleRate(fresh.screener, titles);
    const load = os.loadavg()[0]!.toFixed(1);
    const rssEnd = process.memoryUsage().rss;
    const heapEnd = process.memoryUsage().heapUsed;
    const javaRssEnd = rssOf(engine.pid);
    raw.destroy();

    const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
    const p = (xs: readonly number[], q: number) => percentile(sorted(xs), q).toFixed(0);
    const cold = coldBatches.reduce(
      (a, b) => Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v + b[k as keyof Snapshot]])) as Snapshot,
    );
    const coldTitles = coldBatches.length * 1000;
    const perTitle = (x: number, titlesCounted: number, digits = 2) => (x / titlesCounted).toFixed(digits);
    const rruPerMillion = (s: Snapshot, t: number) => (s.rru / t) * 1e6;
    const usd = (rru: number) => `$${((rru / 1e6) * USD_PER_MILLION_RRU).toFixed(3)}`;
    const workRow = (label: string, s: Snapshot, t: number) =>
      `| ${label} | ${perTitle(s.lookupKeys, t)} keys per title asked of the MarkStore (${perTitle(s.lookupFound, t)} found) in ${perTitle(s.lookupCalls * 1000, t, 1)} lookups per 1,000 titles; ${perTitle(s.batchGets * 1000, t, 1)} BatchGetItem calls per 1,000 titles, ${perTitle(s.keysRequested, t)} keys requested and ${perTitle(s.itemsReturned, t)} items returned per title${s.consistentKeys ? ` (${n(s.consistentKeys)} keys read consistently)` : ''} | ${n(rruPerMillion(s, t))} RRU per million titles${s.consumedReported ? ` (DynamoDB Local's ConsumedCapacity: ${n((s.consumedReported / t) * 1e6)})` : ''}; ${usd(rruPerMillion(s, t))} per million titles |`;

    const loaded = `written on ${marker.stagedOn}${marker.stagedOn === 'disk' ? '' : `, then moved to ${dir}`}`;
    const registerLine = register
      ? `Register: ${path.basename(register.file)}, ${n(register.marks)} US marks (builders/register-scale-corpus.ts), ingested with \`local/ingest-cli.ts marks-jsonl\` (${marker.ingestLine.replace(/^Complete: marks-jsonl /, '')}), then the sample corpus on top (${marker.sampleSeconds.toFixed(0)} s); ${reused ? `loaded ${marker.loadedAt.slice(0, 16)}Z (${loaded}) and reused by this run` : `loaded by this run (${loaded})`}.${marker.refileLine ? ` Loaded with earlier lookup keys and filed again under this code's (refile-keys: ${marker.refileLine}).` : ''}`
      : `Register: none; the sample corpus alone (${marker.sampleSeconds.toFixed(0)} s to load, ${loaded}), for the trend.`;
    return `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`${register?.command ?? 'npm run bench -- screening --register none'}\`.
${registerLine}
DynamoDB Local from disk: -dbPath ${dir} (${mib(folderBytes(dir))} on disk). Titles: ${n(titles.length)} real listing titles (test/fixtures/titles).

| measure | result | DynamoDB reads |
|---|---|---|
| 1,000-title batch over HTTP (auth, debit, screening), a warmed server, ${newTitleBatches.length} batches of titles new to the process (cold key cache, default 4 s refresh) | p50 ${p(newTitleBatches, 50)} ms, p95 ${p(newTitleBatches, 95)} ms, slowest ${p(newTitleBatches, 100)} ms | see the next rows |
| the same server's first ${firstBatches.length} batches | p50 ${p(firstBatches, 50)} ms, first ${firstBatches[0]!.toFixed(0)} ms | |
| CPU of the warmed-server batches, per batch | this process (server and client) ${nodeCpuMs.toFixed(0)} ms; DynamoDB Local (Java) ${javaCpuMs.toFixed(0)} ms | |
${workRow(`reads of the ${newTitleBatches.length} warmed-server batches (${n(warmedTitles)} titles)`, warmed, warmedTitles)}
${workRow(`reads of a brand-new service per batch (a cold instance's first batch; ${coldBatches.length} batches)`, cold, coldTitles)}
| per BatchGetItem call, warmed server | ${perTitle(warmed.keysRequested, Math.max(1, warmed.batchGets), 1)} keys requested, ${perTitle(warmed.itemsReturned, Math.max(1, warmed.batchGets), 1)} items returned | other calls during those batches: ${otherCalls || 'none'} |
| DynamoDB size of every key item returned (all runs above) | ${sizeSummary(counter.itemSizes)} | eventually consistent: 0.5 RRU per item per started 4 KB; an absent key is billed as an item |
| engine alone, warm cache, from the esbuild bundle the batch-screen function ships; median of 5 passes (slowest, fastest); machine load average ${load} on ${os.cpus().length} cores | ${n(rates.cpu[2]!)} titles per CPU second of the process (${n(rates.cpu[0]!)}, ${n(rates.cpu[4]!)}); ${n(rates.wall[2]!)} titles/s wall clock | none (all keys cached) |
| engine alone on titles new to it: a fresh copy of the bundle (its own model, tables and JIT state) given the first 5,000 titles, then the other ${n(titles.length - 5000)} each for the first time (key entries read from DynamoDB Local, counted in the CPU of this process only) | ${n(newRate)} titles per CPU second of the process | as a cold key cache reads |
| process RSS | after the load ${mib(rssAfterLoad)}; after the HTTP batches ${mib(rssAfterHttp)}; at the end ${mib(rssEnd)} (heap used ${mib(heapEnd)}) | DynamoDB Local (Java, -Xmx${heapMbFor(register)}m): ${mib(javaRssAfterLoad)} after the load, ${mib(javaRssEnd)} at the end |

Price: DynamoDB on-demand reads in us-east-1 taken as $${USD_PER_MILLION_RRU} per million read request units, an assumption (the rate after the November 2024 price cut as https://airbyte.com/data-engineering-resources/dynamodb-pricing quotes it; https://aws.amazon.com/dynamodb/pricing/on-demand/ defines the units, 0.5 RRU per eventually consistent read of up to 4 KB). The key filter, TRO list and data-date reads of each instance (every 4 s) are not per title and are not in the price (the key filter's reload is one read unit unless a batch has added keys: "Key filter reloads").
`;
  } finally {
    await engine.stop();
  }
}
