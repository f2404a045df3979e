/**
 * Logger, metrics and tracer, built once per process. The tracer (X-Ray) is active in Lambda only (Powertools turns
 * it off elsewhere); it records each invocation and the AWS SDK calls of the clients given to `traced`. Secrets never reach a log line: the JSON replacer drops any
 * `authorization` field and masks anything shaped like an API key or a bearer credential, wherever it appears.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';

// Any case: a key upper-cased by a client or a proxy still gives most of its secret away.
const API_KEY_SHAPE = /tmk_[a-z][a-z0-9]{0,15}_[0-9a-z]{4,}/gi;
const BEARER_SHAPE = /(bearer\s+)[^\s"',]+/gi;

export function redactSecrets(text: string): string {
  return text.replace(BEARER_SHAPE, '$1[REDACTED]').replace(API_KEY_SHAPE, (key) => `${key.slice(0, key.lastIndexOf('_') + 1)}[REDACTED]`);
}

export function redactingReplacer(key: string, value: unknown): unknown {
  if (key.toLowerCase() === 'authorization') return '[REDACTED]';
  return typeof value === 'string' ? redactSecrets(value) : value;
}

export function createLogger(serviceName: string): Logger {
  return new Logger({ serviceName, jsonReplacerFn: redactingReplacer });
}

export function createMetrics(serviceName: string, namespace: string): Metrics {
  return new Metrics({ serviceName, namespace });
}

let processTracer: Tracer | undefined;

/** One tracer per process: every client and handler of the process reports into the same trace. */
export function createTracer(serviceName: string): Tracer {
  processTracer ??= new Tracer({ serviceName, captureHTTPsRequests: false });
  return processTracer;
}

/** An AWS SDK v3 client whose calls appear as subsegments of the invocation's trace. */
export function traced<T>(tracer: Tracer, client: T): T {
  return tracer.captureAWSv3Client(client);
}

export type { Logger, Metrics, Tracer };
