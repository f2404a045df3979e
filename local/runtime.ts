/**
 * The whole service on one machine: DynamoDB Local, the tables from the shared definitions, and the local HTTP
 * server in front of the Lambda handlers. `npm start` and the end-to-end tests both stand on it.
 */
import { createDynamoDbClients } from '../shared/adapters/aws/dynamodb-client';
import { ROUTES, type FunctionName } from '../functions/routes';
import { createTables } from './create-tables';
import { startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local';
import { createLocalApp, listen, type LambdaHttpHandler, type LocalRoute, type RunningServer } from './server';

export interface LocalRuntimeOptions {
  port: number;
  /** Use an engine that is already running (tests share one); otherwise one is started and stopped with the runtime. */
  dynamoDbEndpoint?: string;
  tablePrefix: string;
  /** Called once the tables exist, with the endpoint, to build the handlers (they read their config then). */
  handlers: (dynamoDbEndpoint: string) => Promise<{
    functions: Record<FunctionName, LambdaHttpHandler>;
    fallback: LambdaHttpHandler;
    extraRoutes?: LocalRoute[];
  }>;
}

export interface LocalRuntime {
  server: RunningServer;
  dynamoDbEndpoint: string;
  stop(): Promise<void>;
}

export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  // Without an endpoint given, a DynamoDB Local of its own, stopped with the runtime.
  const engine: DynamoDbLocal | undefined =
    options.dynamoDbEndpoint === undefined ? await startDynamoDbLocal() : undefined;
  const endpoint = engine?.endpoint ?? options.dynamoDbEndpoint!;
  try {
    const { raw } = createDynamoDbClients({ region: 'us-east-1', endpoint });
    await createTables(raw, options.tablePrefix);
    raw.destroy();
    const { functions, fallback, extraRoutes = [] } = await options.handlers(endpoint);
    const routes: LocalRoute[] = [...ROUTES.map((r) => ({ ...r, handler: functions[r.functionName] })), ...extraRoutes];
    const server = await listen(createLocalApp({ routes, fallback }), { port: options.port });
    return {
      server,
      dynamoDbEndpoint: endpoint,
      stop: async () => {
        await server.close();
        await engine?.stop();
      },
    };
  } catch (error) {
    await engine?.stop();
    throw error;
  }
}
