/**
 * The EventBridge adapter of BatchEvents. EventBridge has no local form, so its client is a stand-in recording what
 * would be sent (named here: `recordingClient`); what is checked is the entry the rule matches and that an entry
 * EventBridge refuses inside a 200 answer is a failure.
 */
import type { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import {
  BATCH_COMPLETED_DETAIL_TYPE,
  BatchEventNotSentError,
  DATA_EVENT_SOURCE,
  EventBridgeBatchEvents,
} from '../../../shared/adapters/aws/eventbridge-batch-events';

const EVENT = { market: 'US', kind: 'marks', batchId: '2026-11-21#apc261121.zip', dataAsOf: '2026-11-21' };

function recordingClient(answer: { FailedEntryCount: number; Entries?: { ErrorCode?: string }[] }) {
  const sent: PutEventsCommand[] = [];
  return {
    sent,
    client: {
      send: async (command: PutEventsCommand) => {
        sent.push(command);
        return answer;
      },
    } as never,
  };
}

it('puts one entry on the named bus: the data source, the completed-batch detail type, the batch as detail', async () => {
  const { client, sent } = recordingClient({ FailedEntryCount: 0, Entries: [{}] });

  await new EventBridgeBatchEvents(client, 'tmk-dev-data').batchCompleted(EVENT);

  expect(sent.map((c) => c.input.Entries)).toEqual([
    [
      {
        EventBusName: 'tmk-dev-data',
        Source: DATA_EVENT_SOURCE,
        DetailType: BATCH_COMPLETED_DETAIL_TYPE,
        Detail: JSON.stringify(EVENT),
      },
    ],
  ]);
});

it('fails when EventBridge refuses the entry in a successful answer', async () => {
  const { client } = recordingClient({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'ThrottlingException' }] });

  await expect(new EventBridgeBatchEvents(client, 'tmk-dev-data').batchCompleted(EVENT)).rejects.toThrow(
    BatchEventNotSentError,
  );
});
