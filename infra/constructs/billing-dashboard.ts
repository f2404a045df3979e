/**
 * The billing dashboard of one environment, built from the metrics the functions emit: points charged by
 * operation and tier, requests, items screened, image searches, the degraded share, errors by code and latency
 * percentiles; plus the ingest pipeline's health.
 */
import { Duration } from 'aws-cdk-lib';
import {
  Dashboard,
  GraphWidget,
  GraphWidgetView,
  SingleValueWidget,
  TextWidget,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { DataJobName } from '../../shared/data-jobs/jobs';
import { TIERS } from '../../shared/metering/tiers';
import { OPERATIONS, STATUS_CLASSES, type ServiceMetrics } from './service-metrics';

export interface BillingDashboardProps {
  dashboardName: string;
  envName: string;
  metrics: ServiceMetrics;
  ingest: IFunction;
  ingestDeadLetters: IQueue;
  /** The scheduled data jobs whose successful runs the freshness widget shows. */
  dataJobs?: readonly DataJobName[];
}

/** Widget titles, also what the tests look for. */
export const WIDGET_TITLES = {
  pointsByOperationAndTier: 'Points charged by operation and tier',
  pointsTotal: 'Points charged (dashboard range)',
  requests: 'Requests by operation and status class',
  itemsScreened: 'Items screened (batch-screen)',
  imageSearches: 'Image searches',
  degradedShare: 'Degraded share of image searches (%)',
  errorsByCode: 'Errors by code',
  latency: 'Latency percentiles (ms)',
  ingest: 'Ingest',
  dataFreshness: 'Data freshness: successful data-job runs (none for 36 h raises the alarm)',
} as const;

export const LATENCY_STATISTICS = ['p50', 'p90', 'p99'] as const;

export class BillingDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: BillingDashboardProps) {
    super(scope, id);
    const m = props.metrics;
    const hour = Duration.hours(1);
    const fiveMinutes = Duration.minutes(5);

    const pointsByOperationAndTier: IMetric[] = OPERATIONS.flatMap((operation) =>
      TIERS.map((tier) => m.pointsCharged(operation, tier, hour)),
    );

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.days(7),
    });

    this.dashboard.addWidgets(
      new TextWidget({
        markdown: `# Trademark-risk API: ${props.envName}\nPoints and units are what the metered chain charged (refunded calls excluded). Metrics namespace \`${m.namespace}\`.`,
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: WIDGET_TITLES.pointsByOperationAndTier,
        left: pointsByOperationAndTier,
        stacked: true,
        width: 16,
        height: 6,
      }),
      new SingleValueWidget({
        title: WIDGET_TITLES.pointsTotal,
        metrics: pointsByOperationAndTier,
        setPeriodToTimeRange: true,
        width: 8,
        height: 6,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: WIDGET_TITLES.requests,
        left: OPERATIONS.flatMap((operation) =>
          STATUS_CLASSES.map((statusClass) => m.requests(operation, statusClass, fiveMinutes)),
        ),
        width: 12,
        height: 6,
      }),
      new GraphWidget({
        title: WIDGET_TITLES.itemsScreened,
        left: [m.unitsProcessed('batch-screen', hour, 'items screened')],
        view: GraphWidgetView.TIME_SERIES,
        width: 6,
        height: 6,
      }),
      new GraphWidget({
        title: WIDGET_TITLES.imageSearches,
        left: [m.unitsProcessed('image-search', hour, 'charged searches'), m.degraded(hour)],
        width: 6,
        height: 6,
      }),
    );
    this.addHealthRows(props, fiveMinutes, hour);
  }

  /** Degraded share, errors by code and latency; then ingest and its dead letters. */
  private addHealthRows(props: BillingDashboardProps, fiveMinutes: Duration, hour: Duration): void {
    const m = props.metrics;
    this.dashboard.addWidgets(
      new GraphWidget({
        title: WIDGET_TITLES.degradedShare,
        left: [m.degradedShare(Duration.minutes(15))],
        leftYAxis: { min: 0, max: 100 },
        width: 8,
        height: 6,
      }),
      new GraphWidget({
        title: WIDGET_TITLES.errorsByCode,
        left: [m.errorsByCode(fiveMinutes)],
        stacked: true,
        width: 8,
        height: 6,
      }),
      new GraphWidget({
        title: WIDGET_TITLES.latency,
        left: OPERATIONS.flatMap((operation) =>
          LATENCY_STATISTICS.map((statistic) => m.latency(operation, statistic, fiveMinutes)),
        ),
        width: 8,
        height: 6,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: WIDGET_TITLES.ingest,
        left: [props.ingest.metricInvocations({ period: hour }), props.ingest.metricErrors({ period: hour })],
        right: [
          props.ingestDeadLetters.metricApproximateNumberOfMessagesVisible({
            period: fiveMinutes,
            statistic: 'Maximum',
            label: 'dead letters',
          }),
        ],
        width: 24,
        height: 6,
      }),
    );
    if (props.dataJobs?.length) {
      this.dashboard.addWidgets(
        new GraphWidget({
          title: WIDGET_TITLES.dataFreshness,
          left: props.dataJobs.map((job) => m.jobSucceeded(job)),
          leftYAxis: { min: 0 },
          width: 24,
          height: 6,
        }),
      );
    }
  }
}
