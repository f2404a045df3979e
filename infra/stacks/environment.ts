/** One environment = a stateful and a stateless stack, named `tmk-<env>-stateful` and `tmk-<env>-stateless`. */
import { Tags, type App } from 'aws-cdk-lib';
import type { EnvironmentConfig } from '../config/environments';
import { acknowledgeDataJobFindings } from '../constructs/rule-pack-suppressions';
import { StatefulStack } from './stateful-stack';
import { StatelessStack } from './stateless-stack';

export interface EnvironmentStacks {
  stateful: StatefulStack;
  stateless: StatelessStack;
}

export function addEnvironment(app: App, config: EnvironmentConfig): EnvironmentStacks {
  const env = { account: config.account, region: config.region };
  const stateful = new StatefulStack(app, `${config.prefix}-stateful`, {
    env,
    config,
    description: `Trademark-risk API (${config.name}): tables, buckets, logo vector indexes`,
    terminationProtection: config.deletionProtection,
  });
  const stateless = new StatelessStack(app, `${config.prefix}-stateless`, {
    env,
    config,
    stateful,
    description: `Trademark-risk API (${config.name}): HTTP API, functions, ingest, alarms, dashboard`,
  });
  acknowledgeDataJobFindings(stateless);
  for (const stack of [stateful, stateless]) {
    Tags.of(stack).add('project', 'trademark-risk-api');
    Tags.of(stack).add('environment', config.name);
  }
  return { stateful, stateless };
}
