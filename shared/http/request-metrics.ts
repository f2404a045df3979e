/**
 * Billing and health metrics as CloudWatch EMF lines (Powertools Metrics): requests and errors by operation and
 * code, points charged by operation and tier, units (items screened, images searched), latency, and the outcomes
 * an operation reports (`Degraded` for an image search answered by the fallback).
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Metrics } from '../observability';
import { errorCodeOf } from './request-logging';
import type { ApiMiddleware, ApiRequest } from './types';

type Unit = Parameters<Metrics['addMetric']>[1];

export function requestMetrics(options: { metrics: Metrics; now?: () => number }): ApiMiddleware {
  const now = options.now ?? Date.now;

  const emit = (request: ApiRequest): void => {
    const state = request.internal;
    const response = request.response;
    if (!response || !state.operation) return;
    const status = response.statusCode;
    const one = (name: string, value: number, unit: Unit, dimensions: Record<string, string>) => {
      const metric = options.metrics.singleMetric();
      for (const [key, dimension] of Object.entries(dimensions)) metric.addDimension(key, dimension);
      metric.addMetric(name, unit, value);
    };
    one('Requests', 1, MetricUnit.Count, { operation: state.operation, statusClass: `${Math.floor(status / 100)}xx` });
    one('Latency', now() - state.startedAt, MetricUnit.Milliseconds, { operation: state.operation });
    if (status >= 400)
      one('Errors', 1, MetricUnit.Count, { operation: state.operation, code: errorCodeOf(response.body) ?? 'unknown' });
    if (status < 400)
      for (const outcome of state.outcomes ?? []) one(outcome, 1, MetricUnit.Count, { operation: state.operation });
    const charged = state.charge?.debit && !state.charge.refunded;
    if (charged && state.caller) {
      one('PointsCharged', state.charge!.points, MetricUnit.Count, {
        operation: state.operation,
        tier: state.caller.tier,
      });
      one('UnitsProcessed', state.charge!.units, MetricUnit.Count, { operation: state.operation });
    }
  };

  return { after: emit, onError: emit };
}
