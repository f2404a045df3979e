/**
 * The service as `npm start` runs it: DynamoDB Local, the tables, the real Lambda handlers behind the local
 * server (configured from the environment, exactly as in Lambda), and the sample corpus loaded through the real
 * ingest code. `npm start` and `npm run load` both stand on it.
 */
import { rmSync } from 'node:fs';
import type { IngestSummary } from '../shared/ingest/ingest-batch';
import { localEnvironment } from './local-config';
import { startLocalRuntime, type LocalRuntime } from './runtime';

export interface LocalService {
  runtime: LocalRuntime;
  /** Loads the sample corpus and logos; returns each batch's summary. */
  loadSamples(): Promise<IngestSummary[]>;
}

export async function startLocalService(options: {
  port: number;
  tablePrefix: string;
  logoIndexDir: string;
  dynamoDbEndpoint?: string;
}): Promise<LocalService> {
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
        openapi: openapi.handler,
        status: status.handler,
        docs: docs.handler,
      };
      return { functions, fallback: notFound.handler };
    },
  });
  return {
    runtime,
    async loadSamples() {
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
    },
  };
}
