/** The local server over the test stack: the two real operations, the not-found handler, and test-only routes. */
import { buildApiHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import { batchScreenOperation } from '../../functions/batch-screen/handler';
import { buildDataStores, buildLogoSearch } from '../../shared/composition-root';
import { createScreeningService } from '../../shared/screening/screening-service';
import { imageSearchOperation } from '../../functions/image-search/handler';
import { handler as notFound } from '../../functions/not-found/handler';
import { createLocalApp, listen, type LambdaHttpHandler, type RunningServer } from '../../local/server';
import { ROUTES } from '../../functions/routes';
import type { TestStack } from './test-stack';

export async function startTestServer(
  stack: TestStack,
  testOperations: { path: string; operation: Operation<any, any> }[] = [],
  options: { timeoutMs?: number } = {},
): Promise<RunningServer> {
  const functions: Record<string, LambdaHttpHandler> = {
    'batch-screen': buildApiHandler(batchScreenOperation(createScreeningService(buildDataStores(stack.config), { workBudget: stack.config.screening.workBudget })), stack.deps),
    'image-search': buildApiHandler(imageSearchOperation(buildLogoSearch(stack.config)), stack.deps),
  };
  const routes = [
    ...ROUTES.map((r) => ({ ...r, handler: functions[r.functionName]! })),
    ...testOperations.map(({ path, operation }) => ({ method: 'POST', path, functionName: operation.name, handler: buildApiHandler(operation, stack.deps) })),
  ];
  return listen(createLocalApp({ routes, fallback: notFound, timeoutMs: options.timeoutMs }), { port: 0 });
}

export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A response body as JSON, typed loosely for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function readJson(response: Response): Promise<any> {
  return response.json();
}
