/**
 * The S3 Vectors store of logo embeddings: one vector bucket, one index per market. The dimension and metric come
 * from the environment's config (CLIP ViT-B/32: 512, cosine). Every metadata key is filterable unless listed as
 * non-filterable, so `nice` and `is_live` (the query filters) stay filterable and the display fields do not.
 */
import type { RemovalPolicy } from 'aws-cdk-lib';
import { CfnIndex, CfnVectorBucket } from 'aws-cdk-lib/aws-s3vectors';
import { Construct } from 'constructs';

export const MARKETS = ['US', 'CN'] as const;
export type Market = (typeof MARKETS)[number];

/** Metadata used by queries as filters. */
export const FILTERABLE_METADATA = ['nice', 'is_live'] as const;
/** Metadata returned with a match but never filtered on (keeps the filterable metadata small). */
export const NON_FILTERABLE_METADATA = ['serial', 'design', 'mark', 'jurisdiction'] as const;

export interface LogoVectorIndexesProps {
  dimension: number;
  distanceMetric: 'cosine' | 'euclidean';
  removalPolicy: RemovalPolicy;
}

export class LogoVectorIndexes extends Construct {
  readonly vectorBucket: CfnVectorBucket;
  readonly indexes: Record<Market, CfnIndex>;

  constructor(scope: Construct, id: string, props: LogoVectorIndexesProps) {
    super(scope, id);
    this.vectorBucket = new CfnVectorBucket(this, 'Bucket', {
      encryptionConfiguration: { sseType: 'AES256' },
    });
    this.vectorBucket.applyRemovalPolicy(props.removalPolicy);

    const indexes: Partial<Record<Market, CfnIndex>> = {};
    for (const market of MARKETS) {
      const index = new CfnIndex(this, `Index${market}`, {
        vectorBucketArn: this.vectorBucket.attrVectorBucketArn,
        dataType: 'float32',
        dimension: props.dimension,
        distanceMetric: props.distanceMetric,
        metadataConfiguration: { nonFilterableMetadataKeys: [...NON_FILTERABLE_METADATA] },
      });
      index.applyRemovalPolicy(props.removalPolicy);
      indexes[market] = index;
    }
    this.indexes = indexes as Record<Market, CfnIndex>;
  }

  /** The ARN of a market's index (what the S3 Vectors API and IAM both take). */
  indexArn(market: Market): string {
    return this.indexes[market].attrIndexArn;
  }
}
