/**
 * What holds data, deployed apart from the code that uses it: the DynamoDB tables, the S3 buckets and the S3
 * Vectors indexes. Whether deleting the stack deletes the data is the environment's choice (removalPolicy).
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { EnvironmentConfig } from '../config/environments';
import { DataBuckets } from '../constructs/data-buckets';
import { DataTables } from '../constructs/data-tables';
import { LogoVectorIndexes } from '../constructs/logo-vector-indexes';
import { TABLES, tableEnvVar } from '../../shared/tables/definitions';

export interface StatefulStackProps extends StackProps {
  config: EnvironmentConfig;
}

export class StatefulStack extends Stack {
  readonly data: DataTables;
  readonly buckets: DataBuckets;
  readonly logoVectors: LogoVectorIndexes;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.data = new DataTables(this, 'Tables', {
      removalPolicy: config.removalPolicy,
      pointInTimeRecovery: config.pointInTimeRecovery,
      deletionProtection: config.deletionProtection,
    });
    this.buckets = new DataBuckets(this, 'Buckets', {
      removalPolicy: config.removalPolicy,
      incomingLifecycle: config.incomingLifecycle,
      accessLogRetention: config.logRetention,
    });
    this.logoVectors = new LogoVectorIndexes(this, 'LogoVectors', {
      embedder: config.vectors.embedder,
      dimension: config.vectors.dimension,
      distanceMetric: config.vectors.distanceMetric,
      removalPolicy: config.removalPolicy,
    });

    // What the admin and ingest CLIs need against the deployed tables: the description is the variable's name
    // (infra/DEPLOY.md turns these outputs into `export` lines).
    for (const definition of TABLES) {
      new CfnOutput(this, tableEnvVar(definition.id).replace(/_/g, ''), {
        description: tableEnvVar(definition.id),
        value: this.data.table(definition.id).tableName,
      });
    }
    new CfnOutput(this, 'BatchesBucket', {
      description: 'Upload data batches to incoming/<kind>/<market>/<YYYY-MM-DD>/<file>',
      value: this.buckets.batches.bucketName,
    });
  }
}
