/**
 * Scalar body fields may also come as query parameters. Query values are read as the field's type; the same value
 * in both places is fine, different values are a 400 `parameter_conflict` naming the field. Undeclared query
 * parameters are ignored. The route's path parameters (`pathFields`) are part of the input too: the path names the
 * resource, so a body or query field of the same name gives way to it.
 */
import { ParameterConflictError } from '../errors';
import type { ApiMiddleware, ApiRequest, Operation } from './types';

type QueryFieldType = NonNullable<Operation<unknown, unknown>['queryFields']>[string];

function readQueryValue(raw: string, type: QueryFieldType): unknown {
  if (type === 'string') return raw;
  // Plain decimals only: Number() would also read "0x10", "1e1" or "" as numbers.
  const pattern = type === 'integer' ? /^-?\d+$/ : /^-?\d+(?:\.\d+)?$/;
  const trimmed = raw.trim();
  return pattern.test(trimmed) ? Number(trimmed) : raw; // left as text: validation names the field and the type
}

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** Equal as given, or the same number written two ways (`9` and `"09"` are one Nice class). */
function sameValue(bodyValue: unknown, queryValue: unknown): boolean {
  if (bodyValue === queryValue) return true;
  if (typeof bodyValue === 'object' || bodyValue === null) return false;
  const [a, b] = [String(bodyValue).trim(), String(queryValue).trim()];
  return a === b || (DECIMAL.test(a) && DECIMAL.test(b) && Number(a) === Number(b));
}

export function queryMerge(options: {
  fields: Record<string, QueryFieldType>;
  pathFields?: readonly string[];
}): ApiMiddleware {
  const queryMergeBefore = (request: ApiRequest): void => {
    const body = request.internal.body ?? {};
    const merged: Record<string, unknown> = { ...body };
    const query = request.event.queryStringParameters ?? {};
    for (const [field, type] of Object.entries(options.fields)) {
      const raw = query[field];
      if (raw === undefined) continue;
      const value = readQueryValue(raw, type);
      if (Object.hasOwn(body, field) && body[field] !== undefined && !sameValue(body[field], value)) {
        throw new ParameterConflictError(field, body[field], raw);
      }
      merged[field] = Object.hasOwn(body, field) && body[field] !== undefined ? body[field] : value;
    }
    const path = request.event.pathParameters ?? {};
    for (const field of options.pathFields ?? []) {
      if (path[field] !== undefined) merged[field] = path[field];
    }
    request.internal.rawInput = merged;
  };

  return { before: queryMergeBefore };
}
