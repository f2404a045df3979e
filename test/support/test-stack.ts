/**
 * A private set of tables in the test run's DynamoDB Local (started once by global-setup), the real adapters over
 * them, and helpers to open accounts and to serve handlers over real HTTP.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type AppConfig } from '../../shared/config';
import { buildDependencies } from '../../shared/composition/metering';
import { createDynamoDbClients } from '../../shared/adapters/aws/dynamodb-client';
import { issueApiKey, openAccount } from '../../shared/metering/accounts';
import type { Tier } from '../../shared/metering/tiers';
import type { ApiDependencies } from '../../shared/http/types';
import { createTables } from '../../local/create-tables';
import { localEnvironment } from '../../local/local-config';

export function testDynamoDbEndpoint(): string {
  const endpoint = process.env.TEST_DYNAMODB_ENDPOINT;
  if (!endpoint)
    throw new Error(
      'TEST_DYNAMODB_ENDPOINT is not set: run the tests through jest (global-setup starts DynamoDB Local)',
    );
  return endpoint;
}

export interface TestStack {
  config: AppConfig;
  deps: ApiDependencies;
  env: Record<string, string>;
  openAccount(options?: {
    tier?: Tier;
    points?: number;
    rateLimit?: number;
  }): Promise<{ accountId: string; apiKey: string; keyId: string }>;
}

/** `endpoint`: another DynamoDB Local than the run's shared one (fault tests stop and restart their own). */
export async function createTestStack(
  overrides: Record<string, string> = {},
  options: { endpoint?: string } = {},
): Promise<TestStack> {
  const endpoint = options.endpoint ?? testDynamoDbEndpoint();
  const tablePrefix = `t${randomBytes(5).toString('hex')}`;
  const { raw } = createDynamoDbClients({ region: 'us-east-1', endpoint });
  await createTables(raw, tablePrefix);
  raw.destroy();
  const logoIndexDir = mkdtempSync(path.join(os.tmpdir(), 'logo-indexes-'));
  const env = {
    ...localEnvironment({ dynamoDbEndpoint: endpoint, tablePrefix, envName: 'test' }),
    LOGO_INDEX_DIR: logoIndexDir,
    ...overrides,
  };
  const config = loadConfig(env);
  const deps = buildDependencies(config);
  return {
    config,
    deps,
    env,
    async openAccount(options = {}) {
      const now = new Date();
      const account = await openAccount(deps, {
        name: 'test account',
        tier: options.tier ?? 'professional',
        points: options.points ?? 1000,
        rateLimit: options.rateLimit ?? 100_000,
        now,
      });
      const key = await issueApiKey(deps.accounts, { accountId: account.accountId, envName: 'test', now });
      return { accountId: account.accountId, apiKey: key.apiKey, keyId: key.keyId };
    },
  };
}
