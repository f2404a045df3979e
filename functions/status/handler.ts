/**
 * GET /v1/status: how fresh the data is, per market and source (functions/status/status.ts). No key, no points.
 * The body is kept for STATUS_CACHE_SECONDS in the warm instance, so that a burst of calls reads the stores once.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { buildDataJobStore, buildDataStores } from '../../shared/composition/data-stores';
import { documentClientOf } from '../../shared/composition/metering';
import { loadConfig } from '../../shared/config';
import { lazyHandler } from '../../shared/http/api-handler';
import { errorEnvelope } from '../../shared/http/error-envelope';
import { jsonResponse } from '../../shared/http/headers';
import { requestLogging } from '../../shared/http/request-logging';
import type { ApiEvent, ApiHandler, ApiResult, RequestState } from '../../shared/http/types';
import { createLogger, type Logger } from '../../shared/observability';
import { readStatusFacts, type StatusStores, statusBody } from './status';

export const STATUS_CACHE_SECONDS = 30;
export const STATUS_HEADERS = { 'Cache-Control': 'public, max-age=60', 'Access-Control-Allow-Origin': '*' } as const;

export interface StatusDependencies {
  stores: StatusStores;
  logger: Logger;
  /** The function answers (503) this long before its deadline when the stores are slow. */
  deadlineMarginMs: number;
  now?: () => Date;
}

export function statusHandler(deps: StatusDependencies): ApiHandler {
  const now = deps.now ?? (() => new Date());
  let cached: { at: number; body: Promise<string> } | undefined;

  const serveStatus = async (): Promise<ApiResult> => {
    const at = now();
    if (!cached || at.getTime() - cached.at >= STATUS_CACHE_SECONDS * 1000) {
      const body = readStatusFacts(deps.stores).then((facts) => JSON.stringify(statusBody(facts, at)));
      const entry = { at: at.getTime(), body };
      cached = entry;
      // A failed read is not kept: the next call reads again.
      body.catch(() => {
        if (cached === entry) cached = undefined;
      });
    }
    const body = await cached.body;
    return { ...jsonResponse(200, null, { ...STATUS_HEADERS }), body };
  };

  return middy<ApiEvent, ApiResult, Error, Context, RequestState>({ timeoutEarlyInMillis: deps.deadlineMarginMs })
    .use([requestLogging({ logger: deps.logger, operation: 'status' }), errorEnvelope({ logger: deps.logger })])
    .handler(serveStatus);
}

export const handler = lazyHandler(() => {
  const config = loadConfig();
  const doc = documentClientOf(config);
  const { batches, keyFilters, tro } = buildDataStores(config, doc);
  return statusHandler({
    stores: { batches, keyFilters, tro, jobs: buildDataJobStore(config, doc) },
    logger: createLogger(config.serviceName),
    deadlineMarginMs: config.http.deadlineMarginMs,
  });
});
