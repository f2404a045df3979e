/**
 * The stateless stack of dev, synthesised once with real esbuild bundles: routes, functions, environment
 * variables and each function's exact permissions.
 *
 * Over 400 lines on purpose: one synthesised stack (routes, functions, grants), built once for all its assertions.
 */
import { environmentConfig } from '../../infra/config/environments';
import { ROUTES } from '../../functions/routes';
import { ACCESS_LOG_FIELDS, STAGE_NAME } from '../../infra/constructs/rest-api';
import { TABLE_ACTIONS } from '../../infra/constructs/api-function';
import { TABLES, tableEnvVar } from '../../shared/tables/definitions';
import {
  describeValue,
  functionLogicalId,
  grantsOf,
  onlyResource,
  resourcesOfType,
  synthEnvironment,
  type SynthesisedEnvironment,
} from './synth-environment';

const CONSTRUCT_OF = {
  'batch-screen': 'BatchScreen',
  'image-search': 'ImageSearch',
  account: 'Account',
  usage: 'Usage',
  'get-allowlist': 'GetAllowlist',
  'put-allowlist': 'PutAllowlist',
  feedback: 'Feedback',
  'put-watch': 'PutWatch',
  'get-watch': 'GetWatch',
  'delete-watch': 'DeleteWatch',
  'get-alerts': 'GetAlerts',
  'ack-alerts': 'AckAlerts',
  'put-webhook': 'PutWebhook',
  'get-webhook': 'GetWebhook',
  'delete-webhook': 'DeleteWebhook',
  'test-webhook': 'TestWebhook',
  'webhook-dead-letters': 'WebhookDeadLetters',
  'redeliver-webhook': 'RedeliverWebhook',
  openapi: 'OpenApi',
  status: 'Status',
  docs: 'Docs',
} as const;
const APP_FUNCTIONS = [
  'BatchScreen',
  'ImageSearch',
  'Account',
  'Usage',
  'GetAllowlist',
  'PutAllowlist',
  'Feedback',
  'PutWatch',
  'GetWatch',
  'DeleteWatch',
  'GetAlerts',
  'AckAlerts',
  'PutWebhook',
  'GetWebhook',
  'DeleteWebhook',
  'TestWebhook',
  'WebhookDeadLetters',
  'RedeliverWebhook',
  'OpenApi',
  'Status',
  'Docs',
  'Ingest',
  'NotFound',
] as const;

let dev: SynthesisedEnvironment;

beforeAll(() => {
  dev = synthEnvironment('dev', { bundle: true });
});

/** The full path of an API Gateway resource, from its PathPart and its parents. */
function pathOf(resourceId: string): string {
  const resource = dev.statelessJson.Resources[resourceId]!;
  const parent = resource.Properties!.ParentId as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  const above = parent.Ref ? pathOf(parent.Ref) : '';
  return `${above}/${resource.Properties!.PathPart as string}`;
}

/** Every method of the REST API as `METHOD /path`, with the construct id of the function its integration invokes. */
function methods(): Map<string, string> {
  const out = new Map<string, string>();
  for (const [, method] of resourcesOfType(dev.statelessJson, 'AWS::ApiGateway::Method')) {
    const resourceId = method.Properties!.ResourceId as { Ref?: string };
    const path = resourceId.Ref ? pathOf(resourceId.Ref) : '/';
    expect(method.Properties!.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
    const uri = JSON.stringify(method.Properties!.Integration.Uri);
    const constructId = APP_FUNCTIONS.find((c) => uri.includes(functionLogicalId(dev.statelessJson, c)));
    if (!constructId) throw new Error(`${method.Properties!.HttpMethod} ${path} targets no application function`);
    out.set(`${method.Properties!.HttpMethod} ${path}`, constructId);
  }
  return out;
}

describe('REST API routes', () => {
  it.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r.functionName] as const))(
    '%s goes to the %s function',
    (routeKey, functionName) => {
      expect(methods().get(routeKey)).toBe(CONSTRUCT_OF[functionName]);
    },
  );

  it.each(ROUTES.filter((r) => r.method === 'GET').map((r) => [`HEAD ${r.path}`, r.functionName] as const))(
    '%s goes to the %s function, as GET does',
    (routeKey, functionName) => {
      expect(methods().get(routeKey)).toBe(CONSTRUCT_OF[functionName]);
    },
  );

  it('sends every other method and path to the not-found function, and nothing else anywhere', () => {
    const routed = new Set(
      ROUTES.flatMap((r) => [`${r.method} ${r.path}`, ...(r.method === 'GET' ? [`HEAD ${r.path}`] : [])]),
    );
    const others = [...methods()].filter(([key]) => !routed.has(key));
    // Every route's path answers its other methods; every path above a route, and the root, has ANY and a proxy.
    const parents = new Set(
      ROUTES.flatMap((r) =>
        r.path
          .split('/')
          .slice(1, -1)
          .map((_, i, parts) => `/${parts.slice(0, i + 1).join('/')}`),
      ),
    );
    const expected = new Set(['ANY /', 'ANY /{proxy+}', ...ROUTES.map((r) => `ANY ${r.path}`)]);
    // A parent of a path parameter takes no proxy (one variable child per resource): the parameter's resource has
    // its own proxy below it instead.
    const templated = ROUTES.filter((r) => r.path.includes('{')).map((r) => r.path);
    const parentsOfParameters = new Set(templated.map((path) => path.slice(0, path.lastIndexOf('/'))));
    for (const path of templated) expected.add(`ANY ${path}/{proxy+}`);
    for (const parent of parents) {
      expected.add(`ANY ${parent}`);
      if (!parentsOfParameters.has(parent)) expected.add(`ANY ${parent}/{proxy+}`);
    }
    expect(templated).toContain('/v1/watch/{id}');
    expect(others.map(([key]) => key).sort()).toEqual([...expected].sort());
    for (const [, construct] of others) expect(construct).toBe('NotFound');
  });

  it('lets API Gateway invoke each function only from its own API, with one permission per function', () => {
    const [apiId] = onlyResource(dev.statelessJson, 'AWS::ApiGateway::RestApi', 'RestApi');
    for (const construct of [...Object.values(CONSTRUCT_OF), 'NotFound']) {
      const permissions = resourcesOfType(dev.statelessJson, 'AWS::Lambda::Permission').filter(
        ([, p]) =>
          (p.Properties!.FunctionName as { 'Fn::GetAtt': [string] })['Fn::GetAtt']?.[0] ===
          functionLogicalId(dev.statelessJson, construct),
      );
      // One for the whole API, not two per method (the stack stays under CloudFormation's 500 resources).
      expect(permissions).toHaveLength(1);
      for (const [, permission] of permissions) {
        expect(permission.Properties!.Principal).toBe('apigateway.amazonaws.com');
        expect(JSON.stringify(permission.Properties!.SourceArn)).toContain(apiId);
      }
    }
  });

  it('has one regional stage with throttling, tracing and JSON access logs to its own log group', () => {
    const [, api] = onlyResource(dev.statelessJson, 'AWS::ApiGateway::RestApi', 'RestApi');
    expect(api.Properties!.EndpointConfiguration).toEqual({ Types: ['REGIONAL'] });
    const [, stage] = onlyResource(dev.statelessJson, 'AWS::ApiGateway::Stage', 'RestApi');
    expect(stage.Properties).toMatchObject({
      StageName: STAGE_NAME,
      TracingEnabled: true,
      MethodSettings: [{ ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40, HttpMethod: '*', ResourcePath: '/*' }],
    });
    const format = JSON.parse(stage.Properties!.AccessLogSetting.Format as string);
    expect(format).toEqual(ACCESS_LOG_FIELDS);
    expect(JSON.stringify(format)).not.toMatch(/authorization|header/i);
    const [logGroupId, logGroup] = onlyResource(dev.statelessJson, 'AWS::Logs::LogGroup', 'RestApiAccessLogs');
    expect(JSON.stringify(stage.Properties!.AccessLogSetting.DestinationArn)).toContain(logGroupId);
    expect(logGroup.Properties!.RetentionInDays).toBe(7);
  });
});

describe("the edge: WAF and the gateway's own answers", () => {
  it('a regional web ACL with one per-IP rate-based rule that blocks, attached to the API stage', () => {
    const [aclId, acl] = onlyResource(dev.statelessJson, 'AWS::WAFv2::WebACL', 'RestApi');
    expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    expect(acl.Properties!.Rules).toEqual([
      expect.objectContaining({
        Action: { Block: {} },
        Statement: { RateBasedStatement: { AggregateKeyType: 'IP', Limit: 300, EvaluationWindowSec: 60 } },
      }),
    ]);
    const [, association] = onlyResource(dev.statelessJson, 'AWS::WAFv2::WebACLAssociation', 'RestApi');
    expect(association.Properties!.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    const [stageId] = onlyResource(dev.statelessJson, 'AWS::ApiGateway::Stage', 'RestApi');
    expect(JSON.stringify(association.Properties!.ResourceArn)).toContain(stageId);
  });

  it('every answer the gateway makes itself is the envelope with the request id, with its status and code', () => {
    const responses = new Map(
      resourcesOfType(dev.statelessJson, 'AWS::ApiGateway::GatewayResponse').map(([, r]) => [
        r.Properties!.ResponseType as string,
        r.Properties!,
      ]),
    );
    const expected: Record<string, [string | undefined, string]> = {
      THROTTLED: ['429', 'rate_limited'],
      WAF_FILTERED: ['429', 'rate_limited'],
      REQUEST_TOO_LARGE: ['413', 'payload_too_large'],
      UNSUPPORTED_MEDIA_TYPE: ['415', 'unsupported_media_type'],
      MISSING_AUTHENTICATION_TOKEN: ['404', 'not_found'],
      INTEGRATION_TIMEOUT: ['504', 'service_unavailable'],
      INTEGRATION_FAILURE: ['502', 'internal_error'],
      DEFAULT_4XX: [undefined, 'malformed_request'],
      DEFAULT_5XX: [undefined, 'internal_error'],
    };
    expect([...responses.keys()].sort()).toEqual(Object.keys(expected).sort());
    for (const [type, [status, code]] of Object.entries(expected)) {
      const response = responses.get(type)!;
      expect(response.StatusCode).toBe(status);
      const body = JSON.parse(response.ResponseTemplates['application/json'] as string);
      expect(body).toEqual({ error: { code, message: expect.any(String), request_id: '$context.requestId' } });
      expect(response.ResponseParameters['gatewayresponse.header.Content-Type']).toBe(
        "'application/json; charset=utf-8'",
      );
    }
    expect(responses.get('WAF_FILTERED')!.ResponseParameters['gatewayresponse.header.Retry-After']).toBe("'60'");
    expect(responses.get('THROTTLED')!.ResponseParameters['gatewayresponse.header.Retry-After']).toBe("'1'");
  });

  it('each API function has its own reserved concurrency where the environment sets one (none in dev)', () => {
    for (const construct of ['BatchScreen', 'ImageSearch']) {
      expect(
        dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!.Properties!
          .ReservedConcurrentExecutions,
      ).toBeUndefined();
    }
  });
});

describe('functions', () => {
  it.each(APP_FUNCTIONS)('%s runs Node.js 24 on arm64 from an esbuild bundle with source maps', (construct) => {
    const fn = dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!;
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler' });
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

  it.each([
    'BatchScreen',
    'ImageSearch',
    'Account',
    'Usage',
    'GetAllowlist',
    'PutAllowlist',
    'Feedback',
    'PutWatch',
    'GetWatch',
    'DeleteWatch',
    'GetAlerts',
    'AckAlerts',
    'PutWebhook',
    'TestWebhook',
    'WebhookDeliver',
    'Status',
    'Ingest',
  ])('%s gets every table name, each pointing at its own table', (construct) => {
    const variables = dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!.Properties!
      .Environment.Variables as Record<string, unknown>;
    for (const table of TABLES) {
      expect([tableEnvVar(table.id), describeValue(dev, variables[tableEnvVar(table.id)])]).toEqual([
        tableEnvVar(table.id),
        `table-name:${table.id}`,
      ]);
    }
  });

  it("gives batch-screen the environment's screening refresh interval, and only batch-screen", () => {
    const variablesOf = (construct: string) =>
      dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!.Properties!.Environment
        .Variables as Record<string, unknown>;

    expect(variablesOf('BatchScreen').SCREENING_REFRESH_SECONDS).toBe(
      String(environmentConfig('dev').screeningRefreshSeconds),
    );
    expect(variablesOf('ImageSearch').SCREENING_REFRESH_SECONDS).toBeUndefined();
  });

  it('gives the not-found function no table names at all', () => {
    const variables = dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, 'NotFound')]!.Properties!
      .Environment.Variables as Record<string, unknown>;
    expect(Object.keys(variables).filter((k) => k.endsWith('_TABLE'))).toEqual([]);
  });

  it.each(['ImageSearch', 'Ingest'])(
    '%s has the native-modules layer and the image environment (the learned embedder, its indexes, the logo bucket; no endpoint)',
    (construct) => {
      const fn = dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!;
      const [layerId, layer] = onlyResource(dev.statelessJson, 'AWS::Lambda::LayerVersion', 'NativeModulesLayer');
      expect(fn.Properties!.Layers).toEqual([{ Ref: layerId }]);
      expect(layer.Properties).toMatchObject({
        CompatibleArchitectures: ['arm64'],
        CompatibleRuntimes: ['nodejs24.x'],
      });
      const variables = fn.Properties!.Environment.Variables as Record<string, unknown>;
      expect({
        LOGO_INDEX_US_ARN: describeValue(dev, variables.LOGO_INDEX_US_ARN),
        LOGO_INDEX_CN_ARN: describeValue(dev, variables.LOGO_INDEX_CN_ARN),
        LOGOS_BUCKET: describeValue(dev, variables.LOGOS_BUCKET),
        DEGRADED_INDEX_PREFIX: variables.DEGRADED_INDEX_PREFIX,
        CLIP_ENDPOINT_NAME: variables.CLIP_ENDPOINT_NAME,
        LOGO_EMBEDDER: variables.LOGO_EMBEDDER,
        LOGO_MODEL_PATH: variables.LOGO_MODEL_PATH,
      }).toEqual({
        LOGO_INDEX_US_ARN: 'vector-index:US',
        LOGO_INDEX_CN_ARN: 'vector-index:CN',
        LOGOS_BUCKET: 'bucket:Logos.name',
        DEGRADED_INDEX_PREFIX: 'degraded-index/',
        CLIP_ENDPOINT_NAME: undefined,
        LOGO_EMBEDDER: 'learned',
        LOGO_MODEL_PATH: '/var/task/logo-embedder.onnx',
      });
    },
  );

  it('keeps the layer out of the functions that do not process images', () => {
    for (const construct of [
      'BatchScreen',
      'Account',
      'Usage',
      'GetAllowlist',
      'PutAllowlist',
      'Feedback',
      'PutWatch',
      'GetWatch',
      'DeleteWatch',
      'GetAlerts',
      'AckAlerts',
      'OpenApi',
      'Status',
      'Docs',
      'NotFound',
    ]) {
      expect(
        dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!.Properties!.Layers,
      ).toBeUndefined();
    }
  });
});

describe('least privilege', () => {
  const read = [...TABLE_ACTIONS.read].sort();
  const readWrite = [...TABLE_ACTIONS.readWrite].sort();
  /**
   * What every function has: its trace segments to X-Ray (active tracing; the actions take no resource), and its
   * log streams in its own log group (what AWSLambdaBasicExecutionRole would give, narrowed to that group).
   */
  const own = (construct: string) => ({
    '*': ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'],
    [`log-group:${construct}Logs`]: ['logs:CreateLogStream', 'logs:PutLogEvents'],
  });
  const meteredChain = {
    'table:accounts': ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
    'table:api-keys': ['dynamodb:GetItem'],
    'table:usage': ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    'table:idempotency': ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    'table:rate-limits': ['dynamodb:UpdateItem'],
    'table:data-batches': ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'],
  };

  it('the metered functions may not Scan any table, nor Delete or BatchWrite on the ledger (usage) or accounts', () => {
    for (const construct of ['BatchScreen', 'ImageSearch']) {
      const grants = grantsOf(dev, construct);
      for (const id of ['accounts', 'api-keys', 'usage', 'idempotency', 'rate-limits', 'data-batches'])
        expect(grants[`table:${id}`]).not.toContain('dynamodb:Scan');
      for (const id of ['usage', 'accounts']) {
        expect(grants[`table:${id}`]).not.toContain('dynamodb:DeleteItem');
        expect(grants[`table:${id}`]).not.toContain('dynamodb:BatchWriteItem');
      }
    }
  });

  it('batch-screen: the metered chain, and reads of mark-keys, tro-brands and data-batches; nothing else', () => {
    expect(grantsOf(dev, 'BatchScreen')).toEqual({
      ...own('BatchScreen'),
      ...meteredChain,
      'table:mark-keys': read,
      'table:tro-brands': read,
      'table:allowlists': read,
    });
  });

  const freeChain = { 'table:api-keys': read, 'table:rate-limits': readWrite };

  it('account: the key, the rate limit and a read of accounts; no usage, no balance update', () => {
    expect(grantsOf(dev, 'Account')).toEqual({ ...own('Account'), ...freeChain, 'table:accounts': read });
  });

  it('usage: the key, the rate limit and a read of the usage table; nothing else', () => {
    expect(grantsOf(dev, 'Usage')).toEqual({ ...own('Usage'), ...freeChain, 'table:usage': read });
  });

  it('the allowlist: read for GET; write only on the allowlists (and Idempotency-Key records) for PUT', () => {
    expect(grantsOf(dev, 'GetAllowlist')).toEqual({ ...own('GetAllowlist'), ...freeChain, 'table:allowlists': read });
    expect(grantsOf(dev, 'PutAllowlist')).toEqual({
      ...own('PutAllowlist'),
      ...freeChain,
      'table:allowlists': readWrite,
      'table:idempotency': readWrite,
    });
  });

  it('feedback: the key, the rate limit, its Idempotency-Key records and the feedback table; nothing else', () => {
    expect(grantsOf(dev, 'Feedback')).toEqual({
      ...own('Feedback'),
      ...freeChain,
      'table:feedback': readWrite,
      'table:idempotency': readWrite,
    });
  });

  it('put-watch: the metered chain, the screening reads of batch-screen, and the watched items; nothing else', () => {
    expect(grantsOf(dev, 'PutWatch')).toEqual({
      ...own('PutWatch'),
      ...meteredChain,
      'table:mark-keys': read,
      'table:tro-brands': read,
      'table:allowlists': read,
      'table:watch-items': readWrite,
    });
  });

  it('get-watch: the key, the rate limit and a read of the watched items; nothing else', () => {
    expect(grantsOf(dev, 'GetWatch')).toEqual({ ...own('GetWatch'), ...freeChain, 'table:watch-items': read });
  });

  it('delete-watch: the key, the rate limit and only DeleteItem on the watched items (alerts untouched)', () => {
    expect(grantsOf(dev, 'DeleteWatch')).toEqual({
      ...own('DeleteWatch'),
      ...freeChain,
      'table:watch-items': ['dynamodb:DeleteItem'],
    });
  });

  it('alerts: the key, the rate limit, and a read of watch-alerts (get) or only UpdateItem on it (ack)', () => {
    expect(grantsOf(dev, 'GetAlerts')).toEqual({ ...own('GetAlerts'), ...freeChain, 'table:watch-alerts': read });
    expect(grantsOf(dev, 'AckAlerts')).toEqual({
      ...own('AckAlerts'),
      ...freeChain,
      'table:idempotency': readWrite,
      'table:watch-alerts': ['dynamodb:UpdateItem'],
    });
  });

  it('webhook routes: the key, the rate limit and only their own action on the webhooks table', () => {
    const idempotency = { 'table:idempotency': readWrite };
    expect(grantsOf(dev, 'PutWebhook')).toEqual({
      ...own('PutWebhook'),
      ...freeChain,
      ...idempotency,
      'table:webhooks': ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
    });
    expect(grantsOf(dev, 'GetWebhook')).toEqual({
      ...own('GetWebhook'),
      ...freeChain,
      'table:webhooks': ['dynamodb:GetItem'],
    });
    expect(grantsOf(dev, 'DeleteWebhook')).toEqual({
      ...own('DeleteWebhook'),
      ...freeChain,
      'table:webhooks': ['dynamodb:DeleteItem'],
    });
    expect(grantsOf(dev, 'TestWebhook')).toEqual({
      ...own('TestWebhook'),
      ...freeChain,
      ...idempotency,
      'table:webhooks': ['dynamodb:GetItem'],
    });
    expect(grantsOf(dev, 'WebhookDeadLetters')).toEqual({
      ...own('WebhookDeadLetters'),
      ...freeChain,
      'table:webhooks': ['dynamodb:Query'],
    });
    // ... and re-queuing dead letters ({"all": true}) puts them on the webhook bus, for the deliverer.
    const [webhookBus] = onlyResource(dev.statelessJson, 'AWS::Events::EventBus', 'WebhooksWebhookBus');
    expect(grantsOf(dev, 'RedeliverWebhook')).toEqual({
      ...own('RedeliverWebhook'),
      ...freeChain,
      ...idempotency,
      'table:webhooks': ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
      [`AWS::Events::EventBus:${webhookBus}.Arn`]: ['events:PutEvents'],
    });
  });

  it('the webhook deliverer: reads the webhook, claims and finishes events, puts dead letters; nothing else', () => {
    const [queueId] = onlyResource(dev.statelessJson, 'AWS::SQS::Queue', 'WebhooksDeadLetters');
    expect(grantsOf(dev, 'WebhookDeliver')).toEqual({
      ...own('WebhookDeliver'),
      'table:webhooks': ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      // A run that failed after Lambda's retries goes to the operators' dead-letter queue.
      [`AWS::SQS::Queue:${queueId}.Arn`]: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
    });
  });

  it('the data status (no key): reads of data-batches and tro-brands only; no keys, no rate limit, no marks', () => {
    expect(grantsOf(dev, 'Status')).toEqual({
      ...own('Status'),
      'table:data-batches': read,
      'table:tro-brands': read,
    });
  });

  it('the OpenAPI document and the docs page may only send traces and write their logs, and have no table names', () => {
    for (const construct of ['OpenApi', 'Docs']) {
      expect(grantsOf(dev, construct)).toEqual(own(construct));
      const variables = dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!.Properties!
        .Environment.Variables as Record<string, unknown>;
      expect(Object.keys(variables).filter((k) => k.endsWith('_TABLE'))).toEqual([]);
    }
  });

  it('batch-screen cannot write marks, mark-keys or tro-brands, nor touch vectors, S3 or SageMaker', () => {
    const grants = grantsOf(dev, 'BatchScreen');
    expect(grants['table:marks']).toBeUndefined();
    expect(grants['table:mark-keys']).not.toContain('dynamodb:PutItem');
    expect(grants['table:tro-brands']).not.toContain('dynamodb:UpdateItem');
    expect(
      Object.values(grants)
        .flat()
        .filter((a) => !a.startsWith('dynamodb:') && !a.startsWith('xray:') && !a.startsWith('logs:')),
    ).toEqual([]);
  });

  it('only the balance update is allowed on accounts: no put, no delete', () => {
    for (const construct of ['BatchScreen', 'ImageSearch']) {
      const accounts = grantsOf(dev, construct)['table:accounts'];
      expect(accounts).toContain('dynamodb:UpdateItem');
      expect(accounts).not.toContain('dynamodb:PutItem');
      expect(accounts).not.toContain('dynamodb:DeleteItem');
    }
  });

  it('image-search: the metered chain, query/get on both logo indexes, the degraded index (and listing its bucket); nothing else', () => {
    expect(grantsOf(dev, 'ImageSearch')).toEqual({
      ...own('ImageSearch'),
      ...meteredChain,
      'vector-index:US': ['s3vectors:GetVectors', 's3vectors:QueryVectors'],
      'vector-index:CN': ['s3vectors:GetVectors', 's3vectors:QueryVectors'],
      'bucket:Logos/degraded-index/*': ['s3:GetObject'],
      'bucket:Logos': ['s3:ListBucket'],
    });
  });

  it('ingest: write on the trademark tables, its incoming objects, put on the indexes, the degraded index, its dead-letter queue and the data bus; nothing else', () => {
    const [queueId] = onlyResource(dev.statelessJson, 'AWS::SQS::Queue', 'IngestPipelineDeadLetters');
    const [busId] = onlyResource(dev.statelessJson, 'AWS::Events::EventBus', 'DataEvents');
    expect(grantsOf(dev, 'Ingest')).toEqual({
      ...own('Ingest'),
      'table:marks': readWrite,
      'table:mark-keys': readWrite,
      'table:tro-brands': readWrite,
      'table:data-batches': readWrite,
      'bucket:Batches/incoming/*': ['s3:GetObject'],
      'vector-index:US': ['s3vectors:PutVectors'],
      'vector-index:CN': ['s3vectors:PutVectors'],
      'bucket:Logos/degraded-index/*': ['s3:GetObject', 's3:PutObject'],
      'bucket:Logos': ['s3:ListBucket'],
      [`AWS::SQS::Queue:${queueId}.Arn`]: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
      // Announcing completed batches (infra/constructs/watch-rescreen.ts).
      [`AWS::Events::EventBus:${busId}.Arn`]: ['events:PutEvents'],
    });
  });

  it('image-search can read the degraded index that ingest writes, at the same prefix', () => {
    const written = Object.entries(grantsOf(dev, 'Ingest'))
      .filter(([, actions]) => actions.includes('s3:PutObject'))
      .map(([resource]) => resource);
    expect(written).toEqual(['bucket:Logos/degraded-index/*']);
    expect(grantsOf(dev, 'ImageSearch')[written[0]!]).toEqual(['s3:GetObject']);
  });

  it('ingest cannot touch accounts, keys or usage', () => {
    const grants = grantsOf(dev, 'Ingest');
    for (const table of ['accounts', 'api-keys', 'usage', 'idempotency', 'rate-limits'])
      expect(grants[`table:${table}`]).toBeUndefined();
  });

  it('not-found may only send traces and write its own logs', () => {
    expect(grantsOf(dev, 'NotFound')).toEqual(own('NotFound'));
  });

  it('no function role has an AWS managed policy: each is trusted by Lambda alone', () => {
    for (const construct of APP_FUNCTIONS) {
      const fn = dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!;
      const roleId = (fn.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const role = dev.statelessJson.Resources[roleId]!;
      expect(role.Properties!.ManagedPolicyArns).toBeUndefined();
      expect(role.Properties!.AssumeRolePolicyDocument.Statement).toEqual([
        { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
      ]);
    }
  });

  it('no application policy has a wildcard resource', () => {
    for (const construct of APP_FUNCTIONS) {
      const grants = grantsOf(dev, construct);
      // The one exception: X-Ray's trace actions accept no resource but `*`.
      expect(grants['*'] ?? []).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
      for (const resource of Object.keys(grants).filter((r) => r !== '*')) {
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
    dev.stateless.hasResourceProperties('AWS::SQS::Queue', {
      MessageRetentionPeriod: 1209600,
      SqsManagedSseEnabled: true,
    });
  });

  it('lets only S3, from the batches bucket of this account, invoke ingest', () => {
    const permissions = resourcesOfType(dev.statelessJson, 'AWS::Lambda::Permission').filter(
      ([, p]) => p.Properties!.Principal === 's3.amazonaws.com',
    );
    expect(permissions).toHaveLength(1);
    expect(permissions[0]![1].Properties).toMatchObject({
      FunctionName: { 'Fn::GetAtt': [functionLogicalId(dev.statelessJson, 'Ingest'), 'Arn'] },
      SourceAccount: { Ref: 'AWS::AccountId' },
    });
    expect(describeValue(dev, permissions[0]![1].Properties!.SourceArn)).toBe('bucket:Batches');
  });

  it('dev creates no embedding endpoint: the learned embedder runs in the functions', () => {
    dev.stateless.resourceCountIs('AWS::SageMaker::Endpoint', 0);
    dev.stateless.resourceCountIs('AWS::SageMaker::EndpointConfig', 0);
    dev.stateless.resourceCountIs('AWS::SageMaker::Model', 0);
    expect(dev.statelessJson.Outputs?.ClipEndpointName).toBeUndefined();
  });
});
