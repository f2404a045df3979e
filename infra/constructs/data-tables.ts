/**
 * Every DynamoDB table of the service, built from the one shared list (shared/tables/definitions.ts): on-demand,
 * TTL where the definition has it, its GSIs; point-in-time recovery and deletion protection where the environment
 * asks for them. CloudFormation names the tables; functions learn the names from their environment.
 */
import { type RemovalPolicy, Tags } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { TABLES, type KeyAttribute, type TableId } from '../../shared/tables/definitions';

export interface DataTablesProps {
  removalPolicy: RemovalPolicy;
  pointInTimeRecovery: boolean;
  deletionProtection: boolean;
}

/**
 * The tables that hold money (balances, keys, the usage ledger): point-in-time recovery in every environment,
 * whatever the environment's setting for the others.
 */
export const MONEY_TABLES: readonly TableId[] = ['accounts', 'api-keys', 'usage'];

/** Tag carried by every table: the definition it was built from. */
export const TABLE_ID_TAG = 'tmk:table';

function attribute(key: KeyAttribute): Attribute {
  return { name: key.name, type: key.type === 'S' ? AttributeType.STRING : AttributeType.NUMBER };
}

export class DataTables extends Construct {
  readonly tables: Record<TableId, Table>;

  constructor(scope: Construct, id: string, props: DataTablesProps) {
    super(scope, id);
    const built: Partial<Record<TableId, Table>> = {};
    for (const definition of TABLES) {
      const pointInTimeRecoveryEnabled = props.pointInTimeRecovery || MONEY_TABLES.includes(definition.id);
      const table = new Table(this, definition.id, {
        partitionKey: attribute(definition.partitionKey),
        ...(definition.sortKey ? { sortKey: attribute(definition.sortKey) } : {}),
        billingMode: BillingMode.PAY_PER_REQUEST,
        ...(definition.timeToLiveAttribute ? { timeToLiveAttribute: definition.timeToLiveAttribute } : {}),
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled },
        deletionProtection: props.deletionProtection,
        removalPolicy: props.removalPolicy,
      });
      for (const index of definition.globalSecondaryIndexes ?? []) {
        table.addGlobalSecondaryIndex({
          indexName: index.indexName,
          partitionKey: attribute(index.partitionKey),
          ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
        });
      }
      if (!pointInTimeRecoveryEnabled) {
        NagSuppressions.addResourceSuppressions(table, [
          {
            id: 'AwsSolutions-DDB3',
            reason:
              'This environment keeps point-in-time recovery for the money tables only (pointInTimeRecovery in infra/config/environments.ts): its other tables hold test data or data the register batches rebuild.',
          },
        ]);
      }
      Tags.of(table).add(TABLE_ID_TAG, definition.id);
      built[definition.id] = table;
    }
    this.tables = built as Record<TableId, Table>;
  }

  table(id: TableId): Table {
    return this.tables[id];
  }
}
