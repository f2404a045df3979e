/**
 * The CloudWatch metrics the functions emit as EMF lines (shared/http/request-metrics.ts), as CDK metric objects.
 * Powertools adds a `service` dimension to every metric, so each one here carries it too; a metric is only found
 * with its exact set of dimensions.
 */
import { Duration } from 'aws-cdk-lib';
import { MathExpression, Metric, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { FunctionName } from '../../functions/routes';
import { MODEL_UNLOADABLE_OUTCOME } from '../../functions/image-search/outcomes';
import { JOB_SUCCEEDED_METRIC } from '../../shared/data-jobs/job-metrics';
import type { DataJobName } from '../../shared/data-jobs/jobs';

export const OPERATIONS = ['batch-screen', 'image-search'] as const satisfies readonly FunctionName[];
export const STATUS_CLASSES = ['2xx', '4xx', '5xx'] as const;

export class ServiceMetrics {
  constructor(
    readonly namespace: string,
    readonly serviceName: string,
  ) {}

  private metric(
    metricName: string,
    dimensions: Record<string, string>,
    statistic: string,
    period: Duration,
    label?: string,
  ): Metric {
    return new Metric({
      namespace: this.namespace,
      metricName,
      dimensionsMap: { service: this.serviceName, ...dimensions },
      statistic,
      period,
      ...(label ? { label } : {}),
    });
  }

  requests(
    operation: FunctionName,
    statusClass: (typeof STATUS_CLASSES)[number],
    period = Duration.minutes(5),
  ): Metric {
    return this.metric('Requests', { operation, statusClass }, 'Sum', period, `${operation} ${statusClass}`);
  }

  latency(operation: FunctionName, statistic: string, period = Duration.minutes(5)): Metric {
    return this.metric('Latency', { operation }, statistic, period, `${operation} ${statistic}`);
  }

  pointsCharged(operation: FunctionName, tier: string, period = Duration.hours(1)): Metric {
    return this.metric('PointsCharged', { operation, tier }, 'Sum', period, `${operation} / ${tier}`);
  }

  unitsProcessed(operation: FunctionName, period = Duration.hours(1), label?: string): Metric {
    return this.metric('UnitsProcessed', { operation }, 'Sum', period, label);
  }

  /** Image searches answered from the degraded (perceptual) index. */
  degraded(period = Duration.minutes(15)): Metric {
    return this.metric('Degraded', { operation: 'image-search' }, 'Sum', period, 'degraded');
  }

  /**
   * Image searches answered degraded because the learned embedder's model could not be loaded (missing or corrupt in
   * the function's bundle): functions/image-search/handler.ts, MODEL_UNLOADABLE_OUTCOME.
   */
  modelUnloadable(period = Duration.minutes(5)): Metric {
    return this.metric(MODEL_UNLOADABLE_OUTCOME, { operation: 'image-search' }, 'Sum', period, 'model unloadable');
  }

  /** Percentage of successful image searches that were degraded; 0 when there were none. */
  degradedShare(period = Duration.minutes(15)): MathExpression {
    return new MathExpression({
      expression: 'IF(searches > 0, 100 * degraded / searches, 0)',
      usingMetrics: { degraded: this.degraded(period), searches: this.requests('image-search', '2xx', period) },
      period,
      label: 'degraded share (%)',
    });
  }

  /** Every error code of every operation, found by a search (the codes are many and may grow). */
  errorsByCode(period = Duration.minutes(5)): IMetric {
    return new MathExpression({
      expression: `SEARCH('{"${this.namespace}",code,operation,service} MetricName="Errors" service="${this.serviceName}"', 'Sum', ${period.toSeconds()})`,
      usingMetrics: {},
      period,
      label: '',
    });
  }

  /** Successful runs of a data job (shared/data-jobs/job-metrics.ts): what the freshness alarm and widget watch. */
  jobSucceeded(job: DataJobName, period = Duration.hours(6)): Metric {
    return this.metric(JOB_SUCCEEDED_METRIC, { job }, 'Sum', period, `${job} succeeded`);
  }
}
