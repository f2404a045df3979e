/**
 * The public API: a regional REST API behind a WAF web ACL (infra/DEPLOY.md, "The edge", says why not an HTTP API).
 *
 * - Every route of functions/routes.ts (the operations and their /v1/v1 aliases) to its function; any other method
 *   on those paths, and any other path, to the not-found function (404 / 405 in the envelope).
 * - The web ACL's rate-based rule counts requests per source IP over a short window and blocks beyond its limit,
 *   before the stage's throttle and before any function runs: an unauthenticated flood from a few addresses cannot
 *   use up what keyed callers share.
 * - The gateway's own answers (throttled, WAF-blocked, body too large, unknown path, integration failure or
 *   timeout, any other 4xx/5xx) carry the service's envelope with the request id (`$context.requestId`, the id the
 *   functions use too, and the `x-amzn-RequestId` header API Gateway adds to every answer).
 * - One stage with throttling and JSON access logs (no header values, so no API key, ever).
 * - No gateway authorizer and no gateway request validator: each function checks the caller's key, then reads and
 *   validates the body itself (shared/http/api-handler.ts), which the rule-pack acknowledgements below record.
 */
import type { RemovalPolicy } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  ResponseType,
  RestApi,
  type IResource,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { ROUTES, type FunctionName } from '../../functions/routes';

export interface TrademarkRestApiProps {
  apiName: string;
  operations: Record<FunctionName, IFunction>;
  notFound: IFunction;
  throttling: { rateLimit: number; burstLimit: number };
  /** The web ACL's per-IP limit: requests per window of `windowSeconds`. */
  waf: { requestsPerIp: number; windowSeconds: 60 | 120 | 300 | 600 };
  logRetention: RetentionDays;
  logRemovalPolicy: RemovalPolicy;
}

/** The stage every environment deploys; the base URL ends in it, and paths start with /v1 after it. */
export const STAGE_NAME = 'api';

/** One JSON object per request; `$context` variables only. */
export const ACCESS_LOG_FIELDS: Record<string, string> = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  path: '$context.path',
  resourcePath: '$context.resourcePath',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integration.error',
  wafStatus: '$context.waf.status',
  userAgent: '$context.identity.userAgent',
};

interface GatewayAnswer {
  type: ResponseType;
  /** Undefined keeps the status API Gateway chose (the DEFAULT_ types cover several). */
  status?: string;
  code: string;
  message: string;
  retryAfterSeconds?: number;
}

export const GATEWAY_5XX_MESSAGE =
  'The service could not complete this request. Quote the request id if you contact support.';

/** The gateway's own answers, each in the envelope. */
export function gatewayAnswers(waf: TrademarkRestApiProps['waf']): GatewayAnswer[] {
  return [
    {
      type: ResponseType.THROTTLED,
      status: '429',
      code: 'rate_limited',
      message: 'Too many requests to the API right now. Retry after 1 s.',
      retryAfterSeconds: 1,
    },
    {
      type: ResponseType.WAF_FILTERED,
      status: '429',
      code: 'rate_limited',
      message: `Too many requests from your address: at most ${waf.requestsPerIp} per ${waf.windowSeconds} s. Retry after ${waf.windowSeconds} s.`,
      retryAfterSeconds: waf.windowSeconds,
    },
    {
      type: ResponseType.REQUEST_TOO_LARGE,
      status: '413',
      code: 'payload_too_large',
      message: 'The request body is larger than the API accepts (10 MB).',
    },
    {
      type: ResponseType.UNSUPPORTED_MEDIA_TYPE,
      status: '415',
      code: 'unsupported_media_type',
      message: 'Send the body as JSON with "Content-Type: application/json".',
    },
    {
      type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
      status: '404',
      code: 'not_found',
      message: 'No such path. The operations are POST /v1/batch-screen and POST /v1/image-search.',
    },
    {
      type: ResponseType.INTEGRATION_TIMEOUT,
      status: '504',
      code: 'service_unavailable',
      message: 'The service did not answer in time. Retry in a few seconds.',
      retryAfterSeconds: 5,
    },
    { type: ResponseType.INTEGRATION_FAILURE, status: '502', code: 'internal_error', message: GATEWAY_5XX_MESSAGE },
    {
      type: ResponseType.DEFAULT_4XX,
      code: 'malformed_request',
      message: 'The request could not be read by the API gateway.',
    },
    { type: ResponseType.DEFAULT_5XX, code: 'internal_error', message: GATEWAY_5XX_MESSAGE },
  ];
}

export function envelopeTemplate(code: string, message: string): string {
  return JSON.stringify({ error: { code, message, request_id: '$context.requestId' } });
}

export class TrademarkRestApi extends Construct {
  readonly api: RestApi;
  readonly accessLogs: LogGroup;
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: TrademarkRestApiProps) {
    super(scope, id);
    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    // One invoke permission per function for this API (any of its methods and paths), not two per method: with
    // per-method permissions (a route, its /v1/v1 alias, HEAD, every ANY of not-found) the stack passed
    // CloudFormation's 500-resource limit. API Gateway still only invokes a function where a route sends it.
    const invokeFromThisApi = { scopePermissionToMethod: false } as const;
    const notFound = new LambdaIntegration(props.notFound, invokeFromThisApi);
    this.api = new RestApi(this, 'Api', {
      restApiName: props.apiName,
      // What a method gets when none is named: the root's own ANY among them.
      defaultIntegration: notFound,
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      deployOptions: {
        stageName: STAGE_NAME,
        throttlingRateLimit: props.throttling.rateLimit,
        throttlingBurstLimit: props.throttling.burstLimit,
        tracingEnabled: true,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
      cloudWatchRole: false,
    });

    const integrations = new Map<FunctionName, LambdaIntegration>();
    const resources = new Map<string, IResource>();
    for (const route of ROUTES) {
      let integration = integrations.get(route.functionName);
      if (!integration) {
        integration = new LambdaIntegration(props.operations[route.functionName], invokeFromThisApi);
        integrations.set(route.functionName, integration);
      }
      const resource = this.api.root.resourceForPath(route.path);
      resource.addMethod(route.method, integration);
      // HEAD is answered as GET is, by the same function; API Gateway sends no body with it.
      if (route.method === 'GET') resource.addMethod('HEAD', integration);
      resources.set(route.path, resource);
    }
    // Other methods on the operations' paths (405), and every other path (404), go to the not-found function:
    // API Gateway does not fall back from /v1/... to the root's proxy, so each parent resource has its own.
    // A path can be a route and the parent of another (/docs and /docs/assets/...): each gets its ANY once.
    // A path parameter (`/v1/watch/{id}`) is a variable child of its parent, and API Gateway allows one variable child
    // per resource: that parent takes no `{proxy+}` (its one-segment paths are the parameter's), and the templated
    // resource has its own proxy below it for longer paths.
    const addAny = (resource: IResource) => {
      if (!resource.node.tryFindChild('ANY')) resource.addMethod('ANY', notFound);
    };
    const hasVariableChild = (resource: IResource) =>
      resource.node.children.some((child) =>
        /^\{\w+\}$/.test((child as Partial<IResource>).path?.split('/').pop() ?? ''),
      );
    const addProxy = (resource: IResource) => {
      if (!resource.getResource('{proxy+}')) resource.addProxy({ defaultIntegration: notFound, anyMethod: true });
    };
    for (const [path, resource] of resources) {
      addAny(resource);
      if (path.includes('{')) addProxy(resource);
      for (let parent = resource.parentResource; parent; parent = parent.parentResource) {
        if (parent.getResource('{proxy+}')) continue;
        if (parent !== this.api.root) addAny(parent);
        if (!hasVariableChild(parent)) addProxy(parent);
      }
    }
    // (The root's proxy also puts ANY on the root itself.)

    for (const answer of gatewayAnswers(props.waf)) {
      this.api.addGatewayResponse(`Gateway-${answer.type.responseType}`, {
        type: answer.type,
        ...(answer.status ? { statusCode: answer.status } : {}),
        responseHeaders: {
          'Content-Type': "'application/json; charset=utf-8'",
          ...(answer.retryAfterSeconds ? { 'Retry-After': `'${answer.retryAfterSeconds}'` } : {}),
        },
        templates: { 'application/json': envelopeTemplate(answer.code, answer.message) },
      });
    }

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `${props.apiName}-waf`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        metricName: `${props.apiName}-waf`,
        sampledRequestsEnabled: true,
      },
      rules: [
        {
          name: 'per-ip-rate',
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: props.waf.requestsPerIp,
              evaluationWindowSec: props.waf.windowSeconds,
            },
          },
          visibilityConfig: {
            cloudWatchMetricsEnabled: true,
            metricName: `${props.apiName}-per-ip-rate`,
            sampledRequestsEnabled: true,
          },
        },
      ],
    });
    new CfnWebACLAssociation(this, 'WebAclAssociation', {
      resourceArn: this.api.deploymentStage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
    this.acknowledgeRulePacks(props);
  }

  /** Why the API has no gateway authorizer, request validator or execution logs, and its functions no DLQ. */
  private acknowledgeRulePacks(props: TrademarkRestApiProps): void {
    const authorization =
      'By design the API authenticates inside each function: the operations check the bearer API key (hashed, looked up in the api-keys table) before reading anything else, and the docs, the OpenAPI document and the not-found answers are public.';
    NagSuppressions.addResourceSuppressions(
      this.api,
      [
        { id: 'AwsSolutions-APIG4', reason: authorization },
        { id: 'AwsSolutions-COG4', reason: authorization },
      ],
      true,
    );
    NagSuppressions.addResourceSuppressions(this.api, [
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'Each function validates its request after checking the key (415 unsupported_media_type, 400 invalid_json or invalid_request naming the fields, as documented); a gateway validator would answer first, with its own 400, even to callers without a key.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.api.deploymentStage, [
      {
        id: 'AwsSolutions-APIG6',
        reason:
          'Execution logging needs the account-wide API Gateway CloudWatch role, which these stacks leave alone (cloudWatchRole: false) because environments share accounts; the stage has JSON access logs with the integration error, and X-Ray traces.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(
      [...Object.values(props.operations), props.notFound],
      [
        {
          id: 'Serverless-LambdaDLQ',
          reason:
            'Invoked synchronously by this API (Lambda proxy integration): a failure is answered to the caller, so there is no event to keep on a dead-letter queue.',
        },
      ],
    );
  }

  /** The base URL clients call (ends with the stage and a slash; paths then start with v1/). */
  get url(): string {
    return this.api.url;
  }
}
