/**
 * Which path goes to which function, for API Gateway (infra) and the local server alike. Clients whose base URL
 * already ends in /v1 send /v1/v1/...: every /v1 route has that alias, to the same function.
 */
export type FunctionName =
  | 'batch-screen'
  | 'image-search'
  | 'account'
  | 'usage'
  | 'get-allowlist'
  | 'put-allowlist'
  | 'feedback'
  | 'put-watch'
  | 'get-watch'
  | 'delete-watch'
  | 'get-alerts'
  | 'ack-alerts'
  | 'put-webhook'
  | 'get-webhook'
  | 'delete-webhook'
  | 'test-webhook'
  | 'webhook-dead-letters'
  | 'redeliver-webhook'
  | 'openapi'
  | 'status'
  | 'docs';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Route {
  method: RouteMethod;
  /** Exact segments, or a `{name}` segment that stands for any one segment (a path parameter). */
  path: string;
  functionName: FunctionName;
}

/** The routes as documented; the OpenAPI document lists exactly these (a test holds it to them). */
export const PUBLIC_ROUTES: readonly Route[] = [
  { method: 'POST', path: '/v1/batch-screen', functionName: 'batch-screen' },
  { method: 'POST', path: '/v1/image-search', functionName: 'image-search' },
  { method: 'GET', path: '/v1/account', functionName: 'account' },
  { method: 'GET', path: '/v1/usage', functionName: 'usage' },
  { method: 'GET', path: '/v1/allowlist', functionName: 'get-allowlist' },
  { method: 'PUT', path: '/v1/allowlist', functionName: 'put-allowlist' },
  { method: 'POST', path: '/v1/feedback', functionName: 'feedback' },
  { method: 'PUT', path: '/v1/watch', functionName: 'put-watch' },
  { method: 'GET', path: '/v1/watch', functionName: 'get-watch' },
  { method: 'DELETE', path: '/v1/watch/{id}', functionName: 'delete-watch' },
  { method: 'GET', path: '/v1/alerts', functionName: 'get-alerts' },
  { method: 'POST', path: '/v1/alerts/ack', functionName: 'ack-alerts' },
  { method: 'PUT', path: '/v1/webhook', functionName: 'put-webhook' },
  { method: 'GET', path: '/v1/webhook', functionName: 'get-webhook' },
  { method: 'DELETE', path: '/v1/webhook', functionName: 'delete-webhook' },
  { method: 'POST', path: '/v1/webhook/test', functionName: 'test-webhook' },
  { method: 'GET', path: '/v1/webhook/dead-letters', functionName: 'webhook-dead-letters' },
  { method: 'POST', path: '/v1/webhook/redeliver', functionName: 'redeliver-webhook' },
  { method: 'GET', path: '/v1/openapi.json', functionName: 'openapi' },
  { method: 'GET', path: '/v1/status', functionName: 'status' },
  { method: 'GET', path: '/docs', functionName: 'docs' },
];

/** The docs page's own files (the renderer's script), served by the docs function. */
export const DOCS_ASSET_PATH = '/docs/assets/api-reference.js';

export const ROUTES: readonly Route[] = [
  ...PUBLIC_ROUTES.flatMap((route) =>
    route.path.startsWith('/v1/') ? [route, { ...route, path: `/v1${route.path}` }] : [route],
  ),
  { method: 'GET', path: DOCS_ASSET_PATH, functionName: 'docs' },
];

const PARAMETER = /^\{(\w+)\}$/;

/**
 * Whether a request path fits a route's path, and its path parameters if so (each URL-decoded; a segment that is
 * not valid percent-encoding fits no parameter). An exact segment wins over a parameter wherever both would fit
 * (matchRoute tries exact routes first).
 */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const want = template.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const parameters: Record<string, string> = {};
  for (const [i, segment] of want.entries()) {
    const name = PARAMETER.exec(segment)?.[1];
    if (name === undefined) {
      if (segment !== got[i]) return undefined;
      continue;
    }
    if (!got[i]) return undefined;
    try {
      parameters[name] = decodeURIComponent(got[i]!);
    } catch {
      return undefined;
    }
  }
  return parameters;
}

const hasParameters = (route: Route) => route.path.includes('{');
/** Exact paths before templated ones, so that a literal route is never shadowed by a parameter. */
const ROUTES_IN_MATCH_ORDER = [...ROUTES].sort((a, b) => Number(hasParameters(a)) - Number(hasParameters(b)));

function withoutTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** The route a method and path go to, with the path's parameters; undefined when none does. */
export function matchRoute(
  method: string,
  path: string,
): { route: Route; pathParameters: Record<string, string> } | undefined {
  for (const route of ROUTES_IN_MATCH_ORDER) {
    if (route.method !== method) continue;
    const pathParameters = matchPath(route.path, path);
    if (pathParameters) return { route, pathParameters };
  }
  return undefined;
}

/** The methods a known path accepts, or undefined for an unknown path (trailing slash tolerated). */
export function allowedMethods(path: string): string[] | undefined {
  const normalised = withoutTrailingSlash(path);
  const methods: string[] = ROUTES.filter((r) => matchPath(r.path, normalised)).map((r) => r.method);
  // HEAD is answered wherever GET is (the local server and API Gateway alike).
  if (methods.includes('GET')) methods.push('HEAD');
  return methods.length ? [...new Set(methods)] : undefined;
}
