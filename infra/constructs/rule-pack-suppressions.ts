/**
 * Rule-pack findings acknowledged on the data jobs' resources (infra/constructs/data-jobs.ts), from outside that
 * construct: each with the reason it is right here. The other constructs acknowledge their own findings where the
 * resource is built (infra/DEPLOY.md, "Rule packs", lists them). test/infra/rule-packs.test.ts holds the count of
 * unacknowledged findings at zero.
 */
import { Stack } from 'aws-cdk-lib';
import { NagSuppressions } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { FETCHED_PREFIX } from '../../shared/data-jobs/register-update-job';
import type { StatelessStack } from '../stacks/stateless-stack';

/** The function of the backfile's state machine tasks; the other data-job functions run on a schedule. */
const BACKFILE_FUNCTION = 'register-backfile';
const SCHEDULED_FUNCTIONS: readonly string[] = ['register-update', 'tro-docket'];

/** `lambda:InvokeFunction` on a function and its versions (`<function arn>:*`), as CDK grants an invoking role. */
const FUNCTION_VERSIONS = { regex: '/^Resource::<[A-Za-z0-9]+\\.Arn>:\\*$/' };

export function acknowledgeDataJobFindings(stack: StatelessStack): void {
  const { dataJobs } = stack;
  const functions = stack.functions as Partial<Record<string, { fn: IConstruct }>>;

  for (const id of SCHEDULED_FUNCTIONS) {
    const fn = functions[id]?.fn;
    if (!fn) continue;
    NagSuppressions.addResourceSuppressions(fn, [
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          "Started by EventBridge Scheduler, which retries and has its own dead-letter queue; the event holds only the job's name, so a failed run is followed up through the job's recorded state and its freshness alarm, not by replaying the event.",
      },
    ]);
  }
  const backfileFn = functions[BACKFILE_FUNCTION]?.fn;
  if (backfileFn) {
    NagSuppressions.addResourceSuppressions(backfileFn, [
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          "Invoked synchronously by the backfile state machine's tasks, which retry and then fail the execution: there is no asynchronous event to keep.",
      },
    ]);
  }

  NagSuppressions.addResourceSuppressions(
    [dataJobs.usptoKey, dataJobs.courtListenerToken],
    [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'The secret holds a key issued by an outside service (USPTO Open Data Portal, CourtListener) that only that service can reissue; an operator puts the value (infra/DEPLOY.md), so there is nothing for a rotation function to do.',
      },
    ],
  );

  NagSuppressions.addResourceSuppressions(dataJobs.scheduleDeadLetters, [
    {
      id: 'AwsSolutions-SQS3',
      reason: "This queue is the dead-letter queue of the data jobs' schedules, read by an operator.",
    },
    {
      id: 'Serverless-SQSRedrivePolicy',
      reason: 'This queue is itself a dead-letter queue; nothing consumes it, so it has nowhere to redrive to.',
    },
  ]);

  acknowledgeBackfile(stack);

  // The role CDK creates once per stack for EventBridge Scheduler's targets.
  const schedulerRole = Stack.of(dataJobs)
    .node.children.filter((c) => c.node.id.startsWith('SchedulerRoleForTarget'))
    .map((c) => c.node.tryFindChild('DefaultPolicy'))
    .filter((c): c is IConstruct => c !== undefined);
  if (schedulerRole.length) {
    NagSuppressions.addResourceSuppressions(schedulerRole, [
      {
        id: 'AwsSolutions-IAM5',
        reason: 'lambda:InvokeFunction on each scheduled job function and its versions, the targets of the schedules.',
        appliesTo: [FUNCTION_VERSIONS],
      },
    ]);
  }
}

function acknowledgeBackfile(stack: StatelessStack): void {
  const machine = stack.dataJobs.backfile;
  NagSuppressions.addResourceSuppressions(machine, [
    {
      id: 'AwsSolutions-SF1',
      reason:
        'The backfile logs its errors (LogLevel.ERROR, without execution data): at ALL every state of a distributed map over thousands of parts would be logged, and the executions are traced in X-Ray while each task logs its own work.',
    },
  ]);
  const escapedPrefix = FETCHED_PREFIX.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  NagSuppressions.addResourceSuppressions(machine.role.node.findChild('DefaultPolicy'), [
    {
      id: 'AwsSolutions-IAM5',
      reason: 'lambda:InvokeFunction on the backfile function and its versions, the target of every task.',
      appliesTo: [FUNCTION_VERSIONS],
    },
    {
      id: 'AwsSolutions-IAM5',
      reason:
        'Log delivery to the CloudWatch log group (logs:*LogDelivery, DescribeLogGroups, the resource policies) and X-Ray tracing accept no resource but "*".',
      appliesTo: ['Resource::*'],
    },
    {
      id: 'AwsSolutions-IAM5',
      reason: `The distributed map's item reader lists and reads the stored parts: read actions on the batches bucket and its objects under ${FETCHED_PREFIX} only.`,
      appliesTo: [
        'Action::s3:GetBucket*',
        'Action::s3:GetObject*',
        'Action::s3:List*',
        { regex: `/^Resource::.+\\/${escapedPrefix}\\*$/` },
      ],
    },
  ]);
  const mapPolicy = machine.node.tryFindChild('DistributedMapPolicy');
  if (mapPolicy) {
    NagSuppressions.addResourceSuppressions(mapPolicy, [
      {
        id: 'AwsSolutions-IAM5',
        reason:
          "The distributed map describes, stops and redrives its own child executions, whose names are made at run time under this state machine's ARN.",
        appliesTo: [
          { regex: '/^Resource::arn:(<[^>]+>|[^:<]*):states:(<[^>]+>|[^:<]*):(<[^>]+>|[^:<]*):execution:.+:\\*$/' },
        ],
      },
    ]);
  }
}
