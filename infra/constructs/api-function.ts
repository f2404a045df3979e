/**
 * One Lambda function of the service with the project's defaults: Node.js 24 on arm64, bundled by the local
 * esbuild (minified, with source maps), Powertools settings, the configuration every handler reads through
 * shared/config.ts, and its own log group with the environment's retention. Permissions are never broad: the
 * function's role starts with nothing but writing to its own log group (no AWS managed policy), and the grant
 * helpers below name exact actions on exact resources.
 */
import type { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing, type ILayerVersion } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { TABLES, tableEnvVar, type TableId } from '../../shared/tables/definitions';
import { handlerEntry, nodejsBundling, type BundledFile, type FunctionId } from './bundling';

/** Actions of each level of table access. Transactions need no action of their own: each item's action counts. */
export const TABLE_ACTIONS = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:ConditionCheckItem'],
  /** Read plus in-place updates, no puts or deletes (the points balance of an account). */
  readUpdate: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:Scan',
    'dynamodb:ConditionCheckItem',
    'dynamodb:UpdateItem',
  ],
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

/**
 * What the metered chain does to each table it touches, action by action (shared/adapters/aws): no Scan anywhere,
 * no Query of accounts or keys, and on the ledger (usage) only the charge's Put, the refund's Update and the read
 * of a record whose debit answer was lost; never Delete or BatchWrite.
 */
export const METERED_TABLE_ACTIONS = {
  accounts: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
  'api-keys': ['dynamodb:GetItem'],
  usage: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  idempotency: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  'rate-limits': ['dynamodb:UpdateItem'],
  'data-batches': ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
} as const satisfies Partial<Record<TableId, readonly string[]>>;

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
  /** Executions reserved for this function (and its ceiling). */
  reservedConcurrency?: number;
}

/** The Lambda runtime of every function, and of the layer they share (the latest Node.js Lambda offers). */
export const FUNCTION_RUNTIME = Runtime.NODEJS_24_X;

export class ApiFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    // What AWSLambdaBasicExecutionRole gives, narrowed to the one log group the function writes to (it exists
    // before the function, so no logs:CreateLogGroup).
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(this.role);

    const tableNames = props.tables
      ? Object.fromEntries(TABLES.map((t) => [tableEnvVar(t.id), props.tables![t.id].tableName]))
      : {};

    this.fn = new NodejsFunction(this, 'Function', {
      entry: handlerEntry(props.functionId),
      handler: 'handler',
      runtime: FUNCTION_RUNTIME,
      architecture: Architecture.ARM_64,
      role: this.role,
      memorySize: props.memorySize,
      timeout: props.timeout,
      ...(props.reservedConcurrency ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
      // X-Ray traces of every invocation, with the SDK calls as subsegments (Powertools Tracer, shared/observability.ts).
      tracing: Tracing.ACTIVE,
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
        POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
        ...tableNames,
        ...props.environment,
      },
    });
    // Only the tracing statement names "*" (test/infra/stateless-stack.test.ts holds every other grant to exact resources).
    NagSuppressions.addResourceSuppressions(this.rolePolicy(), [
      {
        id: 'AwsSolutions-IAM5',
        reason: 'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords accept no resource but "*".',
        appliesTo: ['Resource::*'],
      },
    ]);
  }

  /** Exact actions on one table (never its indexes: no function queries a GSI). */
  grantTable(table: ITable, access: TableAccess): void {
    this.fn.addToRolePolicy(new PolicyStatement({ actions: [...TABLE_ACTIONS[access]], resources: [table.tableArn] }));
  }

  /** Exactly these actions on one table. */
  grantTableActions(table: ITable, actions: readonly string[]): void {
    this.fn.addToRolePolicy(new PolicyStatement({ actions: [...actions], resources: [table.tableArn] }));
  }

  /** s3:GetObject on the objects under one prefix of a bucket. */
  grantObjectRead(bucket: IBucket, prefix: string): void {
    this.fn.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects(`${prefix}*`)] }),
    );
    this.allowObjectPrefix(prefix);
  }

  /**
   * Acknowledges the wildcard of grants on every object under a prefix of a bucket (`<bucket arn>/<prefix>*`, read
   * or written): the objects are named by the data (a batch's file, a market's index), so the prefix is as narrow
   * as it gets.
   */
  private allowObjectPrefix(prefix: string): void {
    const escaped = prefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    NagSuppressions.addResourceSuppressions(this.rolePolicy(), [
      {
        id: 'AwsSolutions-IAM5',
        reason: `Objects under ${prefix} are named by the data they hold, so the grant covers that prefix of the one bucket and nothing wider.`,
        appliesTo: [{ regex: `/^Resource::.+\\/${escaped}\\*$/` }],
      },
    ]);
  }

  /** The role's inline policy, where every grant of the function goes. */
  private rolePolicy(): Construct {
    return this.role.node.findChild('DefaultPolicy') as Construct;
  }

  /** S3 Vectors actions on exactly the given vector indexes. */
  grantVectorIndexes(
    indexArns: string[],
    actions: ('s3vectors:QueryVectors' | 's3vectors:GetVectors' | 's3vectors:PutVectors')[],
  ): void {
    this.fn.addToRolePolicy(new PolicyStatement({ actions, resources: indexArns }));
  }

  get functionName(): string {
    return this.fn.functionName;
  }
}
