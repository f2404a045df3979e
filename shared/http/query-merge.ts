/**
 * Scalar body fields may also come as query parameters. Query values are read as the field's type; the same value
 * in both places is fine, different values are a 400 `parameter_conflict` naming the field. Undeclared query
 * parameters are ignored.
 */
import { ParameterConflictError } from '../errors';
import type { ApiMiddleware, ApiRequest, Operation } from './types';

type QueryFieldType = NonNullable<Operation<unknown, unknown>['queryFields']>[string];

function readQueryValue(raw: string, type: QueryFieldType): unknown {
  if (type === 'string') return raw;
  const trimmed = raw.trim();
  const numeric = trimmed === '' ? Number.NaN : Number(trimmed);
  if (!Number.isFinite(numeric)) return raw; // left as text: validation names the field and the expected type
  return type === 'integer' && !Number.isInteger(numeric) ? raw : numeric;
}

function sameValue(bodyValue: unknown, queryValue: unknown): boolean {
  return bodyValue === queryValue || (typeof bodyValue !== 'object' && String(bodyValue) === String(queryValue));
}

export function queryMerge(options: { fields: Record<string, QueryFieldType> }): ApiMiddleware {
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
    request.internal.rawInput = merged;
  };

  return { before: queryMergeBefore };
}
