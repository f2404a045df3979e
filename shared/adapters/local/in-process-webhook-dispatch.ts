/**
 * Webhook events delivered within the process (the local stand-in for the EventBridge rule and the webhook-deliver
 * function): `dispatch` starts the delivery and returns at once, so the re-screen never waits on a receiver; each
 * event is delivered on its own (a slow receiver's retries hold up no other). A failure goes to `onError`.
 */
import type { WebhookDispatch, WebhookStore } from '../../ports';
import { type DeliverySettings, deliverEvent, type EventOutcome } from '../../webhooks/deliver-event';
import type { WebhookJob } from '../../webhooks/webhook';

export class InProcessWebhookDispatch implements WebhookDispatch {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly store: WebhookStore,
    private readonly options: {
      settings?: DeliverySettings;
      onDelivered?: (job: WebhookJob, outcome: EventOutcome) => void;
      onError: (error: unknown, job: WebhookJob) => void;
    },
  ) {}

  async dispatch(job: WebhookJob): Promise<void> {
    const delivery = deliverEvent(this.store, job, this.options.settings)
      .then((outcome) => this.options.onDelivered?.(job, outcome))
      .catch((error: unknown) => this.options.onError(error, job))
      .finally(() => this.running.delete(delivery));
    this.running.add(delivery);
  }

  /** Resolves when every delivery started so far has ended (tests, and a clean stop). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }
}
