/**
 * Every environment synthesises (with real bundles), and the environments differ where they should: data
 * protection, retention, throttling, the CLIP endpoint where CLIP is asked for. The stateful stack builds every
 * table from the shared definitions.
 */
import { Match } from 'aws-cdk-lib/assertions';
import {
  ENVIRONMENT_NAMES,
  environmentConfig,
  ModelPackageError,
  modelPackageOf,
  UnknownEnvironmentError,
  type EnvironmentName,
} from '../../infra/config/environments';
import { NON_FILTERABLE_METADATA } from '../../infra/constructs/logo-vector-indexes';
import { TABLES } from '../../shared/tables/definitions';
import {
  functionLogicalId,
  onlyResource,
  resourcesOfType,
  synthEnvironment,
  tableIdOf,
  TEST_MODEL_PACKAGE_URI,
  CLIP_CREATED,
  type CfnResource,
  type SynthesisedEnvironment,
} from './synth-environment';

const envs = {} as Record<EnvironmentName, SynthesisedEnvironment>;

beforeAll(() => {
  for (const name of ENVIRONMENT_NAMES) envs[name] = synthEnvironment(name, { bundle: true });
});

describe('environments', () => {
  it.each(ENVIRONMENT_NAMES)('%s synthesises a stateful and a stateless stack named after it', (name) => {
    expect(envs[name].stacks.stateful.stackName).toBe(`tmk-${name}-stateful`);
    expect(envs[name].stacks.stateless.stackName).toBe(`tmk-${name}-stateless`);
    expect(resourcesOfType(envs[name].statelessJson, 'AWS::Lambda::Function').length).toBeGreaterThanOrEqual(4);
  });

  it('refuses an unknown environment with the list of known ones', () => {
    expect(() => environmentConfig('qa')).toThrow(UnknownEnvironmentError);
    expect(() => environmentConfig('qa')).toThrow('Unknown environment "qa". Choose one of: dev, staging, prod');
  });

  it('names nothing in the data stack physically but the indexes inside their generated vector bucket, so environments can share an account', () => {
    for (const name of ENVIRONMENT_NAMES) {
      const json = envs[name].statefulJson;
      for (const [, table] of resourcesOfType(json, 'AWS::DynamoDB::Table'))
        expect(table.Properties!.TableName).toBeUndefined();
      for (const [, bucket] of resourcesOfType(json, 'AWS::S3::Bucket'))
        expect(bucket.Properties!.BucketName).toBeUndefined();
      for (const [, bucket] of resourcesOfType(json, 'AWS::S3Vectors::VectorBucket'))
        expect(bucket.Properties!.VectorBucketName).toBeUndefined();
      const [bucketId] = onlyResource(json, 'AWS::S3Vectors::VectorBucket', 'LogoVectorsBucket');
      for (const [, index] of resourcesOfType(json, 'AWS::S3Vectors::Index'))
        expect(index.Properties!.VectorBucketArn).toEqual({ 'Fn::GetAtt': [bucketId, 'VectorBucketArn'] });
    }
  });

  it('prefixes the names it does set with the environment (alarms, dashboard, API)', () => {
    for (const name of ENVIRONMENT_NAMES) {
      const json = envs[name].statelessJson;
      for (const [, alarm] of resourcesOfType(json, 'AWS::CloudWatch::Alarm'))
        expect(alarm.Properties!.AlarmName).toMatch(new RegExp(`^tmk-${name}-`));
      envs[name].stateless.hasResourceProperties('AWS::CloudWatch::Dashboard', {
        DashboardName: `tmk-${name}-billing`,
      });
      envs[name].stateless.hasResourceProperties('AWS::ApiGateway::RestApi', { Name: `tmk-${name}-api` });
      envs[name].stateless.hasResourceProperties('AWS::WAFv2::WebACL', {
        Name: `tmk-${name}-api-waf`,
        Scope: 'REGIONAL',
      });
    }
  });
});

describe('tables (from shared/tables/definitions.ts)', () => {
  it('builds exactly one table per definition, on demand, with its keys, TTL and GSIs', () => {
    const tables = resourcesOfType(envs.dev.statefulJson, 'AWS::DynamoDB::Table');
    expect(tables.map(([, t]) => tableIdOf(t)).sort()).toEqual(TABLES.map((t) => t.id).sort());
    for (const definition of TABLES) {
      const [, table] = tables.find(([, t]) => tableIdOf(t) === definition.id)!;
      expect(table.Properties!.BillingMode).toBe('PAY_PER_REQUEST');
      expect(table.Properties!.KeySchema).toEqual([
        { AttributeName: definition.partitionKey.name, KeyType: 'HASH' },
        ...(definition.sortKey ? [{ AttributeName: definition.sortKey.name, KeyType: 'RANGE' }] : []),
      ]);
      expect(table.Properties!.TimeToLiveSpecification).toEqual(
        definition.timeToLiveAttribute ? { AttributeName: definition.timeToLiveAttribute, Enabled: true } : undefined,
      );
      expect(table.Properties!.GlobalSecondaryIndexes).toEqual(
        definition.globalSecondaryIndexes?.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
            ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' }] : []),
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      );
    }
  });

  it('prod: point-in-time recovery, deletion protection, retained on stack deletion', () => {
    for (const [, table] of resourcesOfType(envs.prod.statefulJson, 'AWS::DynamoDB::Table')) {
      expect(table.Properties!.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(table.Properties!.DeletionProtectionEnabled).toBe(true);
      expect([table.DeletionPolicy, table.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
    }
    expect(envs.prod.stacks.stateful.terminationProtection).toBe(true);
  });

  it.each(ENVIRONMENT_NAMES)('%s: point-in-time recovery on every money table (accounts, api-keys, usage)', (name) => {
    const money = resourcesOfType(envs[name].statefulJson, 'AWS::DynamoDB::Table').filter(([, t]) =>
      (t.Properties!.Tags as { Key: string; Value: string }[]).some(
        (tag) => tag.Key === 'tmk:table' && ['accounts', 'api-keys', 'usage'].includes(tag.Value),
      ),
    );
    expect(money).toHaveLength(3);
    for (const [, table] of money)
      expect(table.Properties!.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  });

  const isMoneyTable = (table: CfnResource) =>
    (table.Properties!.Tags as { Key: string; Value: string }[]).some(
      (tag) => tag.Key === 'tmk:table' && ['accounts', 'api-keys', 'usage'].includes(tag.Value),
    );

  it('dev: no point-in-time recovery on the data tables, no deletion protection, deleted with the stack', () => {
    for (const [, table] of resourcesOfType(envs.dev.statefulJson, 'AWS::DynamoDB::Table')) {
      if (!isMoneyTable(table))
        expect(table.Properties!.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: false });
      expect(table.Properties!.DeletionProtectionEnabled).toBe(false);
      expect([table.DeletionPolicy, table.UpdateReplacePolicy]).toEqual(['Delete', 'Delete']);
    }
    expect(envs.dev.stacks.stateful.terminationProtection).toBe(false);
  });

  it('staging: retained on stack deletion, without the cost of point-in-time recovery on the data tables', () => {
    for (const [, table] of resourcesOfType(envs.staging.statefulJson, 'AWS::DynamoDB::Table')) {
      if (!isMoneyTable(table))
        expect(table.Properties!.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: false });
      expect(table.DeletionPolicy).toBe('Retain');
    }
  });
});

describe('buckets', () => {
  it.each(ENVIRONMENT_NAMES)('%s: every bucket private, encrypted, TLS only', (name) => {
    const json = envs[name].statefulJson;
    const buckets = resourcesOfType(json, 'AWS::S3::Bucket');
    expect(buckets).toHaveLength(3);
    for (const [bucketId, bucket] of buckets) {
      expect(bucket.Properties!.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties!.BucketEncryption).toEqual({
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      });
      const policies = resourcesOfType(json, 'AWS::S3::BucketPolicy').filter(
        ([, p]) => (p.Properties!.Bucket as { Ref: string }).Ref === bucketId,
      );
      expect(policies).toHaveLength(1);
      expect(policies[0]![1].Properties!.PolicyDocument.Statement).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            Effect: 'Deny',
            Action: 's3:*',
            Principal: { AWS: '*' },
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      );
    }
  });

  it('moves incoming batches to infrequent access and expires them, per environment', () => {
    const expected: Record<EnvironmentName, number> = { dev: 90, staging: 180, prod: 365 };
    for (const name of ENVIRONMENT_NAMES) {
      const [, batches] = onlyResource(envs[name].statefulJson, 'AWS::S3::Bucket', 'BucketsBatches');
      const rule = (batches.Properties!.LifecycleConfiguration.Rules as { Id: string }[]).find(
        (r) => r.Id === 'incoming-batches',
      );
      expect(rule).toMatchObject({
        Prefix: 'incoming/',
        Status: 'Enabled',
        ExpirationInDays: expected[name],
        Transitions: [{ StorageClass: 'STANDARD_IA', TransitionInDays: 30 }],
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 },
      });
    }
  });

  it('empties and deletes buckets with the stack only in dev', () => {
    for (const [, bucket] of resourcesOfType(envs.dev.statefulJson, 'AWS::S3::Bucket'))
      expect(bucket.DeletionPolicy).toBe('Delete');
    expect(resourcesOfType(envs.dev.statefulJson, 'Custom::S3AutoDeleteObjects')).toHaveLength(3);
    for (const [, bucket] of resourcesOfType(envs.prod.statefulJson, 'AWS::S3::Bucket'))
      expect(bucket.DeletionPolicy).toBe('Retain');
    for (const data of ['BucketsBatches', 'BucketsLogos']) {
      const [, bucket] = onlyResource(envs.prod.statefulJson, 'AWS::S3::Bucket', data);
      expect(bucket.Properties!.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    }
    expect(resourcesOfType(envs.prod.statefulJson, 'Custom::S3AutoDeleteObjects')).toHaveLength(0);
  });

  it("logs access to the data buckets in the access-log bucket, kept for the environment's log retention", () => {
    const expected: Record<EnvironmentName, number> = { dev: 7, staging: 30, prod: 90 };
    for (const name of ENVIRONMENT_NAMES) {
      const json = envs[name].statefulJson;
      const [logsId, logs] = onlyResource(json, 'AWS::S3::Bucket', 'BucketsAccessLogs');
      expect(logs.Properties!.LifecycleConfiguration.Rules).toEqual([
        { Id: 'expire-access-logs', Status: 'Enabled', ExpirationInDays: expected[name] },
      ]);
      expect(logs.Properties!.LoggingConfiguration).toBeUndefined();
      for (const [data, prefix] of [
        ['BucketsBatches', 'batches/'],
        ['BucketsLogos', 'logos/'],
      ] as const) {
        const [, bucket] = onlyResource(json, 'AWS::S3::Bucket', data);
        expect(bucket.Properties!.LoggingConfiguration).toEqual({
          DestinationBucketName: { Ref: logsId },
          LogFilePrefix: prefix,
        });
      }
    }
  });
});

describe('logo vector indexes', () => {
  it('one vector bucket and one index per market for the learned embedder (logo-net, 128 dimensions, cosine), nice and is_live filterable', () => {
    envs.dev.stateful.resourceCountIs('AWS::S3Vectors::VectorBucket', 1);
    const [bucketId] = onlyResource(envs.dev.statefulJson, 'AWS::S3Vectors::VectorBucket', 'LogoVectorsBucket');
    for (const market of ['US', 'CN']) {
      const [, index] = onlyResource(envs.dev.statefulJson, 'AWS::S3Vectors::Index', `LogoVectorsIndex${market}`);
      expect(index.Properties).toEqual({
        VectorBucketArn: { 'Fn::GetAtt': [bucketId, 'VectorBucketArn'] },
        IndexName: `logo-net-${market.toLowerCase()}`,
        DataType: 'float32',
        Dimension: 128,
        DistanceMetric: 'cosine',
        MetadataConfiguration: { NonFilterableMetadataKeys: [...NON_FILTERABLE_METADATA] },
        Tags: [
          { Key: 'environment', Value: 'dev' },
          { Key: 'project', Value: 'trademark-risk-api' },
        ],
      });
      expect(index.Properties!.MetadataConfiguration.NonFilterableMetadataKeys).not.toContain('nice');
      expect(index.Properties!.MetadataConfiguration.NonFilterableMetadataKeys).not.toContain('is_live');
    }
    envs.dev.stateful.resourceCountIs('AWS::S3Vectors::Index', 2);
  });
});

describe('what differs between environments in the stateless stack', () => {
  it('log retention: 7 days in dev, 30 in staging, 90 in prod, retained outside dev', () => {
    const expected: Record<EnvironmentName, [number, string]> = {
      dev: [7, 'Delete'],
      staging: [30, 'Retain'],
      prod: [90, 'Retain'],
    };
    for (const name of ENVIRONMENT_NAMES) {
      const groups = resourcesOfType(envs[name].statelessJson, 'AWS::Logs::LogGroup');
      expect(groups).toHaveLength(30); // twenty-eight functions, the access logs and the backfile state machine's logs
      for (const [, group] of groups)
        expect([group.Properties!.RetentionInDays, group.DeletionPolicy]).toEqual(expected[name]);
    }
  });

  it('stage throttling grows with the environment', () => {
    const expected: Record<EnvironmentName, [number, number]> = {
      dev: [20, 40],
      staging: [50, 100],
      prod: [500, 1000],
    };
    for (const name of ENVIRONMENT_NAMES) {
      const [, stage] = onlyResource(envs[name].statelessJson, 'AWS::ApiGateway::Stage', 'RestApi');
      const [settings] = stage.Properties!.MethodSettings as {
        ThrottlingRateLimit: number;
        ThrottlingBurstLimit: number;
      }[];
      expect([settings!.ThrottlingRateLimit, settings!.ThrottlingBurstLimit]).toEqual(expected[name]);
    }
  });

  it('the per-IP WAF limit grows with the environment, over 60-second windows', () => {
    const expected: Record<EnvironmentName, number> = { dev: 300, staging: 1000, prod: 6000 };
    for (const name of ENVIRONMENT_NAMES) {
      const [, acl] = onlyResource(envs[name].statelessJson, 'AWS::WAFv2::WebACL', 'RestApi');
      expect(acl.Properties!.Rules[0].Statement.RateBasedStatement).toEqual({
        AggregateKeyType: 'IP',
        Limit: expected[name],
        EvaluationWindowSec: 60,
      });
    }
  });

  it.each(ENVIRONMENT_NAMES)(
    '%s: the learned embedder is the primary, no embedding endpoint, no SageMaker permission',
    (name) => {
      const env = envs[name];
      for (const type of ['AWS::SageMaker::Endpoint', 'AWS::SageMaker::EndpointConfig', 'AWS::SageMaker::Model'])
        env.stateless.resourceCountIs(type, 0);
      for (const construct of ['ImageSearch', 'Ingest']) {
        const fn = env.statelessJson.Resources[functionLogicalId(env.statelessJson, construct)]!;
        expect(fn.Properties!.Environment.Variables).toMatchObject({ LOGO_EMBEDDER: 'learned' });
        expect(fn.Properties!.Environment.Variables.CLIP_ENDPOINT_NAME).toBeUndefined();
      }
      expect(JSON.stringify(env.statelessJson)).not.toContain('sagemaker:');
    },
  );

  it('asked for CLIP, every environment creates its embedding endpoint from the pinned model package, run by its own inference code', () => {
    for (const [name, capacity] of [
      ['dev', { ServerlessConfig: { MemorySizeInMB: 4096, MaxConcurrency: 2 } }],
      ['staging', { InstanceType: 'ml.m5.large', InitialInstanceCount: 1 }],
      ['prod', { InstanceType: 'ml.c6i.xlarge', InitialInstanceCount: 2 }],
    ] as const) {
      // The endpoint does not depend on the bundles: synthesised without them.
      const env = synthEnvironment(name, { bundle: false, overrides: CLIP_CREATED });
      const [modelId, model] = onlyResource(env.statelessJson, 'AWS::SageMaker::Model', 'ClipModel');
      expect(model.Properties!.PrimaryContainer).toMatchObject({
        ModelDataUrl: TEST_MODEL_PACKAGE_URI,
        Environment: {
          SAGEMAKER_PROGRAM: 'inference.py',
          SAGEMAKER_SUBMIT_DIRECTORY: '/opt/ml/model/code',
          MODEL_PACKAGE_SHA256: 'ab'.repeat(32),
        },
      });
      expect(JSON.stringify(model.Properties!.PrimaryContainer.Image)).toContain(
        'pytorch-inference:2.1.0-cpu-py310-ubuntu20.04-sagemaker',
      );
      env.stateless.hasResourceProperties('AWS::SageMaker::EndpointConfig', {
        ProductionVariants: [Match.objectLike({ ModelName: { 'Fn::GetAtt': [modelId, 'ModelName'] }, ...capacity })],
      });
      env.stateless.hasResourceProperties('AWS::SageMaker::Endpoint', { EndpointName: `tmk-${name}-clip` });
      const imageSearch = env.statelessJson.Resources[functionLogicalId(env.statelessJson, 'ImageSearch')]!;
      expect(imageSearch.Properties!.Environment.Variables.CLIP_ENDPOINT_NAME).toBe(`tmk-${name}-clip`);
      // The endpoint's role reads exactly the package, nothing else of its bucket.
      const reads = resourcesOfType(env.statelessJson, 'AWS::IAM::Policy')
        .flatMap(([, p]) => p.Properties!.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[])
        .filter(
          (st) => st.Action === 's3:GetObject' && JSON.stringify(st.Resource).includes('tmk-model-packages-test'),
        );
      expect(reads).toHaveLength(1);
      expect(JSON.stringify(reads[0]!.Resource)).toContain(
        `tmk-model-packages-test/image-embedding/${'ab'.repeat(32)}/model.tar.gz`,
      );
    }
  });

  it('a model package must be named by its content: the sha256 in its key; without one, creating an endpoint stops with what to pass', () => {
    expect(modelPackageOf(`s3://b-1/x/${'0f'.repeat(32)}/model.tar.gz`)).toEqual({
      s3Uri: `s3://b-1/x/${'0f'.repeat(32)}/model.tar.gz`,
      sha256: '0f'.repeat(32),
    });
    expect(() => modelPackageOf('s3://b-1/x/latest/model.tar.gz')).toThrow(ModelPackageError);
    expect(() => synthEnvironment('staging', { bundle: false, overrides: { logoEmbedder: 'clip' } })).toThrow(
      /pinned model package.*modelPackageUri/,
    );
  });

  it('an imported endpoint can be chosen on the command line instead (naming it asks for CLIP)', () => {
    expect(environmentConfig('prod', { clipEndpointName: 'shared-clip' }).logoEmbedder).toEqual({
      kind: 'clip',
      endpoint: { mode: 'import', endpointName: 'shared-clip' },
    });
  });
});
