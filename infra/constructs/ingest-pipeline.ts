/**
 * The ingest function fed by S3: every object created under incoming/ of the batches bucket invokes it
 * asynchronously. A failed batch is thrown by the handler, retried by Lambda, and in the end recorded on an SQS
 * dead-letter queue (the on-failure destination, which carries the original event and the error).
 */
import { Duration } from 'aws-cdk-lib';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { EventType } from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
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
  }
}
