/**
 * The delivery of alerts to sellers' webhooks: the re-screen puts one event per batch of alerts on the environment's
 * webhook bus `<prefix>-webhooks` (source `trademark-risk.webhooks`, detail type `Webhook delivery due`; only the
 * re-screen and the redeliver route, which re-queues dead letters, may put events there, and neither may put any on
 * the data bus), and a rule sends exactly those to the
 * webhook-deliver function, which signs, tries with backoff and keeps a per-account dead letter after the last try
 * (shared/webhooks/deliver-event.ts). So a slow or failing receiver never holds up the re-screen.
 *
 * - An event the rule cannot deliver, and a run of the function that still fails after Lambda's retries (a store
 *   failure, a delivery still held by another run), land on one SQS dead-letter queue for an operator. A receiver
 *   that fails is no such failure: it ends in the account's own dead letters, which the account reads.
 * - A repeated event is dropped by the delivery's claim in the webhooks table: an alert is sent once per batch.
 */
import { Duration } from 'aws-cdk-lib';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { WEBHOOK_DUE_DETAIL_TYPE, WEBHOOK_EVENT_SOURCE } from '../../shared/adapters/aws/eventbridge-webhook-dispatch';
import type { ApiFunction } from './api-function';

/** The variable shared/config.ts reads the webhook bus's name from. */
export const WEBHOOK_EVENT_BUS_ENV = 'WEBHOOK_EVENT_BUS_NAME';

export interface WebhookDeliveryProps {
  prefix: string;
  deliver: ApiFunction;
  /** The functions that hand events over: the re-screen (alerts), the redeliver route (re-queued dead letters). */
  dispatchers: ApiFunction[];
}

export class WebhookDelivery extends Construct {
  readonly bus: EventBus;
  readonly rule: Rule;
  readonly deadLetters: Queue;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    this.bus = new EventBus(this, 'WebhookBus', { eventBusName: `${props.prefix}-webhooks` });
    this.deadLetters = new Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    props.deliver.fn.configureAsyncInvoke({
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      onFailure: new SqsDestination(this.deadLetters),
    });
    this.rule = new Rule(this, 'DeliveryDue', {
      eventBus: this.bus,
      description: "A batch of a seller's alerts to deliver to its webhook",
      eventPattern: { source: [WEBHOOK_EVENT_SOURCE], detailType: [WEBHOOK_DUE_DETAIL_TYPE] },
      targets: [
        new LambdaFunction(props.deliver.fn, {
          retryAttempts: 8,
          maxEventAge: Duration.hours(6),
          deadLetterQueue: this.deadLetters,
        }),
      ],
    });
    for (const dispatcher of props.dispatchers) {
      this.bus.grantPutEventsTo(dispatcher.fn);
      dispatcher.fn.addEnvironment(WEBHOOK_EVENT_BUS_ENV, this.bus.eventBusName);
    }
    NagSuppressions.addResourceSuppressions(this.deadLetters, [
      {
        id: 'AwsSolutions-SQS3',
        reason:
          "This queue is the dead-letter queue: of the rule's undeliverable events and of the deliver function's failed runs, read by an operator.",
      },
      {
        id: 'Serverless-SQSRedrivePolicy',
        reason: 'This queue is itself a dead-letter queue; nothing consumes it, so it has nowhere to redrive to.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(props.deliver.fn, [
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'Invoked asynchronously by EventBridge with an on-failure destination (the dead-letter queue above): a failed event lands there after its retries.',
      },
    ]);
  }
}
