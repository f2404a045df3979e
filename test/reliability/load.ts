/**
 * `npm run load`: the service as `npm start` runs it (DynamoDB Local, the real handlers, the sample corpus), then
 * mixed traffic from many accounts at once, bounded in time and count; then the points audit of every account.
 * Prints the figures and writes them into RELIABILITY.md. Exits 1 when the audit finds any violation.
 *
 *   npm run load -- [--duration 30] [--requests 20000] [--accounts 50] [--connections 50] [--image-share 0.3]
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
// The functions' metrics lines (one per request) would drown the report.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { machineLine, writeSection } from '../bench/bench-support';
import { auditLedger, type AuditReport } from '../support/ledger-audit';
import { openLoadAccounts, runMixedLoad, trafficBodies, type LoadSummary } from './load-traffic';

const RELIABILITY = path.join(__dirname, '../../RELIABILITY.md');

function numberArg(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number; got "${value}"`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      requests: { type: 'string' },
      accounts: { type: 'string' },
      connections: { type: 'string' },
      'image-share': { type: 'string' },
      'no-write': { type: 'boolean' },
    },
  });
  const durationSeconds = numberArg(values.duration, 30, 'duration');
  const maxRequests = numberArg(values.requests, 20_000, 'requests');
  const accountCount = numberArg(values.accounts, 50, 'accounts');
  const connections = numberArg(values.connections, 50, 'connections');
  const imageShare = Math.min(1, numberArg(values['image-share'], 0.3, 'image-share'));

  console.error('Starting DynamoDB Local and the API, loading the sample corpus ...');
  const { startLocalService } = await import('../../local/local-service');
  const service = await startLocalService({
    port: 0,
    tablePrefix: 'load',
    logoIndexDir: mkdtempSync(path.join(os.tmpdir(), 'load-indexes-')),
  });
  try {
    await service.loadSamples();
    const { dependencies } = await import('../../shared/composition/metering');
    const deps = dependencies();
    const [accounts, bodies] = await Promise.all([openLoadAccounts(deps, accountCount), trafficBodies()]);

    console.error(
      `Load: ${connections} connections, ${accountCount} accounts, up to ${durationSeconds} s or ${maxRequests} requests ...`,
    );
    const { summary, observations } = await runMixedLoad({
      url: service.runtime.server.url,
      accounts,
      bodies,
      imageShare,
      connections,
      durationSeconds,
      maxRequests,
      progress: process.stderr.isTTY,
    });
    console.error('Auditing the tables ...');
    const audit = await auditLedger(
      deps,
      accounts.map((a) => a.accountId),
      observations,
    );

    const report = formatReport({
      summary,
      audit,
      accountCount,
      connections,
      durationSeconds,
      maxRequests,
      imageShare,
    });
    console.log(report);
    if (!values['no-write']) writeSection('Load: mixed traffic and the points audit', report, RELIABILITY);
    if (audit.violations.length > 0) {
      console.error(`\n${audit.violations.length} audit violations:\n${audit.violations.slice(0, 50).join('\n')}`);
      process.exitCode = 1;
    }
  } finally {
    await service.runtime.stop();
  }
}

function formatReport(run: {
  summary: LoadSummary;
  audit: AuditReport;
  accountCount: number;
  connections: number;
  durationSeconds: number;
  maxRequests: number;
  imageShare: number;
}): string {
  const { summary, audit } = run;
  const rows = (record: Record<string, number>) =>
    Object.entries(record)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`)
      .join(', ');
  return [
    `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}.`,
    `Command: \`npm run load -- --duration ${run.durationSeconds} --requests ${run.maxRequests} --accounts ${run.accountCount} --connections ${run.connections} --image-share ${run.imageShare}\``,
    '',
    'The local runtime (DynamoDB Local, the real handlers, the sample corpus) under autocannon: 100-item batch screens and',
    'image searches of 256x256 PNG logos, from every account in turn. One account in ten has 250 points (it runs out: 402),',
    'one in ten a limit of 1 request/s and four times the share of traffic (429).',
    '',
    '| figure | value |',
    '|---|---|',
    `| requests answered | ${summary.requests.toLocaleString('en-US')} in ${summary.durationSeconds.toFixed(1)} s |`,
    `| throughput | ${summary.throughput.toFixed(1)} requests/s |`,
    `| latency p50 / p90 / p99 / max | ${summary.p50} / ${summary.p90} / ${summary.p99} / ${summary.max} ms |`,
    `| by operation | ${rows(summary.byOperation)} |`,
    `| by status | ${rows(summary.byStatus)} |`,
    `| errors by code | ${rows(summary.byCode) || 'none'} |`,
    `| transport errors / client timeouts | ${summary.transportErrors} / ${summary.timeouts} |`,
    '',
    `Points audit over ${audit.accounts} accounts, read back from the tables: ${audit.chargeRecords.toLocaleString('en-US')} charge records`,
    `(${audit.refundedRecords} refunded), ${audit.pointsCharged.toLocaleString('en-US')} points charged.`,
    `Balance = credits - standing charges on every account; one charge per request; every standing charge matches a 2xx`,
    `answer with the same X-Points-Cost, and every costed 2xx answer has its charge. **Violations: ${audit.violations.length}.**`,
    '',
    'The machine bounds the throughput here, not the design. The whole local service is one Node process sharing the',
    "cores with DynamoDB Local's JVM, and every connection queues in that one process; in AWS each Lambda instance serves",
    "one request at a time. DynamoDB Local's own ceiling for the debit transaction alone is in BENCHMARKS.md.",
  ].join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
