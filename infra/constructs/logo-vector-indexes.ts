/**
 * The S3 Vectors store of logo embeddings: one vector bucket, one index per market. Each index follows the primary
 * embedder of the environment's config: as wide as its vectors (the learned logo-net: 128; CLIP ViT-B/32: 512),
 * cosine, and named `<embedder>-<market>` (`logo-net-us`). A change of embedder therefore replaces the indexes
 * (CloudFormation creates the new names, then deletes the old): vectors of one embedder never meet another's
 * queries, and the new indexes fill as logo batches are ingested again (infra/DEPLOY.md). The names live inside a
 * vector bucket CloudFormation names, so environments sharing an account do not collide.
 *
 * Every metadata key is filterable unless listed as non-filterable, so `nice` and `is_live` (the query filters)
 * stay filterable and the display fields do not.
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
  /** The primary embedder's name (lower-case letters, digits and hyphens): the indexes are named after it. */
  embedder: string;
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
        indexName: indexNameOf(props.embedder, market),
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

/** A market's index name for an embedder: S3 Vectors takes 3 to 63 lower-case letters, digits, hyphens and dots. */
export function indexNameOf(embedder: string, market: Market): string {
  const name = `${embedder}-${market.toLowerCase()}`;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name)) throw new Error(`not an S3 Vectors index name: ${name}`);
  return name;
}
