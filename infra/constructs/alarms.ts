/**
 * The alarms of one environment, all sent to one SNS topic: API 5xx rate, p99 latency per operation, Lambda
 * throttles and errors per function, the metered functions' duration near their timeout, DynamoDB throttles per
 * table, refunds that failed (the one sign of points owed back), the degraded share of image searches, an image
 * search model that cannot be loaded, and messages on the ingest dead-letter queue.
 */
import { Duration } from 'aws-cdk-lib';
import { Operation, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterPattern, MetricFilter, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  TreatMissingData,
  type IMetric,
  type MetricOptions,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { AlarmThresholds } from '../config/environments';
import { REFUND_FAILED_MESSAGE } from '../../shared/http/debit-points';
import type { FunctionId } from './bundling';
import { OPERATIONS, type ServiceMetrics } from './service-metrics';

export interface ServiceAlarmsProps {
  prefix: string;
  thresholds: AlarmThresholds;
  metrics: ServiceMetrics;
  /** The API whose 5xx share is watched (its stage's metrics). */
  api: { metricServerError(props?: MetricOptions): IMetric; metricCount(props?: MetricOptions): IMetric };
  /** The functions whose errors and throttling are alarmed on: every one. */
  functions: Partial<Record<FunctionId, IFunction>>;
  ingestDeadLetters: IQueue;
  /** Completed-batch events the re-screen of watched catalogues could not take (infra/constructs/watch-rescreen.ts). */
  rescreenDeadLetters: IQueue;
  /** Webhook events the deliverer could not take (infra/constructs/webhook-delivery.ts). */
  webhookDeadLetters: IQueue;
  alarmEmail?: string;
  /** The functions that charge points: their timeout, and the log group where a failed refund is logged. */
  metered: { id: FunctionId; fn: IFunction; logGroup: ILogGroup; timeout: Duration }[];
  tables: Record<string, ITable>;
}

/** The operations the service sends (an alarm's math expression takes at most 10 metrics). */
const THROTTLE_WATCHED_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.QUERY,
  Operation.SCAN,
  Operation.BATCH_GET_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
];

export class ServiceAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    const { prefix, thresholds, metrics } = props;
    this.topic = new Topic(this, 'Topic', { displayName: `${prefix} alarms`, enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    const fiveMinutes = Duration.minutes(5);
    const serverErrorRate = new MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: props.api.metricServerError({ period: fiveMinutes, statistic: 'Sum' }),
        requests: props.api.metricCount({ period: fiveMinutes, statistic: 'Sum' }),
      },
      period: fiveMinutes,
      label: '5xx rate (%)',
    });
    this.add('ServerErrorRate', {
      name: `${prefix}-api-5xx-rate`,
      description: `More than ${thresholds.serverErrorRatePercent}% of API requests answered 5xx (5-minute windows).`,
      metric: serverErrorRate,
      threshold: thresholds.serverErrorRatePercent,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
    });

    for (const operation of OPERATIONS) {
      this.add(`P99Latency-${operation}`, {
        name: `${prefix}-${operation}-p99-latency`,
        description: `p99 latency of ${operation} above ${thresholds.p99LatencyMs[operation]} ms (5-minute windows).`,
        metric: metrics.latency(operation, 'p99', fiveMinutes),
        threshold: thresholds.p99LatencyMs[operation],
        comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
    }

    for (const [functionId, fn] of Object.entries(props.functions) as [FunctionId, IFunction][]) {
      this.add(`Throttles-${functionId}`, {
        name: `${prefix}-${functionId}-throttles`,
        description: `The ${functionId} function was throttled ${thresholds.throttles} times or more in 5 minutes.`,
        metric: fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum' }),
        threshold: thresholds.throttles,
        comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
    }

    this.addFunctionErrors(props);
    this.addMeteredAlarms(props);
    this.addTableThrottles(props);

    this.add('DegradedShare', {
      name: `${prefix}-image-search-degraded-share`,
      description: `More than ${thresholds.degradedSharePercent}% of image searches answered from the degraded index (15-minute windows): check the CLIP endpoint.`,
      metric: metrics.degradedShare(Duration.minutes(15)),
      threshold: thresholds.degradedSharePercent,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
    });

    this.add('ModelUnloadable', {
      name: `${prefix}-image-search-model-unloadable`,
      description:
        'The learned logo embedder could not be loaded (its model file missing or corrupt in the image-search bundle): every search is answered from the degraded index. Read the "logo model unloadable" warning in the function log.',
      metric: metrics.modelUnloadable(fiveMinutes),
      threshold: 1,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });

    this.add('IngestDeadLetters', {
      name: `${prefix}-ingest-dead-letters`,
      description: 'A data batch failed ingest after its retries: read the message on the dead-letter queue.',
      metric: props.ingestDeadLetters.metricApproximateNumberOfMessagesVisible({
        period: fiveMinutes,
        statistic: 'Maximum',
      }),
      threshold: thresholds.ingestDeadLetters,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });

    this.add('WatchRescreenDeadLetters', {
      name: `${prefix}-watch-rescreen-dead-letters`,
      description:
        'A completed data batch was not re-screened after its retries (watched titles raised no alerts for it): read the event on the dead-letter queue and send it to the bus again.',
      metric: props.rescreenDeadLetters.metricApproximateNumberOfMessagesVisible({
        period: fiveMinutes,
        statistic: 'Maximum',
      }),
      threshold: 1,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });

    this.add('WebhookDeliverDeadLetters', {
      name: `${prefix}-webhook-deliver-dead-letters`,
      description:
        "A batch of alerts was not delivered to a seller's webhook after its retries, for a fault of ours (not the receiver's): read the event on the dead-letter queue and send it to the bus again.",
      metric: props.webhookDeadLetters.metricApproximateNumberOfMessagesVisible({
        period: fiveMinutes,
        statistic: 'Maximum',
      }),
      threshold: 1,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
  }

  /** Every function: failures (uncaught, or stopped at its timeout). */
  private addFunctionErrors(props: ServiceAlarmsProps): void {
    const { prefix, thresholds } = props;
    const fiveMinutes = Duration.minutes(5);
    for (const [functionId, fn] of Object.entries(props.functions) as [FunctionId, IFunction][]) {
      this.add(`Errors-${functionId}`, {
        name: `${prefix}-${functionId}-errors`,
        description: `The ${functionId} function failed ${thresholds.functionErrors} times or more in 5 minutes (uncaught, or stopped at its timeout).`,
        metric: fn.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
        threshold: thresholds.functionErrors,
        comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
    }
  }

  /** The functions that charge points: duration near their timeout, and refunds that failed. */
  private addMeteredAlarms(props: ServiceAlarmsProps): void {
    const { prefix, thresholds } = props;
    const fiveMinutes = Duration.minutes(5);
    const refundFilters: MetricFilter[] = [];
    for (const { id: functionId, fn, logGroup, timeout } of props.metered) {
      const limitMs = (timeout.toMilliseconds() * thresholds.durationOfTimeoutPercent) / 100;
      this.add(`NearTimeout-${functionId}`, {
        name: `${prefix}-${functionId}-near-timeout`,
        description: `The ${functionId} function ran longer than ${thresholds.durationOfTimeoutPercent}% of its ${timeout.toSeconds()} s timeout: its deadline margin is being eaten.`,
        metric: fn.metricDuration({ period: fiveMinutes, statistic: 'Maximum' }),
        threshold: limitMs,
        comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
      });
      // Both metered functions count into one metric: a failed refund is one whichever function failed it.
      refundFilters.push(
        new MetricFilter(this, `RefundFailedFilter-${functionId}`, {
          logGroup,
          filterPattern: FilterPattern.stringValue('$.message', '=', REFUND_FAILED_MESSAGE),
          metricNamespace: props.metrics.namespace,
          metricName: 'RefundFailed',
          metricValue: '1',
        }),
      );
    }
    this.add('RefundFailed', {
      name: `${prefix}-refund-failed`,
      description:
        'A charge could not be refunded: the log line "refund failed" names the usage record; `npm run admin -- refund` gives it back.',
      metric: refundFilters[0]!.metric({ period: fiveMinutes, statistic: 'Sum' }),
      threshold: 1,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
  }

  /** DynamoDB throttles, table by table. */
  private addTableThrottles(props: ServiceAlarmsProps): void {
    const { prefix, thresholds } = props;
    const fiveMinutes = Duration.minutes(5);
    for (const [tableId, table] of Object.entries(props.tables)) {
      this.add(`TableThrottles-${tableId}`, {
        name: `${prefix}-${tableId}-table-throttles`,
        description: `DynamoDB throttled ${thresholds.tableThrottles} requests or more in 5 minutes on the ${tableId} table.`,
        metric: table.metricThrottledRequestsForOperations({
          period: fiveMinutes,
          operations: THROTTLE_WATCHED_OPERATIONS,
        }),
        threshold: thresholds.tableThrottles,
        comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
    }
  }

  private add(
    id: string,
    spec: {
      name: string;
      description: string;
      metric: IMetric;
      threshold: number;
      comparison: ComparisonOperator;
      evaluationPeriods?: number;
    },
  ): void {
    const evaluationPeriods = spec.evaluationPeriods ?? 3;
    const alarm = new Alarm(this, id, {
      alarmName: spec.name,
      alarmDescription: spec.description,
      metric: spec.metric,
      threshold: spec.threshold,
      comparisonOperator: spec.comparison,
      evaluationPeriods,
      datapointsToAlarm: Math.min(evaluationPeriods, 2),
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    alarm.addOkAction(new SnsAction(this.topic));
    this.alarms.push(alarm);
  }
}
