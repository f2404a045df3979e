/**
 * The data that keeps itself current (docs/data-jobs.md): the daily register job and the TRO docket job on
 * EventBridge Scheduler, the backfile state machine (a Step Functions distributed map over the stored parts), the
 * sources' credentials in Secrets Manager, and one freshness alarm per scheduled job: no successful run in the
 * hours shared/data-jobs/jobs.ts allows (36) is an alarm, and so is a job that has never succeeded.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Schedule, ScheduleExpression, ScheduleTargetInput } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke as ScheduledLambda } from 'aws-cdk-lib/aws-scheduler-targets';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import {
  DefinitionBody,
  DistributedMap,
  JsonPath,
  LogLevel,
  Map as InlineMap,
  S3ObjectsItemReader,
  StateMachine,
  TaskInput,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { JOB_ENV } from '../../functions/register-update/handler';
import { DATA_JOB_DEFINITIONS, type DataJobName } from '../../shared/data-jobs/jobs';
import { FETCHED_PREFIX } from '../../shared/data-jobs/register-update-job';
import type { ApiFunction } from './api-function';
import type { ServiceMetrics } from './service-metrics';

/** The environment variable naming the CourtListener token's secret (functions/tro-docket). */
export const COURTLISTENER_SECRET_ENV = 'COURTLISTENER_SECRET_NAME';

export interface DataJobsProps {
  prefix: string;
  metrics: ServiceMetrics;
  registerUpdate: ApiFunction;
  registerBackfile: ApiFunction;
  /** The TRO docket job's function; without it, that job has no schedule or alarm here. */
  troDocket?: ApiFunction;
  /** Where fetched files are kept (under fetched/) before they are applied. */
  batches: IBucket;
  alarmTopic: ITopic;
  logRetention: RetentionDays;
  logRemovalPolicy: RemovalPolicy;
  /** Parts ingested at once by the backfile's map (ingests of one market are one at a time: see docs/data-jobs.md). */
  backfileConcurrency: number;
}

export class DataJobs extends Construct {
  readonly usptoKey: Secret;
  readonly courtListenerToken: Secret;
  readonly backfile: StateMachine;
  readonly schedules: Partial<Record<DataJobName, Schedule>> = {};
  readonly freshnessAlarms: Partial<Record<DataJobName, Alarm>> = {};
  readonly scheduleDeadLetters: Queue;

  constructor(scope: Construct, id: string, props: DataJobsProps) {
    super(scope, id);
    // Keys of outside services: created with a random placeholder, the real values put by an operator
    // (infra/DEPLOY.md), never in the template.
    this.usptoKey = new Secret(this, 'UsptoApiKey', {
      secretName: `${props.prefix}/data-jobs/uspto-api-key`,
      description: 'USPTO Open Data Portal API key (X-API-KEY) for the register jobs',
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.courtListenerToken = new Secret(this, 'CourtListenerToken', {
      secretName: `${props.prefix}/data-jobs/courtlistener-token`,
      description: 'CourtListener API token for the TRO docket job',
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const job of [props.registerUpdate, props.registerBackfile]) {
      job.fn.addEnvironment(JOB_ENV.batchesBucket, props.batches.bucketName);
      job.fn.addEnvironment(JOB_ENV.usptoSecretName, this.usptoKey.secretName);
      this.usptoKey.grantRead(job.fn);
      // Fetched files: written and read under fetched/ only; listing (key names only) tells a missing file (404)
      // from a forbidden one, which is how the job knows a file is not stored yet.
      job.grantObjectRead(props.batches, FETCHED_PREFIX);
      job.fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['s3:PutObject', 's3:AbortMultipartUpload'],
          resources: [props.batches.arnForObjects(`${FETCHED_PREFIX}*`)],
        }),
      );
      job.fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [props.batches.bucketArn] }));
    }
    if (props.troDocket) {
      props.troDocket.fn.addEnvironment(COURTLISTENER_SECRET_ENV, this.courtListenerToken.secretName);
      this.courtListenerToken.grantRead(props.troDocket.fn);
    }

    this.scheduleDeadLetters = new Queue(this, 'ScheduleDeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const scheduled: [DataJobName, ApiFunction][] = [['uspto-daily', props.registerUpdate]];
    if (props.troDocket) scheduled.push(['tro-docket', props.troDocket]);
    for (const [job, fn] of scheduled) {
      const definition = DATA_JOB_DEFINITIONS[job];
      if (!definition.schedule) continue;
      this.schedules[job] = new Schedule(this, `${job}-schedule`, {
        description: `${definition.source}: ${definition.schedule} UTC`,
        schedule: ScheduleExpression.expression(definition.schedule),
        target: new ScheduledLambda(fn.fn, {
          input: ScheduleTargetInput.fromObject({ job }),
          retryAttempts: 2,
          maxEventAge: Duration.hours(2),
          deadLetterQueue: this.scheduleDeadLetters,
        }),
      });
      this.freshnessAlarms[job] = this.freshnessAlarm(job, props);
    }
    this.backfile = this.backfileStateMachine(props);
  }

  /**
   * No DataJobSucceeded for the job in the allowed hours: six-hour periods, every one of the last 36 hours empty
   * (missing data is breaching, so a job that never ran is an alarm too).
   */
  private freshnessAlarm(job: DataJobName, props: DataJobsProps): Alarm {
    const hours = DATA_JOB_DEFINITIONS[job].overdueAfterHours ?? 36;
    const periodHours = 6;
    const periods = Math.ceil(hours / periodHours);
    const alarm = new Alarm(this, `${job}-freshness`, {
      alarmName: `${props.prefix}-data-${job}-stale`,
      alarmDescription: `${DATA_JOB_DEFINITIONS[job].source}: no successful run for ${hours} hours (GET /v1/status shows the last error)`,
      metric: props.metrics.jobSucceeded(job, Duration.hours(periodHours)),
      threshold: 1,
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: periods,
      datapointsToAlarm: periods,
      treatMissingData: TreatMissingData.BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(props.alarmTopic));
    alarm.addOkAction(new SnsAction(props.alarmTopic));
    return alarm;
  }

  /**
   * list -> fetch each part (an inline map, a few at once) -> ingest each stored part (a distributed map over the
   * objects under the backfile's prefix) -> hand over to the daily job. Every task retries its own failures; a part
   * that still fails fails the map (no failure is tolerated: a register with a hole in it is not handed over).
   */
  private backfileStateMachine(props: DataJobsProps): StateMachine {
    const fn = props.registerBackfile.fn;
    const retried = <T extends LambdaInvoke>(task: T): T => {
      task.addRetry({ errors: ['States.ALL'], interval: Duration.seconds(30), backoffRate: 2, maxAttempts: 3 });
      return task;
    };
    const list = retried(
      new LambdaInvoke(this, 'ListParts', {
        lambdaFunction: fn,
        payload: TaskInput.fromObject({ action: 'list', 'until.$': '$$.Execution.StartTime' }),
        payloadResponseOnly: true,
        resultSelector: { 'asOf.$': '$.asOf', 'prefix.$': '$.prefix', 'parts.$': '$.parts' },
      }),
    );
    const fetchParts = new InlineMap(this, 'FetchParts', {
      itemsPath: '$.parts',
      maxConcurrency: 4,
      itemSelector: { action: 'fetch', 'part.$': '$$.Map.Item.Value' },
      resultPath: JsonPath.DISCARD,
    });
    fetchParts.itemProcessor(
      retried(new LambdaInvoke(this, 'FetchPart', { lambdaFunction: fn, payloadResponseOnly: true })),
    );
    const ingestParts = new DistributedMap(this, 'IngestParts', {
      itemReader: new S3ObjectsItemReader({ bucket: props.batches, prefix: JsonPath.stringAt('$.prefix') }),
      maxConcurrency: props.backfileConcurrency,
      toleratedFailurePercentage: 0,
      itemSelector: { action: 'ingest', 'key.$': '$$.Map.Item.Value.Key', 'asOf.$': '$.asOf' },
      resultPath: JsonPath.DISCARD,
    });
    ingestParts.itemProcessor(
      retried(new LambdaInvoke(this, 'IngestPart', { lambdaFunction: fn, payloadResponseOnly: true })),
    );
    const handOver = retried(
      new LambdaInvoke(this, 'HandOver', {
        lambdaFunction: fn,
        payload: TaskInput.fromObject({
          action: 'hand-over',
          'asOf.$': '$.asOf',
          'parts.$': 'States.ArrayLength($.parts)',
        }),
        payloadResponseOnly: true,
      }),
    );
    const logs = new LogGroup(this, 'BackfileLogs', {
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    const machine = new StateMachine(this, 'Backfile', {
      stateMachineName: `${props.prefix}-register-backfile`,
      definitionBody: DefinitionBody.fromChainable(list.next(fetchParts).next(ingestParts).next(handOver)),
      timeout: Duration.hours(24),
      tracingEnabled: true,
      logs: { destination: logs, level: LogLevel.ERROR, includeExecutionData: false },
    });
    props.batches.grantRead(machine, `${FETCHED_PREFIX}*`);
    return machine;
  }
}
