/**
 * The re-screen of watched catalogues in the stateless stack of dev: its own data bus, the rule that sends exactly
 * the completed-batch events to the watch-rescreen function (one run at a time), the dead-letter queue of events it
 * could not deliver or runs that failed after their retries, who may announce on the bus, and the function's grants;
 * and the hand-over of its alerts to webhooks: a bus of their own that only the re-screen (and the redeliver route,
 * re-queuing dead letters) may put on, the rule to the webhook-deliver function, its dead-letter queue.
 */
import { BATCH_COMPLETED_DETAIL_TYPE, DATA_EVENT_SOURCE } from '../../shared/adapters/aws/eventbridge-batch-events';
import { WEBHOOK_DUE_DETAIL_TYPE, WEBHOOK_EVENT_SOURCE } from '../../shared/adapters/aws/eventbridge-webhook-dispatch';
import {
  describeValue,
  functionLogicalId,
  grantsOf,
  onlyResource,
  resourcesOfType,
  synthEnvironment,
  type SynthesisedEnvironment,
} from './synth-environment';

let dev: SynthesisedEnvironment;

beforeAll(() => {
  dev = synthEnvironment('dev', { bundle: false });
});

const busName = () =>
  describeValue(dev, { Ref: onlyResource(dev.statelessJson, 'AWS::Events::EventBus', 'DataEvents')[0] });
const variablesOf = (construct: string) =>
  dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!.Properties!.Environment
    .Variables as Record<string, unknown>;

it('has a data bus of its own, named for the environment', () => {
  const [, bus] = onlyResource(dev.statelessJson, 'AWS::Events::EventBus', 'DataEvents');
  expect(bus.Properties!.Name).toBe('tmk-dev-data');
});

it('routes only completed-batch events of the data source on that bus to the re-screen function, with a DLQ', () => {
  const [, rule] = onlyResource(dev.statelessJson, 'AWS::Events::Rule', 'DataEvents');
  const [queueId] = onlyResource(dev.statelessJson, 'AWS::SQS::Queue', 'DataEventsDeadLetters');

  expect(rule.Properties!.EventPattern).toEqual({
    source: [DATA_EVENT_SOURCE],
    'detail-type': [BATCH_COMPLETED_DETAIL_TYPE],
  });
  expect(describeValue(dev, rule.Properties!.EventBusName)).toBe(busName());
  const targets = rule.Properties!.Targets as Record<string, unknown>[];
  expect(targets).toHaveLength(1);
  expect(JSON.stringify(targets[0]!.Arn)).toContain(functionLogicalId(dev.statelessJson, 'WatchRescreen'));
  expect(targets[0]).toMatchObject({
    RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 21600 },
    DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueId, 'Arn'] } },
  });
});

it('runs one re-screen at a time, and sends a run that failed after two retries to the same DLQ', () => {
  const fnId = functionLogicalId(dev.statelessJson, 'WatchRescreen');
  const [queueId, queue] = onlyResource(dev.statelessJson, 'AWS::SQS::Queue', 'DataEventsDeadLetters');

  expect(dev.statelessJson.Resources[fnId]!.Properties!.ReservedConcurrentExecutions).toBe(1);
  expect(dev.statelessJson.Resources[fnId]!.Properties!.Timeout).toBe(900);
  const invokeConfig = resourcesOfType(dev.statelessJson, 'AWS::Lambda::EventInvokeConfig').find(
    ([, c]) => (c.Properties!.FunctionName as { Ref: string }).Ref === fnId,
  );
  expect(invokeConfig?.[1].Properties).toMatchObject({
    MaximumRetryAttempts: 2,
    DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
  });
  expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 1209600 });
});

it.each(['Ingest', 'RegisterUpdate', 'TroDocket', 'RegisterBackfile'])(
  '%s announces completed batches on the bus, and only there',
  (construct) => {
    expect(describeValue(dev, variablesOf(construct).DATA_EVENT_BUS_NAME)).toBe(busName());
    const bus = onlyResource(dev.statelessJson, 'AWS::Events::EventBus', 'DataEvents')[0];
    expect(grantsOf(dev, construct)[`AWS::Events::EventBus:${bus}.Arn`]).toEqual(['events:PutEvents']);
  },
);

it('gives no other function the bus', () => {
  for (const construct of ['BatchScreen', 'PutWatch', 'WatchRescreen', 'WebhookDeliver']) {
    expect(variablesOf(construct).DATA_EVENT_BUS_NAME).toBeUndefined();
  }
});

it("grants the re-screen screening's reads, the watched items' reads and updates, alerts' puts and hand-over marks, and its DLQ", () => {
  const read = [
    'dynamodb:BatchGetItem',
    'dynamodb:ConditionCheckItem',
    'dynamodb:GetItem',
    'dynamodb:Query',
    'dynamodb:Scan',
  ];
  const grants = grantsOf(dev, 'WatchRescreen');

  expect(Object.fromEntries(Object.entries(grants).filter(([resource]) => resource.startsWith('table:')))).toEqual({
    'table:mark-keys': read,
    'table:allowlists': read,
    'table:tro-brands': read,
    'table:data-batches': read,
    'table:watch-items': ['dynamodb:Query', 'dynamodb:Scan', 'dynamodb:UpdateItem'],
    'table:watch-alerts': ['dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
    'table:webhooks': ['dynamodb:GetItem'],
  });
  // Beyond the tables: its logs, tracing, sending a failed run to the dead-letter queue, and webhook events.
  const [queueId] = onlyResource(dev.statelessJson, 'AWS::SQS::Queue', 'DataEventsDeadLetters');
  const [webhookBus] = onlyResource(dev.statelessJson, 'AWS::Events::EventBus', 'WebhooksWebhookBus');
  const others = Object.entries(grants).filter(
    ([r]) => !r.startsWith('table:') && !r.startsWith('log-group:') && r !== '*',
  );
  expect(others.sort()).toEqual(
    [
      [`AWS::SQS::Queue:${queueId}.Arn`, ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']],
      [`AWS::Events::EventBus:${webhookBus}.Arn`, ['events:PutEvents']],
    ].sort(),
  );
});

describe('webhook delivery', () => {
  const webhookBus = () => onlyResource(dev.statelessJson, 'AWS::Events::EventBus', 'WebhooksWebhookBus');

  it('has a bus of its own, named for the environment, that only the re-screen and the redeliver route may put on', () => {
    const [busId, bus] = webhookBus();
    expect(bus.Properties!.Name).toBe('tmk-dev-webhooks');
    for (const construct of ['WatchRescreen', 'RedeliverWebhook'])
      expect(describeValue(dev, variablesOf(construct).WEBHOOK_EVENT_BUS_NAME)).toBe(
        describeValue(dev, { Ref: busId }),
      );
    // Every role with a statement naming the webhook bus: the re-screen's and the redeliver route's alone.
    const rolesNamingTheBus = resourcesOfType(dev.statelessJson, 'AWS::IAM::Policy')
      .filter(([, policy]) => JSON.stringify(policy.Properties!.PolicyDocument).includes(`"${busId}"`))
      .flatMap(([, policy]) => (policy.Properties!.Roles as { Ref: string }[]).map((r) => r.Ref));
    const roleOf = (construct: string) =>
      (
        dev.statelessJson.Resources[functionLogicalId(dev.statelessJson, construct)]!.Properties!.Role as {
          'Fn::GetAtt': [string];
        }
      )['Fn::GetAtt'][0];
    expect(rolesNamingTheBus.sort()).toEqual([roleOf('WatchRescreen'), roleOf('RedeliverWebhook')].sort());
  });

  it('routes only webhook-due events of the webhook source to the deliver function, with retries and a DLQ', () => {
    const [busId] = webhookBus();
    const [, rule] = onlyResource(dev.statelessJson, 'AWS::Events::Rule', 'WebhooksDeliveryDue');
    const [queueId, queue] = onlyResource(dev.statelessJson, 'AWS::SQS::Queue', 'WebhooksDeadLetters');
    const fnId = functionLogicalId(dev.statelessJson, 'WebhookDeliver');

    expect(rule.Properties!.EventPattern).toEqual({
      source: [WEBHOOK_EVENT_SOURCE],
      'detail-type': [WEBHOOK_DUE_DETAIL_TYPE],
    });
    expect(rule.Properties!.EventBusName).toEqual({ Ref: busId });
    const targets = rule.Properties!.Targets as Record<string, unknown>[];
    expect(targets).toHaveLength(1);
    expect(targets[0]).toMatchObject({
      Arn: { 'Fn::GetAtt': [fnId, 'Arn'] },
      RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 21600 },
      DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueId, 'Arn'] } },
    });
    const invokeConfig = resourcesOfType(dev.statelessJson, 'AWS::Lambda::EventInvokeConfig').find(
      ([, c]) => (c.Properties!.FunctionName as { Ref: string }).Ref === fnId,
    );
    expect(invokeConfig?.[1].Properties).toMatchObject({
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
    expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 1209600 });
    // Five tries with 5 s timeouts and waits of up to 8 s fit in its time.
    expect(dev.statelessJson.Resources[fnId]!.Properties!.Timeout).toBe(120);
  });
});
