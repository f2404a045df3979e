/**
 * The SDK against the OpenAPI document the API serves: every path and method has an SDK method (sdk/src OPERATIONS),
 * every documented route is in it, and every response field the SDK's types require is in the operation's schema.
 */
import { PUBLIC_ROUTES } from '../../functions/routes';
import type { RunningServer } from '../../local/server';
import { createClient, OPERATIONS, type OperationId, RESPONSE_FIELDS, TrademarkRiskClient } from '../../sdk/src';
import { startTestServer } from '../support/test-server';
import { createTestStack } from '../support/test-stack';

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
};
type Document = {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>
  >;
  components?: Record<string, Record<string, unknown>>;
};

let server: RunningServer;
let document: Document;

beforeAll(async () => {
  server = await startTestServer(await createTestStack());
  document = (await createClient({ baseUrl: server.url }).openapi()) as unknown as Document;
});
afterAll(async () => server?.close());

function resolve(schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  const [, section, name] = schema.$ref.replace(/^#\//, '').split('/');
  return resolve(document.components?.[section!]?.[name!] as Schema | undefined);
}

/** The schemas a value of this schema may take (allOf, anyOf, oneOf flattened). */
function variants(schema: Schema | undefined): Schema[] {
  const s = resolve(schema);
  if (!s) return [];
  const nested = [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap(variants);
  return [s, ...nested];
}

/** Whether `a.b[].c` names a property in the schema. */
function hasField(schema: Schema | undefined, field: string): boolean {
  let current: Schema[] = variants(schema);
  for (const part of field.split('.')) {
    const isArray = part.endsWith('[]');
    const name = isArray ? part.slice(0, -2) : part;
    const next = current.flatMap((s) => (s.properties?.[name] ? variants(s.properties[name]) : []));
    if (next.length === 0) return false;
    current = isArray ? next.flatMap((s) => variants(s.items)) : next;
    if (current.length === 0) return false;
  }
  return true;
}

function successSchema(method: string, path: string): Schema | undefined {
  const responses = document.paths[path]?.[method.toLowerCase()]?.responses ?? {};
  const status = Object.keys(responses).find((code) => code.startsWith('2'));
  return status ? responses[status]?.content?.['application/json']?.schema : undefined;
}

const bindings = Object.entries(OPERATIONS) as [OperationId, (typeof OPERATIONS)[OperationId]][];

it('has an SDK method for every path and method of the served document', () => {
  const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
  expect(documented.length).toBeGreaterThan(0);
  const bound = bindings.map(([, b]) => `${b.method} ${b.path}`);
  expect(documented.filter((op) => !bound.includes(op))).toEqual([]);
  expect(bound.filter((op) => !documented.includes(op))).toEqual([]);
});

it('has an SDK method for every public route', () => {
  const bound = bindings.map(([, b]) => `${b.method} ${b.path}`);
  expect(PUBLIC_ROUTES.map((r) => `${r.method} ${r.path}`).filter((op) => !bound.includes(op))).toEqual([]);
});

it('names a method the client has for every operation', () => {
  const client = createClient({ baseUrl: 'http://127.0.0.1:1' });
  for (const [, binding] of bindings) {
    expect(typeof (client as unknown as Record<string, unknown>)[binding.sdkMethod]).toBe('function');
    expect(binding.sdkMethod in TrademarkRiskClient.prototype).toBe(true);
  }
});

it.each(bindings)('%s: the response fields the SDK requires are in the document', (operationId, binding) => {
  const fields = RESPONSE_FIELDS[operationId];
  if (fields.length === 0) return;
  const schema = successSchema(binding.method, binding.path);
  expect(schema).toBeDefined();
  expect(fields.filter((field) => !hasField(schema, field))).toEqual([]);
});

it('fails on a field the document lacks', () => {
  expect(hasField(successSchema('GET', '/v1/account'), 'balance')).toBe(true);
  expect(hasField(successSchema('GET', '/v1/account'), 'no_such_field')).toBe(false);
  expect(hasField(successSchema('GET', '/v1/status'), 'markets[].sources[].no_such_field')).toBe(false);
});
