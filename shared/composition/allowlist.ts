/** Each account's own brands (the allowlist), read by screening and the allowlist routes. */
import { DynamoDbAllowlistStore } from '../adapters/aws/dynamodb-allowlist-store';
import { type AppConfig, loadConfig } from '../config';
import type { AllowlistStore } from '../ports';
import { documentClientOf } from './metering';

export function buildAllowlistStore(config: AppConfig, doc = documentClientOf(config)): AllowlistStore {
  return new DynamoDbAllowlistStore(doc, config.tables.allowlists);
}

let processAllowlists: AllowlistStore | undefined;

export function allowlistStore(): AllowlistStore {
  processAllowlists ??= buildAllowlistStore(loadConfig());
  return processAllowlists;
}
