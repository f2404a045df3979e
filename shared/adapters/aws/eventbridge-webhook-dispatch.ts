/**
 * Webhook events handed to their delivery as EventBridge events on the service's webhook bus: source
 * `trademark-risk.webhooks`, detail type `Webhook delivery due`, the event (account, event id, body) as the detail.
 * The webhook-deliver function's rule matches exactly these; the rule and Lambda retry, then a dead-letter queue.
 */
import { type EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { WebhookDispatch } from '../../ports';
import type { WebhookJob } from '../../webhooks/webhook';

export const WEBHOOK_EVENT_SOURCE = 'trademark-risk.webhooks';
export const WEBHOOK_DUE_DETAIL_TYPE = 'Webhook delivery due';

export class WebhookEventNotSentError extends Error {}

export class EventBridgeWebhookDispatch implements WebhookDispatch {
  constructor(
    private readonly client: Pick<EventBridgeClient, 'send'>,
    private readonly busName: string,
  ) {}

  async dispatch(job: WebhookJob): Promise<void> {
    const out = await this.client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: this.busName,
            Source: WEBHOOK_EVENT_SOURCE,
            DetailType: WEBHOOK_DUE_DETAIL_TYPE,
            Detail: JSON.stringify(job),
          },
        ],
      }),
    );
    // PutEvents answers 200 with the entry refused (throttled, too large ...): that is a failure too.
    if (out.FailedEntryCount) {
      const entry = out.Entries?.[0];
      throw new WebhookEventNotSentError(
        `the webhook event ${job.eventId} was not handed over: ${entry?.ErrorCode ?? 'refused'} ${entry?.ErrorMessage ?? ''}`.trim(),
      );
    }
  }
}
