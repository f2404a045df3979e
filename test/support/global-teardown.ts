import type { DynamoDbLocal } from '../../local/dynamodb-local';

export default async function globalTeardown(): Promise<void> {
  const ddb = (globalThis as Record<string, unknown>).__dynamoDbLocal as DynamoDbLocal | undefined;
  await ddb?.stop();
}
