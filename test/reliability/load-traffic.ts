/**
 * Mixed traffic against a running server, with autocannon: 100-item batch screens and image searches from many
 * accounts at once, bounded in time and in request count. Every answer is recorded (request id, account, status,
 * error code, reported cost) so that the ledger audit can hold the tables to what the clients saw.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { issueApiKey, openAccount } from '../../shared/metering/accounts';
import type { ApiDependencies } from '../../shared/http/types';
import { percentile } from '../bench/bench-support';
import type { ObservedResponse } from '../support/ledger-audit';

const TITLES = path.join(__dirname, '../fixtures/titles/markup-amazon/titles.json');
const LOGOS = path.join(__dirname, '../../data/sample/logos/simple-icons');

export interface LoadAccount {
  accountId: string;
  apiKey: string;
  /** What the account is there to exercise: plenty of points, a small balance (402s), or a low rate limit (429s). */
  profile: 'plenty' | 'low-balance' | 'low-rate-limit';
}

export interface TrafficBodies {
  screens: string[];
  images: string[];
}

export interface LoadOptions {
  url: string;
  accounts: readonly LoadAccount[];
  bodies: TrafficBodies;
  /** Share of image searches in the mix (0 to 1). */
  imageShare: number;
  connections: number;
  durationSeconds: number;
  maxRequests: number;
  /** Per-request client timeout. */
  timeoutSeconds?: number;
  /** A progress bar on stderr. */
  progress?: boolean;
}

export interface LoadSummary {
  requests: number;
  durationSeconds: number;
  throughput: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  byStatus: Record<string, number>;
  byCode: Record<string, number>;
  byOperation: Record<string, number>;
  transportErrors: number;
  timeouts: number;
}

/** 100-item batch-screen bodies cut from the labelled listing titles, and PNG logos of a few sample marks. */
export async function trafficBodies(options: { screens?: number; images?: number } = {}): Promise<TrafficBodies> {
  const titles = Object.values(JSON.parse(readFileSync(TITLES, 'utf8')) as Record<string, string>).filter(
    (t) => t.trim() !== '',
  );
  const screens: string[] = [];
  for (let i = 0; i < (options.screens ?? 20); i++) {
    const items = Array.from({ length: 100 }, (_, j) => ({
      title: titles[(i * 100 + j) % titles.length]!.slice(0, 500),
    }));
    screens.push(JSON.stringify({ items }));
  }
  const files = ['nike.svg', 'adidas.svg', 'apple.svg', '3m.svg', 'acer.svg', 'puma.svg', 'samsung.svg', 'intel.svg'];
  const images: string[] = [];
  for (const file of files.slice(0, options.images ?? files.length)) {
    let svg: Buffer;
    try {
      svg = readFileSync(path.join(LOGOS, file));
    } catch {
      continue;
    }
    const png = await sharp(svg, { density: 300 })
      .resize(256, 256, { fit: 'contain', background: '#ffffff' })
      .flatten({ background: '#ffffff' })
      .png()
      .toBuffer();
    images.push(JSON.stringify({ image_b64: png.toString('base64'), limit: 10 }));
  }
  if (images.length === 0) throw new Error(`no sample logo found in ${LOGOS}`);
  return { screens, images };
}

/**
 * Accounts for a run: most with plenty of points; a few that run out (402s) and a few with a low rate limit
 * (429s), so that refusals happen under load too.
 */
export async function openLoadAccounts(
  deps: Pick<ApiDependencies, 'accounts' | 'ledger'>,
  count: number,
  options: { plentyPoints?: number; now?: Date } = {},
): Promise<LoadAccount[]> {
  const now = options.now ?? new Date();
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const profile: LoadAccount['profile'] = i % 10 === 3 ? 'low-balance' : i % 10 === 7 ? 'low-rate-limit' : 'plenty';
      const account = await openAccount(deps, {
        name: `load ${i}`,
        tier: 'professional',
        points: profile === 'low-balance' ? 250 : (options.plentyPoints ?? 10_000_000),
        rateLimit: profile === 'low-rate-limit' ? 1 : 100_000,
        now,
      });
      const key = await issueApiKey(deps.accounts, { accountId: account.accountId, envName: 'load', now });
      return { accountId: account.accountId, apiKey: key.apiKey, profile };
    }),
  );
}

interface RequestContext {
  accountId?: string;
  operation?: string;
  sentAt?: number;
}

export async function runMixedLoad(
  options: LoadOptions,
): Promise<{ summary: LoadSummary; observations: ObservedResponse[] }> {
  const observations: ObservedResponse[] = [];
  const byOperation: Record<string, number> = {};
  // Accounts with a low rate limit come round more often, so that they pass it.
  const rotation = options.accounts.flatMap((account) =>
    account.profile === 'low-rate-limit' ? [account, account, account, account] : [account],
  );
  let turn = 0;
  let random = 0x2545f491;
  const nextRandom = () => {
    // xorshift: a repeatable mix from run to run.
    random ^= random << 13;
    random ^= random >>> 17;
    random ^= random << 5;
    return (random >>> 0) / 2 ** 32;
  };

  // autocannon ends a run at `amount` or at `duration` (not at whichever comes first), and aborts what is in flight.
  // An aborted request may still be charged, with its answer lost to the audit. So at the time or count bound the
  // run drains instead: connections switch to an unmetered request (an unknown path: 404, nothing charged) and
  // the run stops once every metered request sent has been answered (or has timed out).
  const startedAt = performance.now();
  let draining = false;
  let issued = 0;
  let settled = 0;
  const latencies: number[] = [];
  const shouldDrain = () => {
    draining ||=
      observations.length >= options.maxRequests || performance.now() - startedAt >= options.durationSeconds * 1000;
    return draining;
  };
  const settle = () => {
    settled++;
    if (draining && settled >= issued) instance.stop();
  };

  let finish!: (outcome: { error?: unknown; result?: autocannon.Result }) => void;
  const finished = new Promise<{ error?: unknown; result?: autocannon.Result }>((resolve) => (finish = resolve));
  const instance: autocannon.Instance = autocannon(
    {
      url: options.url,
      connections: options.connections,
      // A safety bound only; the drain above ends the run.
      duration: options.durationSeconds + 2 * (options.timeoutSeconds ?? 20) + 10,
      timeout: options.timeoutSeconds ?? 20,
      requests: [
        {
          method: 'POST',
          setupRequest: (request: autocannon.Request, state: object): autocannon.Request => {
            const context = state as RequestContext;
            if (shouldDrain()) {
              context.operation = 'drain';
              if (settled >= issued) setImmediate(() => instance.stop());
              return { ...request, method: 'GET', path: '/v1/load-drain', headers: {}, body: undefined };
            }
            issued++;
            const account = rotation[turn++ % rotation.length]!;
            const image = nextRandom() < options.imageShare;
            const bodies = image ? options.bodies.images : options.bodies.screens;
            context.accountId = account.accountId;
            context.operation = image ? 'image-search' : 'batch-screen';
            context.sentAt = performance.now();
            return {
              ...request,
              method: 'POST',
              path: image ? '/v1/image-search' : '/v1/batch-screen',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${account.apiKey}` },
              body: bodies[Math.floor(nextRandom() * bodies.length)],
            };
          },
          onResponse: (status: number, body: string, state: object, headers: autocannon.Request['headers']) => {
            const context = state as RequestContext;
            if (context.operation === 'drain' || context.operation === undefined) return;
            const header = (name: string) => {
              const value = headers?.[name] ?? headers?.[name.toLowerCase()];
              return Array.isArray(value) ? value[0] : value;
            };
            latencies.push(performance.now() - context.sentAt!);
            byOperation[context.operation] = (byOperation[context.operation] ?? 0) + 1;
            observations.push({
              requestId: header('x-request-id'),
              accountId: context.accountId ?? '?',
              status,
              points: status >= 200 && status < 300 ? Number(header('x-points-cost') ?? 0) : 0,
              ...(status >= 400 ? { code: errorCodeOf(body) } : {}),
            });
            settle();
          },
        },
      ],
    },
    (error, result) => finish({ error, result }),
  );
  // Timeouts and transport errors come here too.
  instance.on('reqError', settle);
  if (options.progress)
    autocannon.track(instance, { renderResultsTable: false, renderLatencyTable: false, outputStream: process.stderr });
  const { error, result } = await finished;
  if (error || !result) throw error ?? new Error('the load run ended without a result');
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  latencies.sort((a, b) => a - b);

  const byStatus: Record<string, number> = {};
  const byCode: Record<string, number> = {};
  for (const o of observations) {
    byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
    if (o.code) byCode[o.code] = (byCode[o.code] ?? 0) + 1;
  }
  return {
    summary: {
      requests: observations.length,
      durationSeconds: elapsedSeconds,
      throughput: observations.length / elapsedSeconds,
      p50: Math.round(percentile(latencies, 50)),
      p90: Math.round(percentile(latencies, 90)),
      p99: Math.round(percentile(latencies, 99)),
      max: Math.round(latencies.at(-1) ?? Number.NaN),
      byStatus,
      byCode,
      byOperation,
      transportErrors: result.errors,
      timeouts: result.timeouts,
    },
    observations,
  };
}

function errorCodeOf(body: string): string {
  try {
    return String((JSON.parse(body) as { error?: { code?: unknown } }).error?.code ?? 'no_code');
  } catch {
    return 'not_json';
  }
}
