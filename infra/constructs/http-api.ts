/**
 * The public HTTP API: every route of functions/routes.ts (the operations and their /v1/v1 aliases) to its
 * function, everything else (`$default`) to the not-found function, which answers 404 or 405 in the usual error
 * shape. One `$default` stage with throttling and JSON access logs (no header values, so no API key, ever).
 */
import type { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ROUTES, type FunctionName } from '../../functions/routes';

export interface HttpApiProps {
  apiName: string;
  operations: Record<FunctionName, IFunction>;
  notFound: IFunction;
  throttling: { rateLimit: number; burstLimit: number };
  logRetention: RetentionDays;
  logRemovalPolicy: RemovalPolicy;
}

/** One JSON object per request; `$context` variables only. */
export const ACCESS_LOG_FIELDS: Record<string, string> = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  userAgent: '$context.identity.userAgent',
};

export class TrademarkHttpApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: HttpApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', {
      apiName: props.apiName,
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('NotFound', props.notFound),
    });

    const integrations = new Map<FunctionName, HttpLambdaIntegration>();
    for (const route of ROUTES) {
      let integration = integrations.get(route.functionName);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${route.functionName}-integration`, props.operations[route.functionName]);
        integrations.set(route.functionName, integration);
      }
      this.api.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration });
    }

    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.logRetention, removalPolicy: props.logRemovalPolicy });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.throttling.rateLimit, burstLimit: props.throttling.burstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
  }

  /** The base URL clients call (ends without a slash; paths start with /v1). */
  get url(): string {
    return this.api.apiEndpoint;
  }
}
