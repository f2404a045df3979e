/**
 * Webhooks: the store (the webhook routes, the re-screen, the deliverer) and where alert events are handed for
 * delivery: the webhook bus in AWS (WEBHOOK_EVENT_BUS_NAME, to the webhook-deliver function), the process otherwise.
 * Certificates are always verified against the system's roots and URLs always held to the public-address rules
 * here: a test that delivers to its own local receiver builds its own settings (trustedCa, allowAddress).
 */
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { DynamoDbWebhookStore } from '../adapters/aws/dynamodb-webhook-store';
import { EventBridgeWebhookDispatch } from '../adapters/aws/eventbridge-webhook-dispatch';
import { InProcessWebhookDispatch } from '../adapters/local/in-process-webhook-dispatch';
import { type AppConfig, loadConfig } from '../config';
import { createLogger } from '../observability';
import type { WebhookDispatch, WebhookStore } from '../ports';
import { documentClientOf } from './metering';

export function buildWebhookStore(config: AppConfig, doc = documentClientOf(config)): WebhookStore {
  return new DynamoDbWebhookStore(doc, config.tables.webhooks);
}

export function buildWebhookDispatch(config: AppConfig, store: WebhookStore): WebhookDispatch {
  if (config.webhookEvents)
    return new EventBridgeWebhookDispatch(
      new EventBridgeClient({ region: config.region }),
      config.webhookEvents.busName,
    );
  const logger = createLogger(config.serviceName);
  return new InProcessWebhookDispatch(store, {
    onDelivered: (job, outcome) => logger.info('webhook event handled', { eventId: job.eventId, outcome }),
    onError: (error, job) => logger.error('webhook event failed', { eventId: job.eventId, error }),
  });
}

let processStore: WebhookStore | undefined;
let processDispatch: WebhookDispatch | undefined;

export function webhookStore(): WebhookStore {
  processStore ??= buildWebhookStore(loadConfig());
  return processStore;
}

export function webhookDispatch(): WebhookDispatch {
  processDispatch ??= buildWebhookDispatch(loadConfig(), webhookStore());
  return processDispatch;
}
