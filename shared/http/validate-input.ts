/**
 * Validates the merged input with the operation's zod schema; a 400 `invalid_request` lists every field issue.
 * The operation's precheck runs first, for refusals that have a code of their own (too_many_items, ...); its
 * `validate` runs last, on the parsed input, for refusals of that kind that need the schema's guarantees.
 */
import type * as z from 'zod';
import { InvalidRequestError, type FieldIssue } from '../errors';
import type { ApiMiddleware, ApiRequest, Operation } from './types';

export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)),
    '',
  );
}

export function issuesOf(error: z.ZodError, maxIssues = 50): FieldIssue[] {
  return error.issues.slice(0, maxIssues).map((issue) => ({ field: fieldPath(issue.path), message: issue.message }));
}

export function validateInput<Input>(
  operation: Pick<Operation<Input, unknown>, 'schema' | 'precheck' | 'validate'>,
): ApiMiddleware {
  const validateInputBefore = (request: ApiRequest): void => {
    const raw = request.internal.rawInput ?? request.internal.body ?? {};
    operation.precheck?.(raw);
    const parsed = operation.schema.safeParse(raw);
    if (!parsed.success) throw new InvalidRequestError(issuesOf(parsed.error));
    operation.validate?.(parsed.data);
    request.internal.input = parsed.data;
  };

  return { before: validateInputBefore };
}
