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
  | 'get-alerts'
  | 'ack-alerts'
  | 'openapi'
  | 'status'
  | 'docs';

export type RouteMethod = 'GET' | 'POST' | 'PUT';

export interface Route {
  method: RouteMethod;
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
  { method: 'GET', path: '/v1/alerts', functionName: 'get-alerts' },
  { method: 'POST', path: '/v1/alerts/ack', functionName: 'ack-alerts' },
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

/** The methods a known path accepts, or undefined for an unknown path (trailing slash tolerated). */
export function allowedMethods(path: string): string[] | undefined {
  const normalised = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const methods: string[] = ROUTES.filter((r) => r.path === normalised).map((r) => r.method);
  // HEAD is answered wherever GET is (the local server and API Gateway alike).
  if (methods.includes('GET')) methods.push('HEAD');
  return methods.length ? [...new Set(methods)] : undefined;
}
