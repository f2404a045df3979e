/**
 * The data jobs in the stateless stack of prod (synthesised without bundles): the schedule, the backfile state
 * machine, the secrets, and each job function's exact permissions.
 */
import { DATA_JOB_DEFINITIONS } from '../../shared/data-jobs/jobs';
import {
  describeValue,
  functionLogicalId,
  grantsOf,
  onlyResource,
  resourcesOfType,
  synthEnvironment,
  type SynthesisedEnvironment,
} from './synth-environment';

let prod: SynthesisedEnvironment;
beforeAll(() => {
  prod = synthEnvironment('prod', { bundle: false });
});

const readWrite = [
  'dynamodb:BatchGetItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DeleteItem',
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:Query',
  'dynamodb:Scan',
  'dynamodb:UpdateItem',
];

it('the daily register job runs on its schedule, retried, with a dead-letter queue', () => {
  const schedules = resourcesOfType(prod.statelessJson, 'AWS::Scheduler::Schedule');
  const daily = schedules.find(
    ([, s]) => s.Properties!.ScheduleExpression === DATA_JOB_DEFINITIONS['uspto-daily'].schedule,
  );
  expect(daily).toBeDefined();
  const target = daily![1].Properties!.Target as Record<string, unknown>;
  expect(describeValue(prod, target.Arn)).toContain(functionLogicalId(prod.statelessJson, 'RegisterUpdate'));
  expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 7200 });
  expect(target.DeadLetterConfig).toBeDefined();
  expect(JSON.parse(String(target.Input))).toEqual({ job: 'uspto-daily' });
  expect(daily![1].Properties!.State).toBe('ENABLED');
});

it('the backfile lists, fetches, ingests the stored parts through a distributed map one at a time, and hands over', () => {
  const [, machine] = onlyResource(prod.statelessJson, 'AWS::StepFunctions::StateMachine', 'DataJobsBackfile');
  const definition = JSON.parse(describeValue(prod, machine.Properties!.DefinitionString)) as {
    StartAt: string;
    States: Record<string, Record<string, unknown>>;
  };
  expect(definition.StartAt).toBe('ListParts');
  const ingest = definition.States.IngestParts!;
  expect(ingest).toMatchObject({
    Type: 'Map',
    MaxConcurrency: 1,
    ItemReader: {
      Resource: expect.stringContaining(':states:::s3:listObjectsV2'),
      Parameters: { 'Prefix.$': '$.prefix' },
    },
    ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED' } },
    Next: 'HandOver',
  });
  // No failure tolerated (the default, 0): a register with a hole in it is not handed over.
  expect(ingest.ToleratedFailurePercentage ?? 0).toBe(0);
  expect(ingest.ToleratedFailureCount).toBeUndefined();
  expect(definition.States.FetchParts).toMatchObject({ Type: 'Map', MaxConcurrency: 4, Next: 'IngestParts' });
  expect(definition.States.HandOver).toMatchObject({ End: true });
  const ingestTask = (ingest.ItemProcessor as { States: Record<string, { Retry?: unknown[] }> }).States.IngestPart!;
  expect(ingestTask.Retry).toContainEqual(
    expect.objectContaining({ ErrorEquals: ['States.ALL'], MaxAttempts: 3, BackoffRate: 2, IntervalSeconds: 30 }),
  );
});

it('the TRO docket job runs on its schedule and reads only its own token', () => {
  const schedules = resourcesOfType(prod.statelessJson, 'AWS::Scheduler::Schedule');
  const docket = schedules.find(
    ([, s]) => s.Properties!.ScheduleExpression === DATA_JOB_DEFINITIONS['tro-docket'].schedule,
  );
  expect(describeValue(prod, (docket![1].Properties!.Target as { Arn: unknown }).Arn)).toContain(
    functionLogicalId(prod.statelessJson, 'TroDocket'),
  );
  const grants = grantsOf(prod, 'TroDocket');
  expect(Object.entries(grants).filter(([resource]) => resource.includes('Secret'))).toEqual([
    [expect.stringContaining('CourtListenerToken'), ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']],
  ]);
  expect(grants['table:tro-brands']).toEqual(readWrite);
  expect(grants['table:mark-keys']).not.toContain('dynamodb:PutItem');
  expect(Object.values(grants).flat()).not.toContain('s3:PutObject');
});

it('the sources keep their keys in Secrets Manager, never in the template', () => {
  const secrets = resourcesOfType(prod.statelessJson, 'AWS::SecretsManager::Secret');
  expect(secrets.map(([, s]) => s.Properties!.Name).sort()).toEqual([
    'tmk-prod/data-jobs/courtlistener-token',
    'tmk-prod/data-jobs/uspto-api-key',
  ]);
  for (const [, secret] of secrets) {
    expect(secret.Properties!.SecretString).toBeUndefined();
    expect(secret.DeletionPolicy).toBe('Retain');
  }
});

it('each job function may do exactly its work: its own secret, fetched/ in the batches bucket, the data tables', () => {
  for (const construct of ['RegisterUpdate', 'RegisterBackfile']) {
    const grants = grantsOf(prod, construct);
    const secretGrants = Object.entries(grants).filter(([resource]) => resource.includes('Secret'));
    expect(secretGrants).toEqual([
      [expect.stringContaining('UsptoApiKey'), ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']],
    ]);
    for (const table of ['marks', 'mark-keys', 'tro-brands', 'data-batches'])
      expect(grants[`table:${table}`]).toEqual(readWrite);
    for (const table of ['accounts', 'api-keys', 'usage', 'idempotency'])
      expect(grants[`table:${table}`]).toBeUndefined();
    const objectGrants = Object.entries(grants).filter(([, actions]) => actions.includes('s3:PutObject'));
    expect(objectGrants).toEqual([
      [expect.stringMatching(/fetched\/\*$/), ['s3:AbortMultipartUpload', 's3:GetObject', 's3:PutObject']],
    ]);
  }
});
