/**
 * The EventBridge adapter of WebhookDispatch. EventBridge has no local form, so its client is a stand-in recording what
 * would be sent (named here: `recordingClient`); what is checked is the entry the deliver rule matches, that it is
 * one the deliver function's schema takes, and that an entry EventBridge refuses inside a 200 answer is a failure.
 */
import type { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { webhookJobSchema } from '../../../functions/webhook-deliver/handler';
import {
  EventBridgeWebhookDispatch,
  WEBHOOK_DUE_DETAIL_TYPE,
  WEBHOOK_EVENT_SOURCE,
  WebhookEventNotSentError,
} from '../../../shared/adapters/aws/eventbridge-webhook-dispatch';
import { testEventOf } from '../../../shared/webhooks/webhook';

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

const JOB = testEventOf('acc_1', new Date('2026-11-28T10:00:00Z'));

it('puts one entry on the webhook bus: the webhook source, the delivery-due type, the event as its detail', async () => {
  const { client, sent } = recordingClient({ FailedEntryCount: 0, Entries: [{}] });

  await new EventBridgeWebhookDispatch(client, 'tmk-dev-webhooks').dispatch(JOB);

  expect(sent.map((c) => c.input.Entries)).toEqual([
    [
      {
        EventBusName: 'tmk-dev-webhooks',
        Source: WEBHOOK_EVENT_SOURCE,
        DetailType: WEBHOOK_DUE_DETAIL_TYPE,
        Detail: JSON.stringify(JOB),
      },
    ],
  ]);
  expect(webhookJobSchema.parse(JSON.parse(sent[0]!.input.Entries![0]!.Detail!))).toEqual(JOB);
});

it('fails when EventBridge refuses the entry in a successful answer', async () => {
  const { client } = recordingClient({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'ThrottlingException' }] });

  await expect(new EventBridgeWebhookDispatch(client, 'tmk-dev-webhooks').dispatch(JOB)).rejects.toThrow(
    WebhookEventNotSentError,
  );
});
