/**
 * Where completed data batches are announced: the EventBridge data bus in AWS (DATA_EVENT_BUS_NAME), nowhere when it
 * is not configured (the local tools announce to a running `npm start` themselves, local/service-batch-events.ts).
 * Only the functions that write data load this (and the EventBridge client with it).
 */
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { EventBridgeBatchEvents } from '../adapters/aws/eventbridge-batch-events';
import type { AppConfig } from '../config';
import type { IngestStores } from '../ingest/ingest-batch';
import type { BatchEvents } from '../ports';
import { buildDataStores } from './data-stores';

export function buildBatchEvents(config: AppConfig): BatchEvents | undefined {
  if (!config.dataEvents) return undefined;
  return new EventBridgeBatchEvents(new EventBridgeClient({ region: config.region }), config.dataEvents.busName);
}

/** The data stores of a function that writes batches, announcing each completed one. */
export function buildAnnouncingDataStores(config: AppConfig): IngestStores {
  const events = buildBatchEvents(config);
  return { ...buildDataStores(config), ...(events ? { events } : {}) };
}
