/**
 * Logger and metrics, built once per process (the tracer is in tracing.ts: the X-Ray SDK is heavy, and only the
 * functions that call AWS services load it). Secrets never reach a log line: the JSON replacer drops any
 * `authorization` field and masks anything shaped like an API key, a webhook signing secret or a bearer credential,
 * wherever it appears.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

// Any case: a key upper-cased by a client or a proxy still gives most of its secret away.
const API_KEY_SHAPE = /tmk_[a-z][a-z0-9]{0,15}_[0-9a-z]{4,}/gi;
const BEARER_SHAPE = /(bearer\s+)[^\s"',]+/gi;
const WEBHOOK_SECRET_SHAPE = /whsec_[A-Za-z0-9_-]{4,}/g;

export function redactSecrets(text: string): string {
  return text
    .replace(BEARER_SHAPE, '$1[REDACTED]')
    .replace(WEBHOOK_SECRET_SHAPE, 'whsec_[REDACTED]')
    .replace(API_KEY_SHAPE, (key) => `${key.slice(0, key.lastIndexOf('_') + 1)}[REDACTED]`);
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

export type { Logger, Metrics };
