/**
 * Alarms and the billing dashboard of dev and prod. Nothing here depends on the bundles' content, so bundling is
 * skipped (routes, functions and grants are checked against real bundles in the other suites).
 *
 * Over 400 lines on purpose: one concern (alarms and the dashboard) of two synthesised environments, built once.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { environmentConfig } from '../../infra/config/environments';
import { LATENCY_STATISTICS, WIDGET_TITLES } from '../../infra/constructs/billing-dashboard';
import { TIERS } from '../../shared/metering/tiers';
import { MODEL_UNLOADABLE_OUTCOME } from '../../functions/image-search/outcomes';
import {
  dashboardBody,
  functionLogicalId,
  onlyResource,
  resourcesOfType,
  synthEnvironment,
  type CfnResource,
  type DashboardWidget,
  type SynthesisedEnvironment,
} from './synth-environment';

let dev: SynthesisedEnvironment;
let prod: SynthesisedEnvironment;

beforeAll(() => {
  dev = synthEnvironment('dev', { bundle: false });
  prod = synthEnvironment('prod', { bundle: false });
});

function alarm(env: SynthesisedEnvironment, name: string): CfnResource {
  const found = resourcesOfType(env.statelessJson, 'AWS::CloudWatch::Alarm').filter(
    ([, a]) => a.Properties!.AlarmName === name,
  );
  expect(found).toHaveLength(1);
  return found[0]![1];
}

const SERVICE = { Name: 'service', Value: 'trademark-risk-api' };

describe('alarms', () => {
  it('exist, exactly these, in every environment', () => {
    const names = resourcesOfType(prod.statelessJson, 'AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties!.AlarmName as string)
      .sort();
    expect(names).toEqual(
      [
        'tmk-prod-api-5xx-rate',
        'tmk-prod-batch-screen-p99-latency',
        'tmk-prod-image-search-p99-latency',
        'tmk-prod-batch-screen-throttles',
        'tmk-prod-image-search-throttles',
        'tmk-prod-ingest-throttles',
        'tmk-prod-not-found-throttles',
        'tmk-prod-account-throttles',
        'tmk-prod-usage-throttles',
        'tmk-prod-get-allowlist-throttles',
        'tmk-prod-put-allowlist-throttles',
        'tmk-prod-feedback-throttles',
        'tmk-prod-put-watch-throttles',
        'tmk-prod-get-watch-throttles',
        'tmk-prod-delete-watch-throttles',
        'tmk-prod-get-alerts-throttles',
        'tmk-prod-ack-alerts-throttles',
        'tmk-prod-put-webhook-throttles',
        'tmk-prod-get-webhook-throttles',
        'tmk-prod-delete-webhook-throttles',
        'tmk-prod-test-webhook-throttles',
        'tmk-prod-webhook-dead-letters-throttles',
        'tmk-prod-redeliver-webhook-throttles',
        'tmk-prod-webhook-deliver-throttles',
        'tmk-prod-openapi-throttles',
        'tmk-prod-status-throttles',
        'tmk-prod-docs-throttles',
        'tmk-prod-register-update-throttles',
        'tmk-prod-register-backfile-throttles',
        'tmk-prod-tro-docket-throttles',
        'tmk-prod-watch-rescreen-throttles',
        'tmk-prod-data-uspto-daily-stale',
        'tmk-prod-data-tro-docket-stale',
        'tmk-prod-image-search-degraded-share',
        'tmk-prod-image-search-model-unloadable',
        'tmk-prod-ingest-dead-letters',
        'tmk-prod-watch-rescreen-dead-letters',
        'tmk-prod-webhook-deliver-dead-letters',
        ...[
          'batch-screen',
          'image-search',
          'ingest',
          'not-found',
          'account',
          'usage',
          'get-allowlist',
          'put-allowlist',
          'feedback',
          'put-watch',
          'get-watch',
          'delete-watch',
          'get-alerts',
          'ack-alerts',
          'put-webhook',
          'get-webhook',
          'delete-webhook',
          'test-webhook',
          'webhook-dead-letters',
          'redeliver-webhook',
          'webhook-deliver',
          'openapi',
          'status',
          'docs',
          'register-update',
          'register-backfile',
          'tro-docket',
          'watch-rescreen',
        ].map((f) => `tmk-prod-${f}-errors`),
        'tmk-prod-batch-screen-near-timeout',
        'tmk-prod-image-search-near-timeout',
        'tmk-prod-refund-failed',
        ...[
          'accounts',
          'api-keys',
          'usage',
          'idempotency',
          'rate-limits',
          'marks',
          'mark-keys',
          'tro-brands',
          'data-batches',
          'allowlists',
          'feedback',
          'watch-items',
          'watch-alerts',
          'webhooks',
        ].map((t) => `tmk-prod-${t}-table-throttles`),
      ].sort(),
    );
  });

  it('near timeout: the maximum duration of each metered function above 80% of its 15 s timeout', () => {
    for (const fn of ['batch-screen', 'image-search']) {
      const a = alarm(prod, `tmk-prod-${fn}-near-timeout`);
      expect(a.Properties).toMatchObject({
        MetricName: 'Duration',
        Namespace: 'AWS/Lambda',
        Statistic: 'Maximum',
        Threshold: 12_000,
        ComparisonOperator: 'GreaterThanThreshold',
      });
    }
  });

  it('refund failed: one failed refund in 5 minutes fires, counted from the "refund failed" log line of both metered functions', () => {
    const a = alarm(prod, 'tmk-prod-refund-failed');
    expect(a.Properties).toMatchObject({
      MetricName: 'RefundFailed',
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
    });
    const filters = resourcesOfType(prod.statelessJson, 'AWS::Logs::MetricFilter');
    expect(filters).toHaveLength(2);
    for (const [, f] of filters) {
      expect(f.Properties!.FilterPattern).toBe('{ $.message = "refund failed" }');
      expect(f.Properties!.MetricTransformations).toEqual([
        { MetricNamespace: a.Properties!.Namespace, MetricName: 'RefundFailed', MetricValue: '1' },
      ]);
    }
  });

  it('errors: every function, 5 errors in 5 minutes', () => {
    const a = alarm(prod, 'tmk-prod-batch-screen-errors');
    expect(a.Properties).toMatchObject({
      MetricName: 'Errors',
      Namespace: 'AWS/Lambda',
      Statistic: 'Sum',
      Threshold: 5,
    });
  });

  it('table throttles: the throttled requests of the operations the service sends, on each table', () => {
    const a = alarm(prod, 'tmk-prod-usage-table-throttles');
    expect(a.Properties!.Metrics.filter((m: { MetricStat?: unknown }) => m.MetricStat)).toHaveLength(9);
    expect(a.Properties).toMatchObject({ Threshold: 10, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });

  it("functions: active tracing, and the environment's reserved concurrency on the API functions", () => {
    const prodApi = resourcesOfType(prod.statelessJson, 'AWS::Lambda::Function').filter(([id]) =>
      /BatchScreen|ImageSearch/.test(id),
    );
    expect(prodApi).toHaveLength(2);
    for (const [, fn] of prodApi) {
      expect(fn.Properties!.TracingConfig).toEqual({ Mode: 'Active' });
      expect(fn.Properties!.ReservedConcurrentExecutions).toBe(100);
    }
    for (const [, fn] of resourcesOfType(dev.statelessJson, 'AWS::Lambda::Function').filter(([id]) =>
      /BatchScreen|ImageSearch/.test(id),
    )) {
      expect(fn.Properties!.ReservedConcurrentExecutions).toBeUndefined();
    }
  });

  it('all notify the environment topic, when they fire and when they recover', () => {
    const [topicId] = onlyResource(prod.statelessJson, 'AWS::SNS::Topic', 'AlarmsTopic');
    for (const [, a] of resourcesOfType(prod.statelessJson, 'AWS::CloudWatch::Alarm')) {
      expect(a.Properties!.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(a.Properties!.OKActions).toEqual([{ Ref: topicId }]);
      // A freshness alarm's missing data is the very thing it watches for: a job with no successful run.
      const freshness = String(a.Properties!.AlarmName).endsWith('-stale');
      expect(a.Properties!.TreatMissingData).toBe(freshness ? 'breaching' : 'notBreaching');
    }
  });

  it('freshness: a scheduled data job with no successful run in 36 hours (six empty 6-hour periods)', () => {
    const a = alarm(prod, 'tmk-prod-data-uspto-daily-stale');
    expect(a.Properties).toMatchObject({
      Metrics: [
        {
          MetricStat: {
            Metric: {
              MetricName: 'DataJobSucceeded',
              Namespace: 'TrademarkRiskApi/prod',
              Dimensions: expect.arrayContaining([{ Name: 'job', Value: 'uspto-daily' }, SERVICE]),
            },
            Period: 6 * 3600,
            Stat: 'Sum',
          },
        },
      ],
      EvaluationPeriods: 6,
      DatapointsToAlarm: 6,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
    });
  });

  it('5xx rate: API Gateway 5xx over requests of the REST API, above the environment threshold', () => {
    const [, api] = onlyResource(prod.statelessJson, 'AWS::ApiGateway::RestApi', 'RestApi');
    const a = alarm(prod, 'tmk-prod-api-5xx-rate');
    expect(a.Properties).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
    });
    expect(alarm(dev, 'tmk-dev-api-5xx-rate').Properties!.Threshold).toBe(10);
    const metrics = a.Properties!.Metrics as {
      Id: string;
      Expression?: string;
      MetricStat?: {
        Metric: { MetricName: string; Namespace: string; Dimensions: unknown[] };
        Stat: string;
        Period: number;
      };
    }[];
    expect(metrics.find((m) => m.Expression)?.Expression).toBe('IF(requests > 0, 100 * errors / requests, 0)');
    const byId = Object.fromEntries(metrics.filter((m) => m.MetricStat).map((m) => [m.Id, m.MetricStat!]));
    for (const [id, metricName] of [
      ['errors', '5XXError'],
      ['requests', 'Count'],
    ] as const) {
      expect(byId[id]).toEqual({
        Metric: {
          Namespace: 'AWS/ApiGateway',
          MetricName: metricName,
          Dimensions: [{ Name: 'ApiName', Value: api.Properties!.Name }],
        },
        Period: 300,
        Stat: 'Sum',
      });
    }
  });

  it.each([
    ['batch-screen', 2000],
    ['image-search', 1500],
  ] as const)('p99 latency of %s above %i ms in prod, on the EMF Latency metric', (operation, threshold) => {
    const a = alarm(prod, `tmk-prod-${operation}-p99-latency`);
    expect(a.Properties).toMatchObject({
      Threshold: threshold,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
    });
    expect(a.Properties!.Metrics).toEqual([
      {
        Id: 'm1',
        Label: `${operation} p99`,
        ReturnData: true,
        MetricStat: {
          Metric: {
            Namespace: 'TrademarkRiskApi/prod',
            MetricName: 'Latency',
            Dimensions: [{ Name: 'operation', Value: operation }, SERVICE],
          },
          Period: 300,
          Stat: 'p99',
        },
      },
    ]);
  });

  it.each([
    ['batch-screen', 'BatchScreen'],
    ['image-search', 'ImageSearch'],
    ['ingest', 'Ingest'],
    ['not-found', 'NotFound'],
    ['account', 'Account'],
    ['usage', 'Usage'],
    ['get-allowlist', 'GetAllowlist'],
    ['put-allowlist', 'PutAllowlist'],
    ['feedback', 'Feedback'],
    ['put-watch', 'PutWatch'],
    ['get-watch', 'GetWatch'],
    ['delete-watch', 'DeleteWatch'],
    ['get-alerts', 'GetAlerts'],
    ['ack-alerts', 'AckAlerts'],
    ['put-webhook', 'PutWebhook'],
    ['get-webhook', 'GetWebhook'],
    ['delete-webhook', 'DeleteWebhook'],
    ['test-webhook', 'TestWebhook'],
    ['webhook-dead-letters', 'WebhookDeadLetters'],
    ['redeliver-webhook', 'RedeliverWebhook'],
    ['webhook-deliver', 'WebhookDeliver'],
    ['openapi', 'OpenApi'],
    ['status', 'Status'],
    ['docs', 'Docs'],
  ])('throttles of the %s function', (name, construct) => {
    expect(alarm(prod, `tmk-prod-${name}-throttles`).Properties).toEqual(
      expect.objectContaining({
        Namespace: 'AWS/Lambda',
        MetricName: 'Throttles',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionLogicalId(prod.statelessJson, construct) } }],
        Statistic: 'Sum',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      }),
    );
  });

  it('model unloadable: the first ModelUnloadable metric of image-search in 5 minutes', () => {
    const a = alarm(prod, 'tmk-prod-image-search-model-unloadable');
    expect(a.Properties).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
    const metrics = a.Properties!.Metrics as { MetricStat?: unknown }[];
    expect(metrics.map((m) => m.MetricStat)).toEqual([
      {
        Metric: {
          Namespace: 'TrademarkRiskApi/prod',
          MetricName: MODEL_UNLOADABLE_OUTCOME,
          Dimensions: [{ Name: 'operation', Value: 'image-search' }, SERVICE],
        },
        Period: 300,
        Stat: 'Sum',
      },
    ]);
  });

  it('degraded share: Degraded over successful image-search Requests, in percent', () => {
    const a = alarm(prod, 'tmk-prod-image-search-degraded-share');
    expect(a.Properties).toMatchObject({
      Threshold: 10,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 2,
    });
    const metrics = a.Properties!.Metrics as { Id: string; Expression?: string; MetricStat?: unknown }[];
    expect(metrics.find((m) => m.Expression)?.Expression).toBe('IF(searches > 0, 100 * degraded / searches, 0)');
    expect(Object.fromEntries(metrics.filter((m) => m.MetricStat).map((m) => [m.Id, m.MetricStat]))).toEqual({
      degraded: {
        Metric: {
          Namespace: 'TrademarkRiskApi/prod',
          MetricName: 'Degraded',
          Dimensions: [{ Name: 'operation', Value: 'image-search' }, SERVICE],
        },
        Period: 900,
        Stat: 'Sum',
      },
      searches: {
        Metric: {
          Namespace: 'TrademarkRiskApi/prod',
          MetricName: 'Requests',
          Dimensions: [{ Name: 'operation', Value: 'image-search' }, SERVICE, { Name: 'statusClass', Value: '2xx' }],
        },
        Period: 900,
        Stat: 'Sum',
      },
    });
  });

  it.each([
    ['ingest', 'IngestPipelineDeadLetters', 'tmk-prod-ingest-dead-letters'],
    ['watch-rescreen', 'DataEventsDeadLetters', 'tmk-prod-watch-rescreen-dead-letters'],
    ['webhook-deliver', 'WebhooksDeadLetters', 'tmk-prod-webhook-deliver-dead-letters'],
  ])('%s dead letters: one message waiting is enough', (_name, queue, alarmName) => {
    const [queueId] = onlyResource(prod.statelessJson, 'AWS::SQS::Queue', queue);
    expect(alarm(prod, alarmName).Properties).toEqual(
      expect.objectContaining({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
        Statistic: 'Maximum',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
      }),
    );
  });

  it('subscribes an e-mail address only when one is configured', () => {
    prod.stateless.resourceCountIs('AWS::SNS::Subscription', 0);
    expect(environmentConfig('prod', { alarmEmail: 'ops@example.com' }).alarmEmail).toBe('ops@example.com');
    prod.stateless.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('billing dashboard', () => {
  let widgets: DashboardWidget[];
  const titled = (title: string): DashboardWidget => {
    const found = widgets.filter((w) => w.properties.title === title);
    expect(found).toHaveLength(1);
    return found[0]!;
  };
  /** A widget's metric lines as `MetricName{dim=value,...}`, in the order CloudWatch draws them. */
  const lines = (widget: DashboardWidget): string[] =>
    (widget.properties.metrics ?? []).map((line) => {
      const options = line[line.length - 1];
      if (line.length === 1 && options && typeof options === 'object')
        return `expr:${(options as { expression: string }).expression}`;
      const [namespace, metricName, ...rest] = line as string[];
      const dims = rest.filter((x) => typeof x === 'string');
      const pairs: string[] = [];
      for (let i = 0; i < dims.length; i += 2) pairs.push(`${dims[i]}=${dims[i + 1]}`);
      return `${namespace}:${metricName}{${pairs.join(',')}}`;
    });

  beforeAll(() => {
    widgets = dashboardBody(prod).widgets;
  });

  it('has exactly the billing widgets', () => {
    expect(
      widgets
        .filter((w) => w.type === 'metric')
        .map((w) => w.properties.title)
        .sort(),
    ).toEqual(Object.values(WIDGET_TITLES).sort());
  });

  it('points charged by operation and tier: every operation x tier, stacked', () => {
    const widget = titled(WIDGET_TITLES.pointsByOperationAndTier);
    expect(widget.properties.stacked).toBe(true);
    expect(lines(widget)).toEqual(
      ['batch-screen', 'image-search'].flatMap((operation) =>
        TIERS.map(
          (tier) =>
            `TrademarkRiskApi/prod:PointsCharged{operation=${operation},service=trademark-risk-api,tier=${tier}}`,
        ),
      ),
    );
    expect(titled(WIDGET_TITLES.pointsTotal).properties.setPeriodToTimeRange).toBe(true);
  });

  it('requests by operation and status class', () => {
    expect(lines(titled(WIDGET_TITLES.requests))).toEqual(
      ['batch-screen', 'image-search'].flatMap((operation) =>
        ['2xx', '4xx', '5xx'].map(
          (statusClass) =>
            `TrademarkRiskApi/prod:Requests{operation=${operation},service=trademark-risk-api,statusClass=${statusClass}}`,
        ),
      ),
    );
  });

  it('items screened and image searches come from UnitsProcessed', () => {
    expect(lines(titled(WIDGET_TITLES.itemsScreened))).toEqual([
      'TrademarkRiskApi/prod:UnitsProcessed{operation=batch-screen,service=trademark-risk-api}',
    ]);
    expect(lines(titled(WIDGET_TITLES.imageSearches))).toEqual([
      'TrademarkRiskApi/prod:UnitsProcessed{operation=image-search,service=trademark-risk-api}',
      'TrademarkRiskApi/prod:Degraded{operation=image-search,service=trademark-risk-api}',
    ]);
  });

  it('degraded share is the same expression as the alarm', () => {
    const widgetLines = lines(titled(WIDGET_TITLES.degradedShare));
    expect(widgetLines[0]).toBe('expr:IF(searches > 0, 100 * degraded / searches, 0)');
    expect(widgetLines.slice(1)).toEqual([
      'TrademarkRiskApi/prod:Degraded{operation=image-search,service=trademark-risk-api}',
      'TrademarkRiskApi/prod:Requests{operation=image-search,service=trademark-risk-api,statusClass=2xx}',
    ]);
  });

  it('errors by code: a search over every code of the namespace', () => {
    expect(lines(titled(WIDGET_TITLES.errorsByCode))).toEqual([
      `expr:SEARCH('{"TrademarkRiskApi/prod",code,operation,service} MetricName="Errors" service="trademark-risk-api"', 'Sum', 300)`,
    ]);
  });

  it('latency percentiles p50, p90, p99 of both operations', () => {
    const widget = titled(WIDGET_TITLES.latency);
    const stats = (widget.properties.metrics ?? []).map((line) => (line[line.length - 1] as { stat: string }).stat);
    expect(stats).toEqual(['batch-screen', 'image-search'].flatMap(() => [...LATENCY_STATISTICS]));
    expect(new Set(lines(widget))).toEqual(
      new Set(
        ['batch-screen', 'image-search'].map(
          (operation) => `TrademarkRiskApi/prod:Latency{operation=${operation},service=trademark-risk-api}`,
        ),
      ),
    );
  });

  it('is per environment: dev reads its own namespace', () => {
    const devWidgets = dashboardBody(dev).widgets;
    const devLines = devWidgets.flatMap((w) => (w.properties.metrics ?? []).map((l) => JSON.stringify(l)));
    expect(devLines.some((l) => l.includes('TrademarkRiskApi/dev'))).toBe(true);
    expect(devLines.some((l) => l.includes('TrademarkRiskApi/prod'))).toBe(false);
  });
});
