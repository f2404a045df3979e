/**
 * The stateless stack of dev, synthesised once with real esbuild bundles: routes, functions, environment
 * variables and each function's exact permissions.
 */
import { ROUTES } from '../../functions/routes';
import { ACCESS_LOG_FIELDS } from '../../infra/constructs/http-api';
import { TABLE_ACTIONS } from '../../infra/constructs/api-function';
import { TABLES, tableEnvVar } from '../../shared/tables/definitions';
import { describeValue, functionLogicalId, grantsOf, onlyResource, resourcesOfType, synthEnvironment, type SynthesisedEnvironment } from './synth-environment';

const CONSTRUCT_OF = { 'batch-screen': 'BatchScreen', 'image-search': 'ImageSearch' } as const;
const APP_FUNCTIONS = ['BatchScreen', 'ImageSearch', 'Ingest', 'NotFound'] as const;

let dev: SynthesisedEnvironment;

beforeAll(() => {
  dev = synthEnvironment('dev', { bundle: true });
});

/** The function an API Gateway route's integration invokes, as the construct id of its ApiFunction. */
function functionBehindRoute(routeKey: string): string {
  const routes = resourcesOfType(dev.statelessJson, 'AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties!.RouteKey === routeKey);
  expect(routes).toHaveLength(1);
  const target = routes[0]![1].Properties!.Target as { 'Fn::Join': [string, unknown[]] };
  const integrationId = (target['Fn::Join'][1][1] as { Ref: string }).Ref;
  const integration = dev.statelessJson.Resources[integrationId]!;
  expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
  const functionId = (integration.Properties!.IntegrationUri as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const constructId = APP_FUNCTIONS.find((c) => functionLogicalId(dev.statelessJson, c) === functionId);
  if (!constructId) throw new Error(`route ${routeKey} targets ${functionId}, not an application function`);
  return constructId;
}

describe('HTTP API routes', () => {
  it.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r.functionName] as const))('%s goes to the %s function', (routeKey, functionName) => {
    expect(functionBehindRoute(routeKey)).toBe(CONSTRUCT_OF[functionName]);
  });

  it('serves all four paths, the /v1/v1 aliases included, and nothing else but $default', () => {
    const keys = resourcesOfType(dev.statelessJson, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties!.RouteKey as string).sort();
    expect(keys).toEqual(['$default', 'POST /v1/batch-screen', 'POST /v1/image-search', 'POST /v1/v1/batch-screen', 'POST /v1/v1/image-search']);
  });

  it('sends every other request ($default) to the not-found function', () => {
    expect(functionBehindRoute('$default')).toBe('NotFound');
  });

  it('lets API Gateway invoke each function only from its own API', () => {
    const [apiId] = onlyResource(dev.statelessJson, 'AWS::ApiGatewayV2::Api', 'HttpApi');
    for (const construct of ['BatchScreen', 'ImageSearch', 'NotFound']) {
      const permissions = resourcesOfType(dev.statelessJson, 'AWS::Lambda::Permission').filter(
        ([, p]) => (p.Properties!.FunctionName as { 'Fn::GetAtt': [string] })['Fn::GetAtt']?.[0] === functionLogicalId(dev.statelessJson, construct),
      );
      expect(permissions.length).toBeGreaterThan(0);
      for (const [, permission] of permissions) {
        expect(permission.Properties!.Principal).toBe('apigateway.amazonaws.com');
        expect(JSON.stringify(permission.Properties!.SourceArn)).toContain(apiId);
      }
    }
  });

  it('has one $default stage with throttling and JSON access logs to its own log group', () => {
    const [, stage] = onlyResource(dev.statelessJson, 'AWS::ApiGatewayV2::Stage', 'HttpApi');
    expect(stage.Properties).toMatchObject({ StageName: '$default', AutoDeploy: true, DefaultRouteSettings: { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 } });
    const format = JSON.parse(stage.Properties!.AccessLogSettings.Format as string);
    expect(format).toEqual(ACCESS_LOG_FIELDS);
    expect(JSON.stringify(format)).not.toMatch(/authorization|header/i);
    const [logGroupId, logGroup] = onlyResource(dev.statelessJson, 'AWS::Logs::LogGroup', 'HttpApiAccessLogs');
    expect(stage.Properties!.AccessLogSettings.DestinationArn).toEqual({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
    expect(logGroup.Properties!.RetentionInDays).toBe(7);
  });
});

describe('functions', () => {
  it.each(APP_FUNCTIONS)('%s runs Node.js 22 on arm64 from an esbuild bundle with source maps', (construct) => {
    const fn = dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!;
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler' });
    expect(fn.Properties!.Environment.Variables).toMatchObject({
      NODE_OPTIONS: '--enable-source-maps',
      ENV_NAME: 'dev',
      POWERTOOLS_SERVICE_NAME: 'trademark-risk-api',
      POWERTOOLS_METRICS_NAMESPACE: 'TrademarkRiskApi/dev',
      SERVICE_NAME: 'trademark-risk-api',
      METRICS_NAMESPACE: 'TrademarkRiskApi/dev',
    });
    expect(fn.Properties!.Code.S3Key).toMatch(/^[0-9a-f]{64}\.zip$/);
  });

  it.each(APP_FUNCTIONS)('%s logs to its own log group with the environment retention', (construct) => {
    const fn = dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!;
    const [logGroupId, logGroup] = onlyResource(dev.statelessJson, 'AWS::Logs::LogGroup', `${construct}Logs`);
    expect(fn.Properties!.LoggingConfig).toEqual({ LogGroup: { Ref: logGroupId } });
    expect(logGroup.Properties!.RetentionInDays).toBe(7);
    expect(logGroup.DeletionPolicy).toBe('Delete');
  });

  it.each(['BatchScreen', 'ImageSearch', 'Ingest'])('%s gets every table name, each pointing at its own table', (construct) => {
    const variables = dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!.Properties!.Environment.Variables as Record<string, unknown>;
    for (const table of TABLES) {
      expect([tableEnvVar(table.id), describeValue(dev, variables[tableEnvVar(table.id)])]).toEqual([tableEnvVar(table.id), `table-name:${table.id}`]);
    }
  });

  it('gives the not-found function no table names at all', () => {
    const variables = dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, 'NotFound')]!.Properties!.Environment.Variables as Record<string, unknown>;
    expect(Object.keys(variables).filter((k) => k.endsWith('_TABLE'))).toEqual([]);
  });

  it.each(['ImageSearch', 'Ingest'])('%s has the sharp layer and the image environment (indexes, endpoint, logo bucket)', (construct) => {
    const fn = dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!;
    const [layerId, layer] = onlyResource(dev.statelessJson, 'AWS::Lambda::LayerVersion', 'SharpLayer');
    expect(fn.Properties!.Layers).toEqual([{ Ref: layerId }]);
    expect(layer.Properties).toMatchObject({ CompatibleArchitectures: ['arm64'], CompatibleRuntimes: ['nodejs22.x'] });
    const variables = fn.Properties!.Environment.Variables as Record<string, unknown>;
    expect({
      LOGO_INDEX_US_ARN: describeValue(dev, variables.LOGO_INDEX_US_ARN),
      LOGO_INDEX_CN_ARN: describeValue(dev, variables.LOGO_INDEX_CN_ARN),
      LOGOS_BUCKET: describeValue(dev, variables.LOGOS_BUCKET),
      DEGRADED_INDEX_PREFIX: variables.DEGRADED_INDEX_PREFIX,
      CLIP_ENDPOINT_NAME: variables.CLIP_ENDPOINT_NAME,
      LOGO_EMBEDDER: variables.LOGO_EMBEDDER,
    }).toEqual({
      LOGO_INDEX_US_ARN: 'vector-index:US',
      LOGO_INDEX_CN_ARN: 'vector-index:CN',
      LOGOS_BUCKET: 'bucket:Logos.name',
      DEGRADED_INDEX_PREFIX: 'degraded-index/',
      CLIP_ENDPOINT_NAME: 'tmk-shared-clip',
      LOGO_EMBEDDER: 'none',
    });
  });

  it('keeps the layer out of the functions that do not process images', () => {
    for (const construct of ['BatchScreen', 'NotFound']) {
      expect(dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!.Properties!.Layers).toBeUndefined();
    }
  });
});

describe('least privilege', () => {
  const read = [...TABLE_ACTIONS.read].sort();
  const readUpdate = [...TABLE_ACTIONS.readUpdate].sort();
  const readWrite = [...TABLE_ACTIONS.readWrite].sort();
  const clipArn = 'arn:${AWS::Partition}:sagemaker:${AWS::Region}:${AWS::AccountId}:endpoint/tmk-shared-clip';
  const meteredChain = {
    'table:accounts': readUpdate,
    'table:api-keys': read,
    'table:usage': readWrite,
    'table:idempotency': readWrite,
    'table:rate-limits': readWrite,
    'table:data-batches': read,
  };

  it('batch-screen: the metered chain, and reads of mark-keys, tro-brands and data-batches; nothing else', () => {
    expect(grantsOf(dev, 'BatchScreen')).toEqual({ ...meteredChain, 'table:mark-keys': read, 'table:tro-brands': read });
  });

  it('batch-screen cannot write marks, mark-keys or tro-brands, nor touch vectors, S3 or SageMaker', () => {
    const grants = grantsOf(dev, 'BatchScreen');
    expect(grants['table:marks']).toBeUndefined();
    expect(grants['table:mark-keys']).not.toContain('dynamodb:PutItem');
    expect(grants['table:tro-brands']).not.toContain('dynamodb:UpdateItem');
    expect(Object.values(grants).flat().filter((a) => !a.startsWith('dynamodb:'))).toEqual([]);
  });

  it('only the balance update is allowed on accounts: no put, no delete', () => {
    for (const construct of ['BatchScreen', 'ImageSearch']) {
      const accounts = grantsOf(dev, construct)['table:accounts'];
      expect(accounts).toContain('dynamodb:UpdateItem');
      expect(accounts).not.toContain('dynamodb:PutItem');
      expect(accounts).not.toContain('dynamodb:DeleteItem');
    }
  });

  it('image-search: the metered chain, query/get on both logo indexes, the endpoint, the degraded index (and listing its bucket); nothing else', () => {
    expect(grantsOf(dev, 'ImageSearch')).toEqual({
      ...meteredChain,
      'vector-index:US': ['s3vectors:GetVectors', 's3vectors:QueryVectors'],
      'vector-index:CN': ['s3vectors:GetVectors', 's3vectors:QueryVectors'],
      [clipArn]: ['sagemaker:InvokeEndpoint'],
      'bucket:Logos/degraded-index/*': ['s3:GetObject'],
      'bucket:Logos': ['s3:ListBucket'],
    });
  });

  it('ingest: write on the trademark tables, its incoming objects, put on the indexes, the endpoint, the degraded index and its dead-letter queue; nothing else', () => {
    const [queueId] = onlyResource(dev.statelessJson, 'AWS::SQS::Queue', 'IngestPipelineDeadLetters');
    expect(grantsOf(dev, 'Ingest')).toEqual({
      'table:marks': readWrite,
      'table:mark-keys': readWrite,
      'table:tro-brands': readWrite,
      'table:data-batches': readWrite,
      'bucket:Batches/incoming/*': ['s3:GetObject'],
      'vector-index:US': ['s3vectors:PutVectors'],
      'vector-index:CN': ['s3vectors:PutVectors'],
      [clipArn]: ['sagemaker:InvokeEndpoint'],
      'bucket:Logos/degraded-index/*': ['s3:GetObject', 's3:PutObject'],
      'bucket:Logos': ['s3:ListBucket'],
      [`AWS::SQS::Queue:${queueId}.Arn`]: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
    });
  });

  it('image-search can read the degraded index that ingest writes, at the same prefix', () => {
    const written = Object.entries(grantsOf(dev, 'Ingest')).filter(([, actions]) => actions.includes('s3:PutObject')).map(([resource]) => resource);
    expect(written).toEqual(['bucket:Logos/degraded-index/*']);
    expect(grantsOf(dev, 'ImageSearch')[written[0]!]).toEqual(['s3:GetObject']);
  });

  it('ingest cannot touch accounts, keys or usage', () => {
    const grants = grantsOf(dev, 'Ingest');
    for (const table of ['accounts', 'api-keys', 'usage', 'idempotency', 'rate-limits']) expect(grants[`table:${table}`]).toBeUndefined();
  });

  it('not-found has no policy at all, only the basic execution role', () => {
    expect(grantsOf(dev, 'NotFound')).toEqual({});
    const fn = dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, 'NotFound')]!;
    const roleId = (fn.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    expect(describeValue(dev, dev.statelessJson.Resources[roleId]!.Properties!.ManagedPolicyArns)).toBe(
      'arn:${AWS::Partition}:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
    );
  });

  it('no application policy has a wildcard resource', () => {
    for (const construct of APP_FUNCTIONS) {
      for (const resource of Object.keys(grantsOf(dev, construct))) {
        expect(resource).not.toBe('*');
        expect(resource.replace(/\/(incoming|degraded-index)\/\*$/, '')).not.toContain('*');
      }
    }
  });
});

describe('ingest pipeline', () => {
  it('invokes ingest for objects created under incoming/ only', () => {
    const [, notifications] = onlyResource(dev.statelessJson, 'Custom::S3BucketNotifications', 'BatchesNotifications');
    expect(describeValue(dev, notifications.Properties!.BucketName)).toBe('bucket:Batches.name');
    expect(notifications.Properties!.NotificationConfiguration).toEqual({
      LambdaFunctionConfigurations: [
        {
          Events: ['s3:ObjectCreated:*'],
          Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'incoming/' }] } },
          LambdaFunctionArn: { 'Fn::GetAtt': [functionLogicalId(dev.statelessJson, 'Ingest'), 'Arn'] },
        },
      ],
    });
  });

  it('retries a failed batch, then sends the event to the dead-letter queue', () => {
    const [queueId] = onlyResource(dev.statelessJson, 'AWS::SQS::Queue', 'IngestPipelineDeadLetters');
    dev.stateless.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: functionLogicalId(dev.statelessJson, 'Ingest') },
      MaximumRetryAttempts: 1,
      MaximumEventAgeInSeconds: 21600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
    dev.stateless.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 1209600, SqsManagedSseEnabled: true });
  });

  it('lets only S3, from the batches bucket of this account, invoke ingest', () => {
    const permissions = resourcesOfType(dev.statelessJson, 'AWS::Lambda::Permission').filter(([, p]) => p.Properties!.Principal === 's3.amazonaws.com');
    expect(permissions).toHaveLength(1);
    expect(permissions[0]![1].Properties).toMatchObject({
      FunctionName: { 'Fn::GetAtt': [functionLogicalId(dev.statelessJson, 'Ingest'), 'Arn'] },
      SourceAccount: { Ref: 'AWS::AccountId' },
    });
    expect(describeValue(dev, permissions[0]![1].Properties!.SourceArn)).toBe('bucket:Batches');
  });

  it('does not create a SageMaker endpoint in dev (it imports one)', () => {
    dev.stateless.resourceCountIs('AWS::SageMaker::Endpoint', 0);
    dev.stateless.resourceCountIs('AWS::SageMaker::Model', 0);
  });
});
