/** Watched catalogues and alerts, written by the watch routes and the re-screen function. */
import { DynamoDbWatchStore } from '../adapters/aws/dynamodb-watch-store';
import { type AppConfig, loadConfig } from '../config';
import type { WatchStore } from '../ports';
import { documentClientOf } from './metering';

export function buildWatchStore(config: AppConfig, doc = documentClientOf(config)): WatchStore {
  return new DynamoDbWatchStore(doc, { items: config.tables['watch-items'], alerts: config.tables['watch-alerts'] });
}

let processWatch: WatchStore | undefined;

export function watchStore(): WatchStore {
  processWatch ??= buildWatchStore(loadConfig());
  return processWatch;
}
