/**
 * The service as `npm start` runs it: DynamoDB Local, the tables, the real Lambda handlers behind the local
 * server (configured from the environment, exactly as in Lambda), and the sample corpus loaded through the real
 * ingest code. `npm start` and `npm run load` both stand on it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { rmSync } from 'node:fs';
import { InProcessBatchEvents } from '../shared/adapters/local/in-process-batch-events';
import type { IngestSummary } from '../shared/ingest/ingest-batch';
import type { BatchCompleted } from '../shared/ports';
import type { RescreenOutcome } from '../shared/watch/rescreen';
import { lambdaContext } from './lambda-event';
import { localEnvironment } from './local-config';
import { startLocalRuntime, type LocalRuntime } from './runtime';
import type { LambdaHttpHandler, LocalRoute } from './server';
import { LOCAL_EVENTS_PATH, LOCAL_EVENTS_TOKEN_HEADER } from './service-batch-events';

/** The re-screen function's timeout in AWS (infra: WatchRescreen), given to it locally too. */
const RESCREEN_TIMEOUT_MS = 15 * 60 * 1000;

export interface LocalService {
  runtime: LocalRuntime;
  /** The bus completed batches are announced on: each re-screens the watched titles (functions/watch-rescreen). */
  batchEvents: InProcessBatchEvents;
  /** What a local tool sends with its announcement (local/service-batch-events.ts), kept in the runtime file. */
  eventsToken: string;
  /** Loads the sample corpus and logos; returns each batch's summary. */
  loadSamples(): Promise<IngestSummary[]>;
}

export async function startLocalService(options: {
  port: number;
  tablePrefix: string;
  logoIndexDir: string;
  dynamoDbEndpoint?: string;
  /** Told of each re-screen (npm start prints it). */
  onRescreen?: (event: BatchCompleted, outcome: RescreenOutcome) => void;
  onRescreenError?: (error: unknown, event: BatchCompleted) => void;
}): Promise<LocalService> {
  const eventsToken = randomBytes(24).toString('base64url');
  const batchEvents = new InProcessBatchEvents(
    options.onRescreenError ?? ((error, event) => console.error(`re-screen after ${event.batchId} failed`, error)),
  );
  const runtime = await startLocalRuntime({
    port: options.port,
    tablePrefix: options.tablePrefix,
    dynamoDbEndpoint: options.dynamoDbEndpoint,
    handlers: async (endpoint) => {
      // The tables were just created, empty: the logo indexes describe the world those tables held, so they go with
      // it (a fresh start is a fresh world; a search never returns a mark the store does not hold).
      rmSync(options.logoIndexDir, { recursive: true, force: true });
      // The handlers read their configuration from the environment, exactly as in Lambda.
      Object.assign(
        process.env,
        localEnvironment({
          dynamoDbEndpoint: endpoint,
          tablePrefix: options.tablePrefix,
          logoIndexDir: options.logoIndexDir,
        }),
      );
      const [
        batchScreen,
        imageSearch,
        account,
        usage,
        getAllowlist,
        putAllowlist,
        openapi,
        status,
        docs,
        notFound,
        feedback,
        putWatch,
        getWatch,
        getAlerts,
        ackAlerts,
        deleteWatch,
        putWebhook,
        getWebhook,
        deleteWebhook,
        testWebhook,
        webhookDeadLetters,
      ] = await Promise.all([
        import('../functions/batch-screen/handler'),
        import('../functions/image-search/handler'),
        import('../functions/account/handler'),
        import('../functions/usage/handler'),
        import('../functions/get-allowlist/handler'),
        import('../functions/put-allowlist/handler'),
        import('../functions/openapi/handler'),
        import('../functions/status/handler'),
        import('../functions/docs/handler'),
        import('../functions/not-found/handler'),
        import('../functions/feedback/handler'),
        import('../functions/put-watch/handler'),
        import('../functions/get-watch/handler'),
        import('../functions/get-alerts/handler'),
        import('../functions/ack-alerts/handler'),
        import('../functions/delete-watch/handler'),
        import('../functions/put-webhook/handler'),
        import('../functions/get-webhook/handler'),
        import('../functions/delete-webhook/handler'),
        import('../functions/test-webhook/handler'),
        import('../functions/webhook-dead-letters/handler'),
      ]);
      const functions = {
        'batch-screen': batchScreen.handler,
        'image-search': imageSearch.handler,
        account: account.handler,
        usage: usage.handler,
        'get-allowlist': getAllowlist.handler,
        'put-allowlist': putAllowlist.handler,
        feedback: feedback.handler,
        'put-watch': putWatch.handler,
        'get-watch': getWatch.handler,
        'delete-watch': deleteWatch.handler,
        'get-alerts': getAlerts.handler,
        'ack-alerts': ackAlerts.handler,
        'put-webhook': putWebhook.handler,
        'get-webhook': getWebhook.handler,
        'delete-webhook': deleteWebhook.handler,
        'test-webhook': testWebhook.handler,
        'webhook-dead-letters': webhookDeadLetters.handler,
        openapi: openapi.handler,
        status: status.handler,
        docs: docs.handler,
      };
      await subscribeRescreen(batchEvents, options.onRescreen);
      return { functions, fallback: notFound.handler, extraRoutes: [eventsRoute(batchEvents, eventsToken)] };
    },
  });
  return {
    runtime,
    batchEvents,
    eventsToken,
    loadSamples: loadSampleData,
  };
}

/** The sample corpus and logos, through the real ingest code, into the tables the handlers were configured with. */
async function loadSampleData(): Promise<IngestSummary[]> {
  const { buildDataStores } = await import('../shared/composition/data-stores');
  const { buildLogoIngest } = await import('../shared/composition/logo-search');
  const { loadConfig } = await import('../shared/config');
  const { startSampleCorpus, loadSampleLogos } = await import('./sample-corpus');
  const config = loadConfig();
  const stores = buildDataStores(config);
  // The logos need only the US marks, and only to store their vectors: the images are prepared meanwhile.
  const corpus = startSampleCorpus(stores);
  const [loaded, logos] = await Promise.all([
    corpus.done,
    loadSampleLogos(buildLogoIngest(config, stores), corpus.marksIn('US')),
  ]);
  return [...loaded, logos];
}

/** The watch-rescreen function as the bus's subscriber, run as Lambda runs it. */
async function subscribeRescreen(
  bus: InProcessBatchEvents,
  onRescreen?: (event: BatchCompleted, outcome: RescreenOutcome) => void,
): Promise<void> {
  const rescreen = await import('../functions/watch-rescreen/handler');
  bus.subscribe(async (event) => {
    const outcome = await rescreen.handler({ detail: event }, lambdaContext('watch-rescreen', RESCREEN_TIMEOUT_MS));
    onRescreen?.(event, outcome);
  });
}

/** The local stand-in for PutEvents: a tool's announcement of a completed batch, onto the in-process bus. */
function eventsRoute(bus: InProcessBatchEvents, token: string): LocalRoute {
  const answer = (statusCode: number, body: unknown) => ({
    statusCode,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const handler: LambdaHttpHandler = async (event) => {
    const given = Buffer.from(event.headers[LOCAL_EVENTS_TOKEN_HEADER] ?? '');
    const expected = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return answer(403, { error: 'token' });
    const { batchCompletedSchema } = await import('../functions/watch-rescreen/handler');
    const parsed = batchCompletedSchema.safeParse(JSON.parse(event.body ?? 'null'));
    if (!parsed.success) return answer(400, { error: 'not a completed batch' });
    await bus.batchCompleted(parsed.data);
    return answer(202, { queued: true });
  };
  return { method: 'POST', path: LOCAL_EVENTS_PATH, functionName: 'local-events', handler };
}
