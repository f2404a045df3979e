/** The environment the functions see when they run locally against DynamoDB Local. */
import { TABLES, physicalTableName, tableEnvVar } from '../shared/tables/definitions';

export function localEnvironment(options: {
  dynamoDbEndpoint: string;
  tablePrefix: string;
  envName?: string;
  logoIndexDir?: string;
}): Record<string, string> {
  return {
    ...(options.logoIndexDir ? { LOGO_INDEX_DIR: options.logoIndexDir } : {}),
    ENV_NAME: options.envName ?? 'local',
    AWS_REGION: 'us-east-1',
    DYNAMODB_ENDPOINT: options.dynamoDbEndpoint,
    ...Object.fromEntries(TABLES.map((t) => [tableEnvVar(t.id), physicalTableName(options.tablePrefix, t.id)])),
  };
}
