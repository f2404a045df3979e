/**
 * Completed batches announced by a local tool (`npm run ingest`, `npm run data:update`) to the running `npm start`,
 * whose in-process bus then re-screens the watched titles: the local stand-in for PutEvents. The route exists on the
 * local server only, on 127.0.0.1, and takes the token of the runtime file (so only a tool that can read it).
 */
import type { BatchCompleted, BatchEvents } from '../shared/ports';

export const LOCAL_EVENTS_PATH = '/local/events/batch-completed';
export const LOCAL_EVENTS_TOKEN_HEADER = 'x-local-events-token';

export class ServiceBatchEvents implements BatchEvents {
  constructor(
    private readonly service: { url: string; eventsToken: string },
    private readonly warn: (line: string) => void,
  ) {}

  async batchCompleted(event: BatchCompleted): Promise<void> {
    try {
      const response = await fetch(`${this.service.url}${LOCAL_EVENTS_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [LOCAL_EVENTS_TOKEN_HEADER]: this.service.eventsToken },
        body: JSON.stringify(event),
        signal: AbortSignal.timeout(5000),
      });
      if (response.status !== 202) throw new Error(`answered ${response.status}`);
    } catch (error) {
      // The batch is in the tables either way; only the re-screen of watched titles waits for the next batch.
      this.warn(
        `The batch is complete, but npm start at ${this.service.url} could not be told (${(error as Error).message}): watched titles are re-screened on the next batch.`,
      );
    }
  }
}
