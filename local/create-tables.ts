/** Creates the tables of shared/tables/definitions.ts in DynamoDB Local, under a name prefix. */
import { CreateTableCommand, type AttributeDefinition, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TABLES, physicalTableName, type TableDefinition, type TableId } from '../shared/tables/definitions';

function attributeDefinitions(table: TableDefinition): AttributeDefinition[] {
  const keys = [
    table.partitionKey,
    table.sortKey,
    ...(table.globalSecondaryIndexes ?? []).flatMap((i) => [i.partitionKey, i.sortKey]),
  ];
  const byName = new Map<string, AttributeDefinition>();
  for (const key of keys) if (key) byName.set(key.name, { AttributeName: key.name, AttributeType: key.type });
  return [...byName.values()];
}

export async function createTables(client: DynamoDBClient, prefix: string): Promise<Record<TableId, string>> {
  const names = {} as Record<TableId, string>;
  for (const table of TABLES) {
    const name = physicalTableName(prefix, table.id);
    names[table.id] = name;
    await client.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributeDefinitions(table),
        KeySchema: [
          { AttributeName: table.partitionKey.name, KeyType: 'HASH' },
          ...(table.sortKey ? [{ AttributeName: table.sortKey.name, KeyType: 'RANGE' as const }] : []),
        ],
        GlobalSecondaryIndexes: table.globalSecondaryIndexes?.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey.name, KeyType: 'HASH' as const },
            ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' as const }] : []),
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
  }
  return names;
}
