/**
 * `npm run ingest -- <kind> <path | s3://bucket/key> [options]`: one data batch into the tables of a running
 * `npm start`, or into deployed tables named in the environment (as for the admin CLI).
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
import { S3Client } from '@aws-sdk/client-s3';
import { createWriteStream, type WriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { S3BlobStore } from '../shared/adapters/aws/s3-blob-store';
import { FileSystemBlobStore } from '../shared/adapters/local/filesystem-blob-store';
import { buildLogoIngest } from '../shared/composition/logo-search';
import { ingestLogos } from '../shared/ingest/ingest-logos';
import { loadConfig } from '../shared/config';
import {
  BATCH_KINDS,
  type BatchKind,
  type IngestCounts,
  type IngestReject,
  type IngestStores,
  type IngestSummary,
} from '../shared/ingest/ingest-batch';
import { ingestBlob } from '../shared/ingest/ingest-blob';
import { refileKeys } from '../shared/ingest/refile-keys';
import { isCalendarDate, MARKETS, type Market } from '../shared/marks/mark-record';
import type { BlobStore } from '../shared/ports';
import { announcingStores } from './announcing-stores';
import { resolveEnvironment, targetEnvironment, type EnvironmentSource } from './target-environment';

const HELP = `Usage: npm run ingest -- <kind> <path | s3://bucket/key> [options]

kinds: ${BATCH_KINDS.join(', ')}   (.xml, .jsonl, .csv, each also .gz or inside a .zip)
       logos   a logo batch: the folder's logos.jsonl manifest (data/FORMATS.md), images beside it

       npm run ingest -- refile-keys [--market US|CN]
               no file: every stored mark of the market filed under the lookup keys this code gives (run once
               after deploying a change of keys; a second run changes nothing)

  --market US|CN         default US
  --batch-date YYYY-MM-DD  the data date; taken from a USPTO file name (apc261120.zip) when not given
  --source NAME          default: the file name
  --coverage FILE        the coverage record of a CN batch (JSON: country, source, partial, coverage_note)
  --rejects FILE         where rejected records go (JSON lines); default <file>.rejects.jsonl
  --quiet                no progress line

A batch is recorded complete only when every record was written or rejected; run it again to finish one that
was interrupted.`;

interface Location {
  blobs: BlobStore;
  key: string;
  name: string;
}

function locate(target: string, region: string): Location {
  const s3 = /^s3:\/\/([^/]+)\/(.+)$/.exec(target);
  if (s3) return { blobs: new S3BlobStore(new S3Client({ region }), s3[1]!), key: s3[2]!, name: path.basename(s3[2]!) };
  const absolute = path.resolve(target);
  return {
    blobs: new FileSystemBlobStore(path.dirname(absolute)),
    key: path.basename(absolute),
    name: path.basename(absolute),
  };
}

/** USPTO daily files are named apcYYMMDD: the date is in the name. */
export function batchDateFromName(name: string): string | undefined {
  const match = /apc(\d{2})(\d{2})(\d{2})/i.exec(name);
  if (!match) return undefined;
  const date = `20${match[1]}-${match[2]}-${match[3]}`;
  return isCalendarDate(date) ? date : undefined;
}

export async function runIngestCli(
  argv: string[],
  env: EnvironmentSource,
  out: (line: string) => void,
  stores?: IngestStores,
): Promise<IngestSummary | undefined> {
  const { values: o, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      market: { type: 'string' },
      'batch-date': { type: 'string' },
      source: { type: 'string' },
      coverage: { type: 'string' },
      rejects: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  const [kind, target] = positionals;
  if (o.help || !kind) {
    out(HELP);
    return undefined;
  }
  if (kind === 'refile-keys') return refileCli(o.market, env, out, stores);
  if (kind !== 'logos' && !(BATCH_KINDS as readonly string[]).includes(kind))
    throw new Error(`unknown kind "${kind}"; one of ${BATCH_KINDS.join(', ')}, logos`);
  if (!target) throw new Error('give the batch: a file path or s3://bucket/key');
  const market = (o.market ?? 'US') as Market;
  if (!(MARKETS as readonly string[]).includes(market)) throw new Error('--market must be US or CN');

  const resolved = resolveEnvironment(env);
  const config = loadConfig(resolved);
  const location = locate(target, config.region);
  const batchDate = o['batch-date'] ?? batchDateFromName(location.name);
  if (!batchDate || !isCalendarDate(batchDate))
    throw new Error('--batch-date YYYY-MM-DD is needed (the file name does not carry a date)');
  const coverage = o.coverage ? locate(o.coverage, config.region) : undefined;
  if (coverage && coverage.blobs.constructor !== location.blobs.constructor)
    throw new Error('--coverage must live where the batch does (both local, or both on S3)');

  const rejectsPath = o.rejects ?? `${location.name}.rejects.jsonl`;
  let rejects: WriteStream | undefined;
  const started = Date.now();
  const progress = progressReporter(started, o.quiet === true, out);

  // Given stores are used as they are; otherwise each completed batch is announced (to a running npm start: its
  // watched titles are re-screened).
  const writeTo = stores ?? announcingStores(config, resolved, out);
  const onReject = (r: IngestReject) => {
    rejects ??= createWriteStream(rejectsPath);
    rejects.write(`${JSON.stringify(r)}\n`);
  };
  const summary =
    kind === 'logos'
      ? await ingestLogos(buildLogoIngest(config, writeTo), {
          blobs: location.blobs,
          manifestKey: location.key,
          market,
          batchDate,
          source: o.source ?? location.name,
          holder: `${os.hostname()}:${process.pid}`,
          onReject,
          onProgress: (c) => progress({ ...c, unchanged: 0, stale: 0 }),
        })
      : await ingestBlob(writeTo, {
          blobs: location.blobs,
          key: location.key,
          kind: kind as BatchKind,
          market,
          batchDate,
          source: o.source ?? location.name,
          ...(coverage ? { coverageKey: coverage.key } : {}),
          holder: `${os.hostname()}:${process.pid}`,
          onProgress: progress,
          onReject,
        });
  if (rejects) await new Promise<void>((resolve) => rejects!.end(resolve));
  if (!o.quiet && process.stdout.isTTY) process.stdout.write('\n');

  const seconds = (Date.now() - started) / 1000;
  if (summary.refused) {
    out(`Refused: ${kind} ${location.name} (${market}, data as of ${batchDate}): ${summary.refused}`);
    return summary;
  }
  out(
    `${summary.complete ? 'Complete' : 'NOT complete'}: ${kind} ${location.name} (${market}, data as of ${batchDate}) in ${seconds.toFixed(1)} s: ` +
      `${summary.read} read, ${summary.written} written, ${summary.unchanged} unchanged, ${summary.stale} stale, ${summary.rejected} rejected` +
      (summary.rejected ? ` (see ${rejectsPath})` : ''),
  );
  if (summary.failure)
    out(
      `Stopped by: ${summary.failure}\nFix the cause and run the same command again: written records are kept, the rest is written then.`,
    );
  return summary;
}

async function refileCli(
  marketOption: string | undefined,
  env: EnvironmentSource,
  out: (line: string) => void,
  stores: IngestStores | undefined,
): Promise<IngestSummary> {
  const market = (marketOption ?? 'US') as Market;
  if (!(MARKETS as readonly string[]).includes(market)) throw new Error('--market must be US or CN');
  const resolved = resolveEnvironment(env);
  const writeTo = stores ?? announcingStores(loadConfig(resolved), resolved, out);
  const summary = await refileKeys(writeTo, {
    market,
    holder: `${os.hostname()}:${process.pid}`,
    onProgress: (p) => out(`  read ${p.read.toLocaleString('en')}  refiled ${p.refiled.toLocaleString('en')}`),
  });
  out(
    `Complete: refile-keys (${market}) in ${summary.seconds.toFixed(1)} s: ${summary.read} marks read, ${summary.refiled} filed under their keys again`,
  );
  return {
    batchId: 'refile-keys',
    read: summary.read,
    written: summary.refiled,
    unchanged: summary.read - summary.refiled,
    stale: 0,
    rejected: 0,
    complete: true,
  };
}

if (require.main === module) {
  Promise.resolve()
    .then(() =>
      runIngestCli(
        process.argv.slice(2),
        () => targetEnvironment(),
        (line) => console.log(line),
      ),
    )
    .then((summary) => process.exit(summary && !summary.complete ? 1 : 0))
    .catch((error) => {
      console.error(`error: ${(error as Error).message}`);
      process.exit(1);
    });
}

/** Counts as they grow: one rewritten line on a terminal, a line every 5 s otherwise, nothing when quiet. */
function progressReporter(started: number, quiet: boolean, out: (line: string) => void): (c: IngestCounts) => void {
  let lastLine = 0;
  return (c) => {
    if (quiet) return;
    const rate = Math.round((c.read / Math.max(1, Date.now() - started)) * 1000);
    const line = `  read ${c.read.toLocaleString('en')}  written ${c.written.toLocaleString('en')}  unchanged ${c.unchanged.toLocaleString('en')}  stale ${c.stale}  rejected ${c.rejected}  (${rate.toLocaleString('en')} records/s)`;
    if (process.stdout.isTTY) process.stdout.write(`\r${line}`);
    else if (Date.now() - lastLine > 5000) {
      lastLine = Date.now();
      out(line);
    }
  };
}
