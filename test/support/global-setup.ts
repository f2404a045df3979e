/** One DynamoDB Local for the whole test run; each suite creates its own uniquely prefixed tables in it. */
import { startDynamoDbLocal } from '../../local/dynamodb-local';

export default async function globalSetup(): Promise<void> {
  const ddb = await startDynamoDbLocal();
  process.env.TEST_DYNAMODB_ENDPOINT = ddb.endpoint;
  process.env.TEST_DYNAMODB_PID = String(ddb.pid);
  (globalThis as Record<string, unknown>).__dynamoDbLocal = ddb;
}
