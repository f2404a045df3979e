/**
 * Completed data batches as EventBridge events on the service's data bus: source `trademark-risk.data`, detail type
 * `Data batch completed`, the batch as the detail. The watch-rescreen function's rule matches exactly these.
 */
import { type EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { BatchCompleted, BatchEvents } from '../../ports';

export const DATA_EVENT_SOURCE = 'trademark-risk.data';
export const BATCH_COMPLETED_DETAIL_TYPE = 'Data batch completed';

export class BatchEventNotSentError extends Error {}

export class EventBridgeBatchEvents implements BatchEvents {
  constructor(
    private readonly client: Pick<EventBridgeClient, 'send'>,
    private readonly busName: string,
  ) {}

  async batchCompleted(event: BatchCompleted): Promise<void> {
    const out = await this.client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: this.busName,
            Source: DATA_EVENT_SOURCE,
            DetailType: BATCH_COMPLETED_DETAIL_TYPE,
            Detail: JSON.stringify(event),
          },
        ],
      }),
    );
    // PutEvents answers 200 with the entry refused (throttled, too large ...): that is a failure too.
    if (out.FailedEntryCount) {
      const entry = out.Entries?.[0];
      throw new BatchEventNotSentError(
        `the batch ${event.batchId} was not announced: ${entry?.ErrorCode ?? 'refused'} ${entry?.ErrorMessage ?? ''}`.trim(),
      );
    }
  }
}
