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
import type { FunctionName } from '../functions/routes';
import type { LambdaHttpHandler, LocalRoute } from './server';
import { LOCAL_EVENTS_PATH, LOCAL_EVENTS_TOKEN_HEADER } from './service-batch-events';

/** The re-screen function's timeout in AWS (infra: WatchRescreen), given to it locally too. */
const RESCREEN_TIMEOUT_MS = 15 * 60 * 1000;

/** Each route's function, loaded once the environment is configured (the handlers read it, as in Lambda). */
const ROUTE_HANDLERS: Record<FunctionName, () => Promise<{ handler: LambdaHttpHandler }>> = {
  'batch-screen': () => import('../functions/batch-screen/handler'),
  'image-search': () => import('../functions/image-search/handler'),
  account: () => import('../functions/account/handler'),
  usage: () => import('../functions/usage/handler'),
  'get-allowlist': () => import('../functions/get-allowlist/handler'),
  'put-allowlist': () => import('../functions/put-allowlist/handler'),
  feedback: () => import('../functions/feedback/handler'),
  'put-watch': () => import('../functions/put-watch/handler'),
  'get-watch': () => import('../functions/get-watch/handler'),
  'delete-watch': () => import('../functions/delete-watch/handler'),
  'get-alerts': () => import('../functions/get-alerts/handler'),
  'ack-alerts': () => import('../functions/ack-alerts/handler'),
  'put-webhook': () => import('../functions/put-webhook/handler'),
  'get-webhook': () => import('../functions/get-webhook/handler'),
  'delete-webhook': () => import('../functions/delete-webhook/handler'),
  'test-webhook': () => import('../functions/test-webhook/handler'),
  'webhook-dead-letters': () => import('../functions/webhook-dead-letters/handler'),
  'redeliver-webhook': () => import('../functions/redeliver-webhook/handler'),
  openapi: () => import('../functions/openapi/handler'),
  status: () => import('../functions/status/handler'),
  docs: () => import('../functions/docs/handler'),
};

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
      const functions = Object.fromEntries(
        await Promise.all(
          Object.entries(ROUTE_HANDLERS).map(async ([name, load]) => [name, (await load()).handler] as const),
        ),
      ) as Record<keyof typeof ROUTE_HANDLERS, LambdaHttpHandler>;
      const notFound = await import('../functions/not-found/handler');
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
