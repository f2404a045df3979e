/**
 * The code and what serves it: the REST API behind its WAF, one function per route, the not-found function, the ingest pipeline,
 * the native-modules layer, the CLIP endpoint (only where CLIP is the primary logo embedder), the alarms and the
 * billing dashboard. Every permission is granted here, function by function, on exactly the resources of the
 * stateful stack it needs.
 */
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { EnvironmentConfig } from '../config/environments';
import { ServiceAlarms } from '../constructs/alarms';
import { ApiFunction, type ApiFunctionProps, METERED_TABLE_ACTIONS } from '../constructs/api-function';
import { BillingDashboard } from '../constructs/billing-dashboard';
import { type BundledFile, type FunctionId, PROJECT_ROOT } from '../constructs/bundling';
import { ClipEndpoint } from '../constructs/clip-endpoint';
import { DEGRADED_INDEX_PREFIX } from '../constructs/data-buckets';
import { TrademarkRestApi } from '../constructs/rest-api';
import { IngestPipeline } from '../constructs/ingest-pipeline';
import { DataJobs } from '../constructs/data-jobs';
import { ServiceMetrics } from '../constructs/service-metrics';
import { NativeModulesLayer } from '../constructs/native-modules-layer';
import { WatchRescreen } from '../constructs/watch-rescreen';
import { WebhookDelivery } from '../constructs/webhook-delivery';
import type { StatefulStack } from './stateful-stack';
import type { DataTables } from '../constructs/data-tables';
import { RENDERER_FILE } from '../../functions/docs/renderer-asset';
import path from 'node:path';

export interface StatelessStackProps extends StackProps {
  config: EnvironmentConfig;
  stateful: StatefulStack;
}

/** Environment variables beyond shared/config.ts's, for the image adapters (names shared with the functions). */
export const IMAGE_ENV = {
  logosBucket: 'LOGOS_BUCKET',
  degradedIndexPrefix: 'DEGRADED_INDEX_PREFIX',
  usIndexArn: 'LOGO_INDEX_US_ARN',
  cnIndexArn: 'LOGO_INDEX_CN_ARN',
  clipEndpointName: 'CLIP_ENDPOINT_NAME',
  logoEmbedder: 'LOGO_EMBEDDER',
  logoModelPath: 'LOGO_MODEL_PATH',
} as const;

/** The learned logo embedder's model, as committed (data/models/logo-embedder, model card beside it). */
export const LOGO_MODEL_SOURCE = path.join(PROJECT_ROOT, 'data', 'models', 'logo-embedder', 'logo-embedder.onnx');
/** Its name beside the image functions' bundles, and where the Lambda finds it (the bundle's folder, /var/task). */
export const LOGO_MODEL_FILE = 'logo-embedder.onnx';
export const LAMBDA_LOGO_MODEL_PATH = `/var/task/${LOGO_MODEL_FILE}`;

/** The docs page's renderer (Scalar's standalone bundle), shipped with the docs function. */
function rendererFile(): { from: string; to: string } {
  return {
    from: path.join(path.dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js'),
    to: RENDERER_FILE,
  };
}

export class StatelessStack extends Stack {
  readonly functions: Record<FunctionId, ApiFunction>;
  readonly api: TrademarkRestApi;
  /** The CLIP endpoint, only where CLIP is the primary logo embedder. */
  readonly clip?: ClipEndpoint;
  readonly ingestPipeline: IngestPipeline;
  readonly dataJobs: DataJobs;
  readonly watchRescreen: WatchRescreen;
  readonly webhookDelivery: WebhookDelivery;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const { config, stateful } = props;
    const tables = stateful.data.tables;
    const logRemovalPolicy =
      config.removalPolicy === RemovalPolicy.DESTROY ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;

    const nativeModules = new NativeModulesLayer(this, 'NativeModulesLayer');
    if (config.logoEmbedder.kind === 'clip') {
      this.clip = new ClipEndpoint(this, 'Clip', {
        choice: config.logoEmbedder.endpoint,
        prefix: config.prefix,
        ...(config.modelPackage ? { modelPackage: config.modelPackage } : {}),
      });
    }
    this.functions = this.createFunctions(config, stateful, nativeModules, logRemovalPolicy);

    this.grantTableAccess(tables);
    this.grantImageSearchAccess(stateful);
    this.grantIngestAccess(stateful);
    this.ingestPipeline = this.createIngestPipeline(config, stateful);
    this.watchRescreen = new WatchRescreen(this, 'DataEvents', {
      prefix: config.prefix,
      rescreen: this.functions['watch-rescreen'],
      announcers: [
        this.functions.ingest,
        this.functions['register-update'],
        this.functions['tro-docket'],
        // Announces the whole backfile once, at its hand-over (its parts are applied unannounced).
        this.functions['register-backfile'],
      ],
    });
    this.webhookDelivery = new WebhookDelivery(this, 'Webhooks', {
      prefix: config.prefix,
      deliver: this.functions['webhook-deliver'],
      // The re-screen hands alerts over; the redeliver route re-queues dead letters ({"all": true}).
      dispatchers: [this.functions['watch-rescreen'], this.functions['redeliver-webhook']],
    });
    this.api = this.createRestApi(config, logRemovalPolicy);
    const alarms = this.createMonitoring(config, tables);
    this.dataJobs = new DataJobs(this, 'DataJobs', {
      prefix: config.prefix,
      metrics: new ServiceMetrics(config.metricsNamespace, config.serviceName),
      registerUpdate: this.functions['register-update'],
      registerBackfile: this.functions['register-backfile'],
      troDocket: this.functions['tro-docket'],
      batches: Bucket.fromBucketAttributes(this, 'JobBatches', {
        bucketArn: stateful.buckets.batches.bucketArn,
        bucketName: stateful.buckets.batches.bucketName,
      }),
      alarmTopic: alarms.topic,
      logRetention: config.logRetention,
      logRemovalPolicy,
      backfileConcurrency: 1,
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the API, ending in the stage (paths then start with v1/)',
      value: this.api.url,
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'Subscribe to be told about alarms',
      value: alarms.topic.topicArn,
    });
    new CfnOutput(this, 'IngestDeadLetterQueueUrl', { value: this.ingestPipeline.deadLetters.queueUrl });
    new CfnOutput(this, 'WatchRescreenDeadLetterQueueUrl', { value: this.watchRescreen.deadLetters.queueUrl });
    new CfnOutput(this, 'WebhookDeliverDeadLetterQueueUrl', { value: this.webhookDelivery.deadLetters.queueUrl });
    if (this.clip) new CfnOutput(this, 'ClipEndpointName', { value: this.clip.endpointName });
    new CfnOutput(this, 'BackfileStateMachineArn', {
      description: 'Start once to load the whole US register (infra/DEPLOY.md, The data jobs)',
      value: this.dataJobs.backfile.stateMachineArn,
    });
    new CfnOutput(this, 'UsptoApiKeySecret', { value: this.dataJobs.usptoKey.secretName });
    new CfnOutput(this, 'CourtListenerTokenSecret', { value: this.dataJobs.courtListenerToken.secretName });
  }

  /** One function per route, the ingest function and the not-found function, with their settings and environment. */
  private createFunctions(
    config: EnvironmentConfig,
    stateful: StatefulStack,
    nativeModules: NativeModulesLayer,
    logRemovalPolicy: RemovalPolicy,
  ): Record<FunctionId, ApiFunction> {
    const tables = stateful.data.tables;
    const common = {
      envName: config.name,
      serviceName: config.serviceName,
      metricsNamespace: config.metricsNamespace,
      logRetention: config.logRetention,
      logRemovalPolicy,
    };
    const image = imageFunctionSettings(stateful, this.clip);

    // (config.functions.api carries memorySize, timeout and reservedConcurrency.)
    // The functions that screen titles: batch-screen, and adding titles to a watched catalogue.
    const screening = (id: string, functionId: FunctionId) =>
      new ApiFunction(this, id, {
        ...common,
        functionId,
        tables,
        ...config.functions.api,
        environment: { SCREENING_REFRESH_SECONDS: String(config.screeningRefreshSeconds) },
      });
    const batchScreen = screening('BatchScreen', 'batch-screen');
    const putWatch = screening('PutWatch', 'put-watch');
    const imageSearch = new ApiFunction(this, 'ImageSearch', {
      ...common,
      functionId: 'image-search',
      tables,
      ...config.functions.api,
      layers: [nativeModules.layer],
      environment: image.environment,
      files: image.files,
    });
    const ingest = new ApiFunction(this, 'Ingest', {
      ...common,
      functionId: 'ingest',
      tables,
      memorySize: config.functions.ingest.memorySize,
      timeout: config.functions.ingest.timeout,
      layers: [nativeModules.layer],
      environment: image.environment,
      files: image.files,
    });
    const { registerUpdate, registerBackfile, troDocket, watchRescreen } = this.createDataFunctions(
      config,
      common,
      tables,
    );
    const notFound = new ApiFunction(this, 'NotFound', {
      ...common,
      functionId: 'not-found',
      memorySize: 256,
      timeout: config.functions.api.timeout,
    });
    // The account routes and feedback: the same chain (key, rate limit), no charge, small functions.
    const small = { memorySize: 256, timeout: config.functions.api.timeout };
    const keyed = (id: string, functionId: FunctionId) =>
      new ApiFunction(this, id, { ...common, ...small, functionId, tables });
    const account = keyed('Account', 'account');
    const usage = keyed('Usage', 'usage');
    const getAllowlist = keyed('GetAllowlist', 'get-allowlist');
    const putAllowlist = keyed('PutAllowlist', 'put-allowlist');
    const feedback = keyed('Feedback', 'feedback');
    const openapi = new ApiFunction(this, 'OpenApi', { ...common, ...small, functionId: 'openapi' });
    const status = new ApiFunction(this, 'Status', { ...common, ...small, functionId: 'status', tables });
    const docs = new ApiFunction(this, 'Docs', { ...common, ...small, functionId: 'docs', files: [rendererFile()] });
    return {
      'batch-screen': batchScreen,
      'image-search': imageSearch,
      account,
      usage,
      'get-allowlist': getAllowlist,
      'put-allowlist': putAllowlist,
      feedback,
      'put-watch': putWatch,
      'get-watch': keyed('GetWatch', 'get-watch'),
      'delete-watch': keyed('DeleteWatch', 'delete-watch'),
      'get-alerts': keyed('GetAlerts', 'get-alerts'),
      'ack-alerts': keyed('AckAlerts', 'ack-alerts'),
      ...this.createWebhookFunctions({ ...common, tables, ...small }),
      openapi,
      status,
      docs,
      ingest,
      'register-update': registerUpdate,
      'register-backfile': registerBackfile,
      'tro-docket': troDocket,
      'watch-rescreen': watchRescreen,
      'not-found': notFound,
    };
  }

  /** The webhook routes (small, the free chain) and the deliverer (five tries, backoff and 5 s timeouts: 2 minutes). */
  private createWebhookFunctions(
    settings: Omit<ApiFunctionProps, 'functionId'>,
  ): Record<
    | 'put-webhook'
    | 'get-webhook'
    | 'delete-webhook'
    | 'test-webhook'
    | 'webhook-dead-letters'
    | 'redeliver-webhook'
    | 'webhook-deliver',
    ApiFunction
  > {
    const fn = (id: string, functionId: FunctionId, extra: Partial<ApiFunctionProps> = {}) =>
      new ApiFunction(this, id, { ...settings, ...extra, functionId });
    return {
      'put-webhook': fn('PutWebhook', 'put-webhook'),
      'get-webhook': fn('GetWebhook', 'get-webhook'),
      'delete-webhook': fn('DeleteWebhook', 'delete-webhook'),
      'test-webhook': fn('TestWebhook', 'test-webhook'),
      'webhook-dead-letters': fn('WebhookDeadLetters', 'webhook-dead-letters'),
      'redeliver-webhook': fn('RedeliverWebhook', 'redeliver-webhook'),
      'webhook-deliver': fn('WebhookDeliver', 'webhook-deliver', { timeout: Duration.minutes(2) }),
    };
  }

  /**
   * The data jobs (docs/data-jobs.md) with the ingest's memory and time, since they end in the same ingest; and the
   * re-screen of watched catalogues (infra/constructs/watch-rescreen.ts): the same time, one run at a time.
   */
  private createDataFunctions(
    config: EnvironmentConfig,
    common: Pick<
      ApiFunctionProps,
      'envName' | 'serviceName' | 'metricsNamespace' | 'logRetention' | 'logRemovalPolicy'
    >,
    tables: DataTables['tables'],
  ): Record<'registerUpdate' | 'registerBackfile' | 'troDocket' | 'watchRescreen', ApiFunction> {
    const dataJob = {
      ...common,
      tables,
      memorySize: config.functions.ingest.memorySize,
      timeout: config.functions.ingest.timeout,
    };
    const job = (id: string, functionId: FunctionId) => new ApiFunction(this, id, { ...dataJob, functionId });
    return {
      registerUpdate: job('RegisterUpdate', 'register-update'),
      registerBackfile: job('RegisterBackfile', 'register-backfile'),
      troDocket: job('TroDocket', 'tro-docket'),
      watchRescreen: new ApiFunction(this, 'WatchRescreen', {
        ...dataJob,
        functionId: 'watch-rescreen',
        reservedConcurrency: 1,
        environment: { SCREENING_REFRESH_SECONDS: String(config.screeningRefreshSeconds) },
      }),
    };
  }

  /** The tables of the API functions: the metered chain of both operations, then only what each route reads or writes. */
  private grantTableAccess(tables: DataTables['tables']): void {
    const {
      'batch-screen': batchScreen,
      'image-search': imageSearch,
      account,
      usage,
      'get-allowlist': getAllowlist,
      'put-allowlist': putAllowlist,
    } = this.functions;
    // The metered chain of both operations: authenticate, rate limit, idempotency, debit and refund; action by action.
    for (const metered of [batchScreen, imageSearch]) {
      for (const [id, actions] of Object.entries(METERED_TABLE_ACTIONS) as [
        keyof typeof METERED_TABLE_ACTIONS,
        readonly string[],
      ][]) {
        metered.grantTableActions(tables[id], actions);
      }
    }
    batchScreen.grantTable(tables['mark-keys'], 'read');
    batchScreen.grantTable(tables.allowlists, 'read');

    // The free routes: the key and the rate limit, then only what each reads or writes.
    for (const free of [account, usage, getAllowlist, putAllowlist]) {
      free.grantTable(tables['api-keys'], 'read');
      free.grantTable(tables['rate-limits'], 'readWrite');
    }
    account.grantTable(tables.accounts, 'read');
    usage.grantTable(tables.usage, 'read');
    getAllowlist.grantTable(tables.allowlists, 'read');
    putAllowlist.grantTable(tables.allowlists, 'readWrite');
    putAllowlist.grantTable(tables.idempotency, 'readWrite');
    // Feedback: the key, the rate limit, its Idempotency-Key and the reports; nothing else.
    const feedback = this.functions.feedback;
    feedback.grantTable(tables['api-keys'], 'read');
    feedback.grantTable(tables['rate-limits'], 'readWrite');
    feedback.grantTable(tables.idempotency, 'readWrite');
    feedback.grantTable(tables.feedback, 'readWrite');
    batchScreen.grantTable(tables['tro-brands'], 'read');
    // Watch: adding titles is batch-screen's metered screening plus the watched items; listing is a free read.
    const { 'put-watch': putWatch, 'get-watch': getWatch } = this.functions;
    for (const [id, actions] of Object.entries(METERED_TABLE_ACTIONS) as [
      keyof typeof METERED_TABLE_ACTIONS,
      readonly string[],
    ][]) {
      putWatch.grantTableActions(tables[id], actions);
    }
    for (const id of ['mark-keys', 'allowlists', 'tro-brands'] as const) putWatch.grantTable(tables[id], 'read');
    putWatch.grantTable(tables['watch-items'], 'readWrite');
    getWatch.grantTable(tables['api-keys'], 'read');
    getWatch.grantTable(tables['rate-limits'], 'readWrite');
    getWatch.grantTable(tables['watch-items'], 'read');
    // Deleting one item: the key, the rate limit and a delete of that item (its alerts stay).
    const deleteWatch = this.functions['delete-watch'];
    deleteWatch.grantTable(tables['api-keys'], 'read');
    deleteWatch.grantTable(tables['rate-limits'], 'readWrite');
    deleteWatch.grantTableActions(tables['watch-items'], ['dynamodb:DeleteItem']);
    // Alerts: read by one route, acknowledged by the other (an update of existing alerts).
    for (const alerts of [this.functions['get-alerts'], this.functions['ack-alerts']]) {
      alerts.grantTable(tables['api-keys'], 'read');
      alerts.grantTable(tables['rate-limits'], 'readWrite');
    }
    this.functions['get-alerts'].grantTable(tables['watch-alerts'], 'read');
    this.functions['ack-alerts'].grantTableActions(tables['watch-alerts'], ['dynamodb:UpdateItem']);
    this.functions['ack-alerts'].grantTable(tables.idempotency, 'readWrite');
    // The re-screen: screening's reads, every account's watched items (their kept results updated in place), new
    // alerts put under a condition, never deleted; the alerts still marked for hand-over read (Query) and their marks
    // cleared (UpdateItem, in transactions).
    const rescreen = this.functions['watch-rescreen'];
    for (const id of ['mark-keys', 'allowlists', 'tro-brands', 'data-batches'] as const)
      rescreen.grantTable(tables[id], 'read');
    rescreen.grantTableActions(tables['watch-items'], ['dynamodb:Query', 'dynamodb:Scan', 'dynamodb:UpdateItem']);
    rescreen.grantTableActions(tables['watch-alerts'], ['dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    // ... and whether an account with new alerts has a webhook (the alerts go to the bus: WebhookDelivery).
    rescreen.grantTableActions(tables.webhooks, ['dynamodb:GetItem']);
    this.grantWebhookAccess(tables);
    // The data status, no key: the batches, serial filters and job states (data-batches) and the TRO list.
    this.functions.status.grantTable(tables['data-batches'], 'read');
    this.functions.status.grantTable(tables['tro-brands'], 'read');
  }

  /**
   * Webhooks: each route the key, the rate limit and only what it does to the account's items of the webhooks
   * table; the deliverer reads the webhook, claims and finishes its event and puts dead letters.
   */
  private grantWebhookAccess(tables: DataTables['tables']): void {
    const f = this.functions;
    for (const route of [
      f['put-webhook'],
      f['get-webhook'],
      f['delete-webhook'],
      f['test-webhook'],
      f['webhook-dead-letters'],
      f['redeliver-webhook'],
    ]) {
      route.grantTable(tables['api-keys'], 'read');
      route.grantTable(tables['rate-limits'], 'readWrite');
    }
    for (const bodied of [f['put-webhook'], f['test-webhook'], f['redeliver-webhook']])
      bodied.grantTable(tables.idempotency, 'readWrite');
    f['put-webhook'].grantTableActions(tables.webhooks, ['dynamodb:PutItem', 'dynamodb:UpdateItem']);
    f['get-webhook'].grantTableActions(tables.webhooks, ['dynamodb:GetItem']);
    f['delete-webhook'].grantTableActions(tables.webhooks, ['dynamodb:DeleteItem']);
    f['test-webhook'].grantTableActions(tables.webhooks, ['dynamodb:GetItem']);
    f['webhook-dead-letters'].grantTableActions(tables.webhooks, ['dynamodb:Query']);
    // Sending a dead letter again: the webhook, the dead letter, and on success the claim and the dead letter's removal;
    // re-queuing dead letters: the claim's conditional removal, then the event put on the webhook bus (WebhookDelivery).
    f['redeliver-webhook'].grantTableActions(tables.webhooks, [
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    ]);
    f['webhook-deliver'].grantTableActions(tables.webhooks, [
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
    ]);
  }

  /** Image search: queries the vector indexes, reads the degraded indexes, invokes CLIP where it is the primary. */
  private grantImageSearchAccess(stateful: StatefulStack): void {
    const imageSearch = this.functions['image-search'];
    imageSearch.grantVectorIndexes(logoIndexArns(stateful), ['s3vectors:QueryVectors', 's3vectors:GetVectors']);
    imageSearch.grantObjectRead(stateful.buckets.logos, DEGRADED_INDEX_PREFIX);
    // A market with no degraded index yet must read as missing (404), not forbidden (403), or every search tries to
    // load it again. Listing shows key names only, never content.
    imageSearch.fn.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [stateful.buckets.logos.bucketArn] }),
    );
    this.clip?.grantInvoke(imageSearch.fn);
  }

  /** Ingest: writes the mark tables, the vector indexes and the degraded indexes. */
  private grantIngestAccess(stateful: StatefulStack): void {
    const ingest = this.functions.ingest;
    const tables = stateful.data.tables;
    // The data jobs end in the same ingest (their bucket and secret grants are in DataJobs).
    for (const writer of [ingest, this.functions['register-update'], this.functions['register-backfile']])
      for (const id of ['marks', 'mark-keys', 'tro-brands', 'data-batches'] as const)
        writer.grantTable(tables[id], 'readWrite');
    // The docket job reads marks by owner, merges into the TRO list and records its run (and the list's lock).
    const troDocket = this.functions['tro-docket'];
    troDocket.grantTable(tables['mark-keys'], 'read');
    troDocket.grantTable(tables.marks, 'read');
    troDocket.grantTable(tables['tro-brands'], 'readWrite');
    troDocket.grantTable(tables['data-batches'], 'readWrite');
    // Logo batches: images and manifests are read under incoming/ (the pipeline's grant), the primary embedder's
    // vectors go to the vector indexes, and the degraded index of the market is read, extended and written back.
    ingest.grantVectorIndexes(logoIndexArns(stateful), ['s3vectors:PutVectors']);
    this.clip?.grantInvoke(ingest.fn);
    const logos = stateful.buckets.logos;
    ingest.grantObjectRead(logos, DEGRADED_INDEX_PREFIX);
    ingest.fn.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:PutObject'], resources: [logos.arnForObjects(`${DEGRADED_INDEX_PREFIX}*`)] }),
    );
    // Without list access S3 answers a missing object with 403, not 404, and a market's first logo batch (no index
    // yet to extend) would fail on every retry. Listing shows key names only, never content.
    ingest.fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [logos.bucketArn] }));
  }

  /** The batches bucket's notifications, queue and dead letters feeding the ingest function. */
  private createIngestPipeline(config: EnvironmentConfig, stateful: StatefulStack): IngestPipeline {
    // Imported here, so that the bucket notification lives in this stack with the function it invokes (no cycle).
    const batches = Bucket.fromBucketAttributes(this, 'Batches', {
      bucketArn: stateful.buckets.batches.bucketArn,
      bucketName: stateful.buckets.batches.bucketName,
    });
    return new IngestPipeline(this, 'IngestPipeline', {
      ingest: this.functions.ingest,
      batches,
      retryAttempts: config.functions.ingest.retryAttempts,
    });
  }

  /** The REST API behind its WAF, one route per public function. */
  private createRestApi(config: EnvironmentConfig, logRemovalPolicy: RemovalPolicy): TrademarkRestApi {
    const f = this.functions;
    return new TrademarkRestApi(this, 'RestApi', {
      apiName: `${config.prefix}-api`,
      operations: {
        'batch-screen': f['batch-screen'].fn,
        'image-search': f['image-search'].fn,
        account: f.account.fn,
        usage: f.usage.fn,
        'get-allowlist': f['get-allowlist'].fn,
        'put-allowlist': f['put-allowlist'].fn,
        feedback: f.feedback.fn,
        'put-watch': f['put-watch'].fn,
        'get-watch': f['get-watch'].fn,
        'delete-watch': f['delete-watch'].fn,
        'get-alerts': f['get-alerts'].fn,
        'ack-alerts': f['ack-alerts'].fn,
        'put-webhook': f['put-webhook'].fn,
        'get-webhook': f['get-webhook'].fn,
        'delete-webhook': f['delete-webhook'].fn,
        'test-webhook': f['test-webhook'].fn,
        'webhook-dead-letters': f['webhook-dead-letters'].fn,
        'redeliver-webhook': f['redeliver-webhook'].fn,
        openapi: f.openapi.fn,
        status: f.status.fn,
        docs: f.docs.fn,
      },
      notFound: f['not-found'].fn,
      throttling: config.throttling,
      waf: config.waf,
      logRetention: config.logRetention,
      logRemovalPolicy,
    });
  }

  /** The alarms (with their topic) and the billing dashboard. */
  private createMonitoring(config: EnvironmentConfig, tables: DataTables['tables']): ServiceAlarms {
    const { 'batch-screen': batchScreen, 'image-search': imageSearch, ingest } = this.functions;
    const metrics = new ServiceMetrics(config.metricsNamespace, config.serviceName);
    const alarms = new ServiceAlarms(this, 'Alarms', {
      prefix: config.prefix,
      thresholds: config.alarms,
      metrics,
      api: this.api.api,
      functions: Object.fromEntries(Object.entries(this.functions).map(([id, f]) => [id, f.fn])),
      metered: [
        {
          id: 'batch-screen',
          fn: batchScreen.fn,
          logGroup: batchScreen.logGroup,
          timeout: config.functions.api.timeout,
        },
        {
          id: 'image-search',
          fn: imageSearch.fn,
          logGroup: imageSearch.logGroup,
          timeout: config.functions.api.timeout,
        },
      ],
      tables,
      ingestDeadLetters: this.ingestPipeline.deadLetters,
      rescreenDeadLetters: this.watchRescreen.deadLetters,
      webhookDeadLetters: this.webhookDelivery.deadLetters,
      alarmEmail: config.alarmEmail,
    });
    new BillingDashboard(this, 'BillingDashboard', {
      dashboardName: `${config.prefix}-billing`,
      envName: config.name,
      metrics,
      ingest: ingest.fn,
      ingestDeadLetters: this.ingestPipeline.deadLetters,
      dataJobs: ['uspto-daily', 'tro-docket'],
    });
    return alarms;
  }
}

/** The logo vector indexes of both markets. */
function logoIndexArns(stateful: StatefulStack): string[] {
  return [stateful.logoVectors.indexArn('US'), stateful.logoVectors.indexArn('CN')];
}

/**
 * The image functions' environment and shipped files. The learned embedder (the default primary): its model file
 * beside the bundle, LOGO_MODEL_PATH naming it there, onnxruntime-node from the layer; its vectors in the indexes.
 * CLIP (where configured): the endpoint's name, and no learned model (shared/config.ts: CLIP and the learned
 * embedder are never both primary). Either way the descriptor index under DEGRADED_INDEX_PREFIX is the degraded path.
 */
function imageFunctionSettings(
  stateful: StatefulStack,
  clip: ClipEndpoint | undefined,
): { environment: Record<string, string>; files: BundledFile[] } {
  const shared = {
    [IMAGE_ENV.logosBucket]: stateful.buckets.logos.bucketName,
    [IMAGE_ENV.degradedIndexPrefix]: DEGRADED_INDEX_PREFIX,
    [IMAGE_ENV.usIndexArn]: stateful.logoVectors.indexArn('US'),
    [IMAGE_ENV.cnIndexArn]: stateful.logoVectors.indexArn('CN'),
  };
  if (clip) {
    return {
      environment: { ...shared, [IMAGE_ENV.clipEndpointName]: clip.endpointName, [IMAGE_ENV.logoEmbedder]: 'none' },
      files: [],
    };
  }
  return {
    environment: {
      ...shared,
      [IMAGE_ENV.logoEmbedder]: 'learned',
      [IMAGE_ENV.logoModelPath]: LAMBDA_LOGO_MODEL_PATH,
    },
    files: [{ from: LOGO_MODEL_SOURCE, to: LOGO_MODEL_FILE }],
  };
}
