/**
 * Which path goes to which function, for API Gateway (infra) and the local server alike. Clients whose base URL
 * already ends in /v1 send /v1/v1/...: those aliases go to the same functions.
 */
export type FunctionName = 'batch-screen' | 'image-search';

export interface Route {
  method: 'POST';
  path: string;
  functionName: FunctionName;
}

const OPERATIONS: { path: string; functionName: FunctionName }[] = [
  { path: '/v1/batch-screen', functionName: 'batch-screen' },
  { path: '/v1/image-search', functionName: 'image-search' },
];

export const ROUTES: readonly Route[] = OPERATIONS.flatMap(({ path, functionName }) => [
  { method: 'POST' as const, path, functionName },
  { method: 'POST' as const, path: `/v1${path}`, functionName },
]);

/** The methods a known path accepts, or undefined for an unknown path (trailing slash tolerated). */
export function allowedMethods(path: string): string[] | undefined {
  const normalised = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const methods = ROUTES.filter((r) => r.path === normalised).map((r) => r.method);
  return methods.length ? [...new Set(methods)] : undefined;
}
