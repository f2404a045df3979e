/**
 * The re-screen of watched catalogues, fed by the data's completion events: the service's own EventBridge bus, on
 * which the ingest and the data jobs announce each completed batch (the backfile once, at its hand-over; source
 * `trademark-risk.data`, detail type `Data batch completed`), and a rule that sends exactly those to the
 * watch-rescreen function.
 *
 * - One run at a time (reserved concurrency 1): runs queue rather than compete for the same items; each run is
 *   bounded per account and by the function's time (shared/watch/rescreen.ts).
 * - An event the rule cannot deliver, and a run that still fails after Lambda's retries, lands on one SQS
 *   dead-letter queue with the event. A retried or redelivered event raises no alert twice and charges nothing:
 *   re-screens are free.
 */
import { Duration } from 'aws-cdk-lib';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { BATCH_COMPLETED_DETAIL_TYPE, DATA_EVENT_SOURCE } from '../../shared/adapters/aws/eventbridge-batch-events';
import type { ApiFunction } from './api-function';

/** The variable shared/config.ts reads the bus name from. */
export const DATA_EVENT_BUS_ENV = 'DATA_EVENT_BUS_NAME';

export interface WatchRescreenProps {
  prefix: string;
  rescreen: ApiFunction;
  /** The functions that complete batches and announce them. */
  announcers: ApiFunction[];
}

export class WatchRescreen extends Construct {
  readonly bus: EventBus;
  readonly rule: Rule;
  readonly deadLetters: Queue;

  constructor(scope: Construct, id: string, props: WatchRescreenProps) {
    super(scope, id);
    this.bus = new EventBus(this, 'DataBus', { eventBusName: `${props.prefix}-data` });
    this.deadLetters = new Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    props.rescreen.fn.configureAsyncInvoke({
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      onFailure: new SqsDestination(this.deadLetters),
    });
    this.rule = new Rule(this, 'BatchCompleted', {
      eventBus: this.bus,
      description: 'A completed data batch re-screens the watched catalogues',
      eventPattern: { source: [DATA_EVENT_SOURCE], detailType: [BATCH_COMPLETED_DETAIL_TYPE] },
      targets: [
        new LambdaFunction(props.rescreen.fn, {
          retryAttempts: 8,
          maxEventAge: Duration.hours(6),
          deadLetterQueue: this.deadLetters,
        }),
      ],
    });
    for (const announcer of props.announcers) {
      this.grantAnnounce(announcer.fn);
      announcer.fn.addEnvironment(DATA_EVENT_BUS_ENV, this.bus.eventBusName);
    }
    this.acknowledgeRulePacks(props);
  }

  private grantAnnounce(grantee: IGrantable): void {
    this.bus.grantPutEventsTo(grantee);
  }

  private acknowledgeRulePacks(props: WatchRescreenProps): void {
    NagSuppressions.addResourceSuppressions(this.deadLetters, [
      {
        id: 'AwsSolutions-SQS3',
        reason:
          "This queue is the dead-letter queue: of the rule's undeliverable events and of the re-screen function's failed runs, read by an operator.",
      },
      {
        id: 'Serverless-SQSRedrivePolicy',
        reason: 'This queue is itself a dead-letter queue; nothing consumes it, so it has nowhere to redrive to.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(props.rescreen.fn, [
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'Invoked asynchronously by EventBridge with an on-failure destination (the dead-letter queue above): a failed event lands there after its retries.',
      },
    ]);
  }
}
