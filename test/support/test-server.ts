/** The local server over the test stack: every real route, the not-found handler, and test-only routes. */
import { buildApiHandler } from '../../shared/http/api-handler';
import type { Operation } from '../../shared/http/types';
import { batchScreenOperation } from '../../functions/batch-screen/handler';
import { buildDataJobStore, buildDataStores } from '../../shared/composition/data-stores';
import { buildLogoSearch } from '../../shared/composition/logo-search';
import { createScreeningService } from '../../shared/screening/screening-service';
import { imageSearchOperation } from '../../functions/image-search/handler';
import { handler as notFound } from '../../functions/not-found/handler';
import { createLocalApp, listen, type LambdaHttpHandler, type RunningServer } from '../../local/server';
import { ROUTES } from '../../functions/routes';
import { accountOperation } from '../../functions/account/handler';
import { usageOperation } from '../../functions/usage/handler';
import { getAllowlistOperation } from '../../functions/get-allowlist/handler';
import { putAllowlistOperation } from '../../functions/put-allowlist/handler';
import { feedbackOperation } from '../../functions/feedback/handler';
import { buildFeedbackStore } from '../../shared/composition/feedback';
import { putWatchOperation } from '../../functions/put-watch/handler';
import { getWatchOperation } from '../../functions/get-watch/handler';
import { getAlertsOperation } from '../../functions/get-alerts/handler';
import { ackAlertsOperation } from '../../functions/ack-alerts/handler';
import { deleteWatchOperation } from '../../functions/delete-watch/handler';
import { buildWatchStore } from '../../shared/composition/watch';
import { putWebhookOperation } from '../../functions/put-webhook/handler';
import { getWebhookOperation } from '../../functions/get-webhook/handler';
import { deleteWebhookOperation } from '../../functions/delete-webhook/handler';
import { testWebhookOperation } from '../../functions/test-webhook/handler';
import { webhookDeadLettersOperation } from '../../functions/webhook-dead-letters/handler';
import { redeliverWebhookOperation } from '../../functions/redeliver-webhook/handler';
import { buildWebhookStore } from '../../shared/composition/webhooks';
import type { DeliverySettings } from '../../shared/webhooks/deliver-event';
import { handler as openapi } from '../../functions/openapi/handler';
import { handler as docs } from '../../functions/docs/handler';
import { statusHandler } from '../../functions/status/handler';
import { buildAllowlistStore } from '../../shared/composition/allowlist';
import type { TestStack } from './test-stack';

export async function startTestServer<Input, Output>(
  stack: TestStack,
  testOperations: { path: string; operation: Operation<Input, Output> }[] = [],
  options: {
    timeoutMs?: number;
    /** A test's own HTTPS receiver: its CA and loopback address, trusted by the webhook routes of this server only. */
    webhookTrust?: Pick<DeliverySettings, 'trustedCa' | 'allowAddress'>;
  } = {},
): Promise<RunningServer> {
  const webhooks = buildWebhookStore(stack.config);
  const allowlists = buildAllowlistStore(stack.config);
  const dataStores = buildDataStores(stack.config);
  const functions: Record<string, LambdaHttpHandler> = {
    'batch-screen': buildApiHandler(
      batchScreenOperation(
        createScreeningService(buildDataStores(stack.config), { workBudget: stack.config.screening.workBudget }),
        allowlists,
      ),
      stack.deps,
    ),
    account: buildApiHandler(accountOperation(stack.deps), stack.deps),
    usage: buildApiHandler(usageOperation(stack.deps.ledger, stack.deps.now), stack.deps),
    'get-allowlist': buildApiHandler(getAllowlistOperation(allowlists), stack.deps),
    'put-allowlist': buildApiHandler(putAllowlistOperation(allowlists, stack.deps.now), stack.deps),
    feedback: buildApiHandler(feedbackOperation(buildFeedbackStore(stack.config), stack.deps.now), stack.deps),
    'put-watch': buildApiHandler(
      putWatchOperation(
        buildWatchStore(stack.config),
        createScreeningService(buildDataStores(stack.config), { workBudget: stack.config.screening.workBudget }),
        allowlists,
        stack.deps.now,
      ),
      stack.deps,
    ),
    'get-watch': buildApiHandler(getWatchOperation(buildWatchStore(stack.config)), stack.deps),
    'delete-watch': buildApiHandler(deleteWatchOperation(buildWatchStore(stack.config)), stack.deps),
    'get-alerts': buildApiHandler(getAlertsOperation(buildWatchStore(stack.config)), stack.deps),
    'ack-alerts': buildApiHandler(ackAlertsOperation(buildWatchStore(stack.config), stack.deps.now), stack.deps),
    'put-webhook': buildApiHandler(
      putWebhookOperation(
        webhooks,
        stack.deps.now,
        options.webhookTrust?.allowAddress ? { allowAddress: options.webhookTrust.allowAddress } : undefined,
      ),
      stack.deps,
    ),
    'get-webhook': buildApiHandler(getWebhookOperation(webhooks), stack.deps),
    'delete-webhook': buildApiHandler(deleteWebhookOperation(webhooks), stack.deps),
    'test-webhook': buildApiHandler(
      testWebhookOperation(webhooks, stack.deps.now, options.webhookTrust ?? {}),
      stack.deps,
    ),
    'webhook-dead-letters': buildApiHandler(webhookDeadLettersOperation(webhooks), stack.deps),
    'redeliver-webhook': buildApiHandler(redeliverWebhookOperation(webhooks, options.webhookTrust ?? {}), stack.deps),
    openapi,
    status: statusHandler({
      stores: { ...dataStores, jobs: buildDataJobStore(stack.config) },
      logger: stack.deps.logger,
      deadlineMarginMs: stack.config.http.deadlineMarginMs,
    }),
    docs,
    'image-search': buildApiHandler(imageSearchOperation(buildLogoSearch(stack.config)), stack.deps),
  };
  const routes = [
    ...ROUTES.map((r) => ({ ...r, handler: functions[r.functionName]! })),
    ...testOperations.map(({ path, operation }) => ({
      method: 'POST',
      path,
      functionName: operation.name,
      handler: buildApiHandler(operation, stack.deps),
    })),
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
// biome-ignore lint/suspicious/noExplicitAny: bodies of every route and error, read by path in jest assertions that check their shape
export async function readJson(response: Response): Promise<any> {
  return response.json();
}
