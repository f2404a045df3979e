/**
 * The ingest function fed by S3: every object created under incoming/ of the batches bucket invokes it
 * asynchronously. A failed batch is thrown by the handler, retried by Lambda, and in the end recorded on an SQS
 * dead-letter queue (the on-failure destination, which carries the original event and the error).
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { EventType } from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { ApiFunction } from './api-function';
import { INCOMING_PREFIX } from './data-buckets';

export interface IngestPipelineProps {
  ingest: ApiFunction;
  /** The batches bucket (imported in this stack, so that the notification lives next to the function). */
  batches: IBucket;
  retryAttempts: number;
}

export class IngestPipeline extends Construct {
  readonly deadLetters: Queue;

  constructor(scope: Construct, id: string, props: IngestPipelineProps) {
    super(scope, id);
    this.deadLetters = new Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });

    props.ingest.fn.configureAsyncInvoke({
      retryAttempts: props.retryAttempts,
      maxEventAge: Duration.hours(6),
      onFailure: new SqsDestination(this.deadLetters),
    });

    // Batches, their coverage sidecars, and the images of logo batches, which are read where they land.
    props.ingest.grantObjectRead(props.batches, INCOMING_PREFIX);
    props.batches.addEventNotification(EventType.OBJECT_CREATED, new LambdaDestination(props.ingest.fn), {
      prefix: INCOMING_PREFIX,
    });
    this.acknowledgeRulePacks(props);
  }

  private acknowledgeRulePacks(props: IngestPipelineProps): void {
    NagSuppressions.addResourceSuppressions(this.deadLetters, [
      {
        id: 'AwsSolutions-SQS3',
        reason:
          "This queue is the dead-letter queue: the ingest function's on-failure destination, read by an operator.",
      },
      {
        id: 'Serverless-SQSRedrivePolicy',
        reason:
          'This queue is itself the dead-letter queue of ingest; nothing consumes it, so it has nowhere to redrive to.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(props.ingest.fn, [
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'Invoked asynchronously by S3 with an on-failure destination (the dead-letter queue above), the newer form of a dead-letter target: a failed event lands there after its retries.',
      },
    ]);
    // The handler CDK adds once per stack to manage bucket notifications (its code and role are CDK's own).
    const notificationsHandler = Stack.of(this).node.children.find((c) =>
      c.node.id.startsWith('BucketNotificationsHandler'),
    );
    if (notificationsHandler) {
      NagSuppressions.addResourceSuppressions(
        notificationsHandler,
        [
          {
            id: 'AwsSolutions-IAM4',
            reason:
              "CDK's bucket-notifications handler comes with AWSLambdaBasicExecutionRole; it runs only during deployment, to put the notification configuration on the batches bucket.",
            appliesTo: [
              {
                regex: '/^Policy::arn:(<[^>]+>|[^:<]*):iam::aws:policy\\/service-role\\/AWSLambdaBasicExecutionRole$/',
              },
            ],
          },
        ],
        true,
      );
    }
  }
}
