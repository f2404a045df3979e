/**
 * Which tables a command-line tool works on: deployed ones when their names are in the environment, otherwise
 * those of the running `npm start` (found through its runtime file, see runtime-file.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { tableEnvVar } from '../shared/tables/definitions';
import { localEnvironment } from './local-config';
import { RUNTIME_FILE } from './runtime-file';

export function targetEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (env[tableEnvVar('accounts')]) return env;
  if (existsSync(RUNTIME_FILE)) {
    const runtime = JSON.parse(readFileSync(RUNTIME_FILE, 'utf8')) as { dynamoDbEndpoint: string; tablePrefix: string };
    return { ...env, ...localEnvironment(runtime) };
  }
  throw new Error(
    'No tables to work on: start the local API with `npm start`, or set the deployed table names (see README).',
  );
}

/** The environment itself, or how to find it: a command that only prints its help needs no tables. */
export type EnvironmentSource = NodeJS.ProcessEnv | (() => NodeJS.ProcessEnv);

export function resolveEnvironment(source: EnvironmentSource): NodeJS.ProcessEnv {
  return typeof source === 'function' ? source() : source;
}

/**
 * The running `npm start` whose tables these are (the environment a tool resolved: its engine and table names are
 * the runtime file's), with its address and events token; undefined for any other tables.
 */
export function runningService(env: NodeJS.ProcessEnv): { url: string; eventsToken: string } | undefined {
  if (!existsSync(RUNTIME_FILE)) return undefined;
  const runtime = JSON.parse(readFileSync(RUNTIME_FILE, 'utf8')) as {
    dynamoDbEndpoint: string;
    tablePrefix: string;
    url?: string;
    eventsToken?: string;
  };
  const own = localEnvironment(runtime);
  const accounts = tableEnvVar('accounts');
  if (env.DYNAMODB_ENDPOINT !== own.DYNAMODB_ENDPOINT || env[accounts] !== own[accounts]) return undefined;
  return runtime.url && runtime.eventsToken ? { url: runtime.url, eventsToken: runtime.eventsToken } : undefined;
}
