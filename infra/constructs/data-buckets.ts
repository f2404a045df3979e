/**
 * The two S3 buckets of the service: data batches (ingest reads new objects under incoming/) and logo images (with
 * the degraded-path descriptor index under degraded-index/), and a third that receives their server access logs
 * (under batches/ and logos/), kept as long as the environment keeps its other logs. All private, encrypted, TLS only.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, StorageClass } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/** Where new data batches land: incoming/<kind>/<market>/<YYYY-MM-DD>/<file>. */
export const INCOMING_PREFIX = 'incoming/';
/** Where the perceptual descriptor index of the degraded image-search path lives. */
export const DEGRADED_INDEX_PREFIX = 'degraded-index/';

export interface DataBucketsProps {
  removalPolicy: RemovalPolicy;
  incomingLifecycle: { infrequentAccessAfterDays: number; expireAfterDays: number };
  /** How long server access logs are kept: the environment's log retention. */
  accessLogRetention: RetentionDays;
}

export class DataBuckets extends Construct {
  readonly batches: Bucket;
  readonly logos: Bucket;
  readonly accessLogs: Bucket;

  constructor(scope: Construct, id: string, props: DataBucketsProps) {
    super(scope, id);
    const destroyable = props.removalPolicy === RemovalPolicy.DESTROY;
    const common = {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: props.removalPolicy,
      // Only an environment whose data may be destroyed empties its buckets on deletion.
      autoDeleteObjects: destroyable,
    };

    this.accessLogs = new Bucket(this, 'AccessLogs', {
      ...common,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(props.accessLogRetention) }],
    });
    NagSuppressions.addResourceSuppressions(this.accessLogs, [
      {
        id: 'AwsSolutions-S1',
        reason:
          "This bucket is where the other buckets' server access logs go; logging it too would only log those log deliveries.",
      },
    ]);

    this.batches = new Bucket(this, 'Batches', {
      ...common,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'batches/',
      versioned: !destroyable,
      lifecycleRules: [
        {
          id: 'incoming-batches',
          prefix: INCOMING_PREFIX,
          transitions: [
            {
              storageClass: StorageClass.INFREQUENT_ACCESS,
              transitionAfter: Duration.days(props.incomingLifecycle.infrequentAccessAfterDays),
            },
          ],
          expiration: Duration.days(props.incomingLifecycle.expireAfterDays),
          noncurrentVersionExpiration: Duration.days(30),
          abortIncompleteMultipartUploadAfter: Duration.days(7),
        },
      ],
    });

    this.logos = new Bucket(this, 'Logos', {
      ...common,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'logos/',
      versioned: !destroyable,
      lifecycleRules: [
        {
          id: 'abort-uploads',
          abortIncompleteMultipartUploadAfter: Duration.days(7),
          noncurrentVersionExpiration: Duration.days(30),
        },
      ],
    });
  }
}
