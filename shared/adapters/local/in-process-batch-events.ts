/**
 * Completed data batches announced within the process (the local stand-in for the EventBridge bus): each subscriber
 * is handed the event in turn, one event at a time (as the re-screen function runs with a concurrency of one). The
 * announcement returns once the event is queued: a subscriber's work never holds up or fails the ingest that
 * announced it; its failure goes to `onError`.
 */
import type { BatchCompleted, BatchEvents } from '../../ports';

export type BatchSubscriber = (event: BatchCompleted) => Promise<unknown>;

export class InProcessBatchEvents implements BatchEvents {
  private readonly subscribers: BatchSubscriber[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly onError: (error: unknown, event: BatchCompleted) => void) {}

  subscribe(subscriber: BatchSubscriber): void {
    this.subscribers.push(subscriber);
  }

  async batchCompleted(event: BatchCompleted): Promise<void> {
    this.queue = this.queue.then(async () => {
      for (const subscriber of this.subscribers) {
        try {
          await subscriber(event);
        } catch (error) {
          this.onError(error, event);
        }
      }
    });
  }

  /** Resolves when every event announced so far has been handled (tests, and a clean stop). */
  idle(): Promise<void> {
    return this.queue;
  }
}
