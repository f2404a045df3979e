/**
 * One Lambda function of the service with the project's defaults: Node.js 22 on arm64, bundled by the local
 * esbuild (minified, with source maps), Powertools settings, the configuration every handler reads through
 * shared/config.ts, and its own log group with the environment's retention. Permissions are never broad: the
 * grant helpers below name exact actions on exact resources.
 */
import type { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, type ILayerVersion } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { TABLES, tableEnvVar, type TableId } from '../../shared/tables/definitions';
import { handlerEntry, nodejsBundling, type BundledFile, type FunctionId } from './bundling';

/** Actions of each level of table access. Transactions need no action of their own: each item's action counts. */
export const TABLE_ACTIONS = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:ConditionCheckItem'],
  /** Read plus in-place updates, no puts or deletes (the points balance of an account). */
  readUpdate: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:ConditionCheckItem', 'dynamodb:UpdateItem'],
  readWrite: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:Scan',
    'dynamodb:ConditionCheckItem',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
  ],
} as const;
export type TableAccess = keyof typeof TABLE_ACTIONS;

export interface ApiFunctionProps {
  functionId: FunctionId;
  envName: string;
  serviceName: string;
  metricsNamespace: string;
  logRetention: RetentionDays;
  memorySize: number;
  timeout: Duration;
  /** Table names handed to shared/config.ts; omit for a function that reads no configuration. */
  tables?: Record<TableId, ITable>;
  environment?: Record<string, string>;
  layers?: ILayerVersion[];
  /** Files shipped beside the bundle (the docs page's renderer). */
  files?: BundledFile[];
  /** Retention of the log group when the stack is deleted. */
  logRemovalPolicy: RemovalPolicy;
}

export class ApiFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });

    const tableNames = props.tables
      ? Object.fromEntries(TABLES.map((t) => [tableEnvVar(t.id), props.tables![t.id].tableName]))
      : {};

    this.fn = new NodejsFunction(this, 'Function', {
      entry: handlerEntry(props.functionId),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      logGroup: this.logGroup,
      layers: props.layers,
      bundling: nodejsBundling(props.files),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        ENV_NAME: props.envName,
        SERVICE_NAME: props.serviceName,
        METRICS_NAMESPACE: props.metricsNamespace,
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        POWERTOOLS_METRICS_NAMESPACE: props.metricsNamespace,
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...tableNames,
        ...props.environment,
      },
    });
  }

  /** Exact actions on one table (never its indexes: no function queries a GSI). */
  grantTable(table: ITable, access: TableAccess): void {
    this.fn.addToRolePolicy(new PolicyStatement({ actions: [...TABLE_ACTIONS[access]], resources: [table.tableArn] }));
  }

  /** s3:GetObject on the objects under one prefix of a bucket. */
  grantObjectRead(bucket: IBucket, prefix: string): void {
    this.fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects(`${prefix}*`)] }));
  }

  /** S3 Vectors actions on exactly the given vector indexes. */
  grantVectorIndexes(indexArns: string[], actions: ('s3vectors:QueryVectors' | 's3vectors:GetVectors' | 's3vectors:PutVectors')[]): void {
    this.fn.addToRolePolicy(new PolicyStatement({ actions, resources: indexArns }));
  }

  get functionName(): string {
    return this.fn.functionName;
  }
}
