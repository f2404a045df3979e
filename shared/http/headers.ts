import type { ApiEvent } from './types';

/** API Gateway v2 lower-cases header names; the local server does too. This tolerates either. */
export function header(event: ApiEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return value ?? undefined;
  }
  return undefined;
}

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}) {
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}
