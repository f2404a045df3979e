/**
 * The TRO docket Lambda handler on DynamoDB Local against the local CourtListener stand-in: configuration from the
 * environment, the token from Secrets Manager (its client answered in process: no AWS account here), the run's
 * outcome as CloudWatch metrics (EMF lines on stdout), the token in no output line, a failure recorded then thrown.
 */
import { type GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Context } from 'aws-lambda';
import { buildDataJobStore } from '../../../shared/composition/data-stores';
import type { DataJobStore } from '../../../shared/ports';
import { captureOutput, type CapturedOutput } from '../../support/captured-output';
import { startFakeCourtListener, type FakeCourtListener } from '../../support/fake-courtlistener';
import { createTestStack } from '../../support/test-stack';

const TOKEN = 'cl-handler-token-4e8b1f6a0c9d';
const SECRET_NAME = 'tmk-test/data-jobs/courtlistener-token';
const context = { awsRequestId: 'req-tro-docket-1', getRemainingTimeInMillis: () => 900_000 } as unknown as Context;

let fake: FakeCourtListener;
let jobs: DataJobStore;
let handler: (event: unknown, context: Context) => Promise<unknown>;
let output: CapturedOutput | undefined;
const savedEnv = { ...process.env };

/** The EMF metric lines written: each metric's name, value and dimensions. */
function metricLines(
  lines: readonly string[],
): { name: string; value: unknown; dimensions: Record<string, unknown> }[] {
  return lines.flatMap((line) => {
    if (!line.startsWith('{')) return [];
    const json = JSON.parse(line) as Record<string, unknown> & {
      _aws?: { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string }[] }[] };
    };
    const directive = json._aws?.CloudWatchMetrics[0];
    if (!directive) return [];
    const dimensions = Object.fromEntries(directive.Dimensions.flat().map((d) => [d, json[d]]));
    return directive.Metrics.map((m) => ({ name: m.Name, value: json[m.Name], dimensions }));
  });
}

beforeAll(async () => {
  const stack = await createTestStack();
  jobs = buildDataJobStore(stack.config);
  fake = await startFakeCourtListener(TOKEN);
  fake.dockets.push({
    docketId: 7001,
    caseName: 'Nobody Owns This Corp. v. The Partnerships and Unincorporated Associations Identified on Schedule A',
    docketNumber: '1:26-cv-20001',
    courtId: 'ilnd',
    dateFiled: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10),
    parties: [{ name: 'Nobody Owns This Corp.', types: ['Plaintiff'] }],
  });
  // Set before the handler's module loads: its logger is built then, its metrics on each run.
  Object.assign(process.env, stack.env, {
    POWERTOOLS_LOG_LEVEL: 'INFO',
    POWERTOOLS_METRICS_DISABLED: 'false',
    COURTLISTENER_SECRET_NAME: SECRET_NAME,
    COURTLISTENER_BASE_URL: fake.origin,
    COURTLISTENER_COURTS: 'ilnd',
    COURTLISTENER_MAX_CALLS: '10',
  });
  jest.spyOn(SecretsManagerClient.prototype, 'send').mockImplementation(async (command: unknown) => {
    const id = (command as GetSecretValueCommand).input.SecretId;
    if (id !== SECRET_NAME) throw new Error(`no secret ${id}`);
    return { SecretString: TOKEN };
  });
  ({ handler } = await import('../../../functions/tro-docket/handler'));
});

afterEach(() => {
  output?.restore();
  output = undefined;
});

afterAll(async () => {
  jest.restoreAllMocks();
  process.env = savedEnv;
  await fake.close();
});

it('runs the job with the token from Secrets Manager and counts a success', async () => {
  output = captureOutput();
  const summary = (await handler({ job: 'tro-docket' }, context)) as { outcome: string; counts: { newCases: number } };
  const lines = output.lines();
  output.restore();

  expect(summary).toMatchObject({ outcome: 'succeeded', counts: { newCases: 1 } });
  expect(fake.requests.every((r) => r.authorization === `Token ${TOKEN}`)).toBe(true);
  expect(metricLines(lines)).toEqual(
    expect.arrayContaining([
      { name: 'DataJobSucceeded', value: 1, dimensions: expect.objectContaining({ job: 'tro-docket' }) },
      {
        name: 'DataJobRuns',
        value: 1,
        dimensions: expect.objectContaining({ job: 'tro-docket', outcome: 'succeeded' }),
      },
    ]),
  );
  expect(lines.some((line) => line.includes('"tro docket"') && line.includes('plaintiffsUnmatched'))).toBe(true);
  expect(lines.filter((line) => line.includes(TOKEN))).toEqual([]);
  expect(await jobs.get('tro-docket')).toMatchObject({ lastOutcome: 'succeeded' });
});

it('a failed run is recorded, counted as failed, and thrown', async () => {
  fake.dockets.push({
    docketId: 7002,
    caseName: 'Spin Master Ltd. v. Does 1-X',
    docketNumber: '1:26-cv-20002',
    courtId: 'ilnd',
    dateFiled: new Date().toISOString().slice(0, 10),
    parties: [{ name: 'Spin Master Ltd.', types: ['Plaintiff'] }],
  });
  fake.failingPartiesOf = 7002;
  output = captureOutput();
  const error = await handler({ job: 'tro-docket' }, context).catch((e: unknown) => e);
  const lines = output.lines();
  output.restore();

  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toMatch(/^tro docket failed: ilnd: .* answered 500$/);
  const metrics = metricLines(lines);
  expect(metrics.filter((m) => m.name === 'DataJobSucceeded')).toEqual([]);
  expect(metrics).toContainEqual({
    name: 'DataJobRuns',
    value: 1,
    dimensions: expect.objectContaining({ job: 'tro-docket', outcome: 'failed' }),
  });
  expect(lines.filter((line) => line.includes(TOKEN))).toEqual([]);
  expect(await jobs.get('tro-docket')).toMatchObject({
    lastOutcome: 'failed',
    lastError: expect.stringContaining('answered 500'),
  });
});

it('without the secret name, the run is recorded failed and nothing is asked of CourtListener', async () => {
  delete process.env.COURTLISTENER_SECRET_NAME;
  const asked = fake.requests.length;
  output = captureOutput();
  const error = await handler({ job: 'tro-docket' }, context).catch((e: unknown) => e);
  const lines = output.lines();
  output.restore();

  expect((error as Error).message).toBe('COURTLISTENER_SECRET_NAME is not set');
  expect(fake.requests).toHaveLength(asked);
  expect(metricLines(lines)).toContainEqual({
    name: 'DataJobRuns',
    value: 1,
    dimensions: expect.objectContaining({ job: 'tro-docket', outcome: 'failed' }),
  });
  expect(await jobs.get('tro-docket')).toMatchObject({
    lastOutcome: 'failed',
    lastError: 'the CourtListener token: COURTLISTENER_SECRET_NAME is not set',
  });
});
