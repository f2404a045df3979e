/**
 * The OpenAPI document against its sources: the committed docs/openapi.json is what the schemas give today (run
 * `npm run openapi` after changing a schema), every route is in it, each request schema is the one the function
 * validates with, its examples pass that validation, every error code the code can raise is documented, and the
 * prices it shows are what the operations charge.
 */
import { readFileSync } from 'node:fs';
import type * as z from 'zod';
import { batchScreenOperation } from '../../../functions/batch-screen/handler';
import { batchScreenRequestSchema } from '../../../functions/batch-screen/schema';
import { imageSearchOperation } from '../../../functions/image-search/handler';
import { imageSearchRequestSchema } from '../../../functions/image-search/schema';
import { buildOpenApiDocument, OPERATIONS, requestJsonSchema } from '../../../functions/openapi/document';
import { ERROR_CATALOGUE } from '../../../functions/openapi/error-catalogue';
import { putAllowlistRequestSchema } from '../../../functions/put-allowlist/schema';
import { PUBLIC_ROUTES, ROUTES } from '../../../functions/routes';
import { usageQuerySchema } from '../../../functions/usage/schema';
import { OPENAPI_FILE, openApiText } from '../../../local/write-openapi';
import { PRICE_LIST } from '../../../shared/metering/price-list';
import type { ScreeningService } from '../../../shared/screening/screening-service';
import type { LogoSearchService } from '../../../shared/imaging/logo-search-service';

/** The parts of the OpenAPI 3.1 document these tests read. */
interface OpenApiOperation {
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> };
  parameters?: { name: string; in: string; required?: boolean; schema: unknown }[];
  responses: Record<string, { description: string }>;
  security?: unknown[];
}
interface OpenApiDocument {
  openapi: string;
  info: { description: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: { Error: { properties: { error: { properties: { code: { enum: string[] } } } } } };
  };
}

const doc = buildOpenApiDocument() as unknown as OpenApiDocument;

describe('the OpenAPI document', () => {
  it('is the committed docs/openapi.json exactly (npm run openapi rewrites it)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(openApiText());
  });

  it('is OpenAPI 3.1 with bearer authentication', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('has every route, and no path that is not a route', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods as object).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(PUBLIC_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    const served = new Set(ROUTES.map((r) => `${r.method} ${r.path.replace(/^\/v1\/v1\//, '/v1/')}`));
    for (const route of documented) expect(served.has(route)).toBe(true);
    expect(Object.keys(OPERATIONS).sort()).toEqual([...new Set(ROUTES.map((r) => r.functionName))].sort());
  });

  it.each([
    ['/v1/batch-screen', 'post', batchScreenRequestSchema],
    ['/v1/image-search', 'post', imageSearchRequestSchema],
    ['/v1/allowlist', 'put', putAllowlistRequestSchema],
  ] as const)(
    '%s %s: the request body is the schema the function validates with, and its example passes it',
    (path, method, schema) => {
      const body = doc.paths[path]![method]!.requestBody!.content['application/json']!;
      expect(body.schema).toEqual(requestJsonSchema(schema as z.ZodType));
      expect((schema as z.ZodType).safeParse(body.example).success).toBe(true);
    },
  );

  it('GET /v1/usage: one query parameter per field of the query schema, none required', () => {
    const parameters = doc.paths['/v1/usage']!.get!.parameters!;
    const fields = Object.keys(requestJsonSchema(usageQuerySchema).properties as object);
    expect(parameters.map((p) => `${p.in}:${p.name}`)).toEqual(fields.map((f) => `query:${f}`));
    expect(parameters.every((p) => !p.required)).toBe(true);
    expect(parameters.find((p) => p.name === 'limit')!.schema).toMatchObject({
      minimum: 1,
      maximum: 1000,
      default: 100,
    });
  });

  it('documents every error code the service can raise, with its status', () => {
    // Every file that declares service errors: the chain's and image intake's.
    const source = ['../../../shared/errors.ts', '../../../shared/imaging/image-errors.ts']
      .map((f) => readFileSync(require.resolve(f), 'utf8'))
      .join('\n');
    const raised = new Map<string, number>();
    for (const m of source.matchAll(/readonly status = (\d+);\s*readonly code = '([a-z_]+)'/g))
      raised.set(m[2]!, Number(m[1]));
    expect(raised.size).toBeGreaterThan(20);
    for (const [code, status] of raised) expect([code, ERROR_CATALOGUE[code]?.status]).toEqual([code, status]);
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toEqual(Object.keys(ERROR_CATALOGUE));
    expect(doc.info.description).toContain('| 403 | `account_suspended` |');
  });

  it('shows each metered price and tier, and they are what the operations charge', () => {
    const screening = batchScreenOperation({} as ScreeningService);
    const images = imageSearchOperation({ checkUrl: () => undefined } as unknown as LogoSearchService);
    const items = [{ title: 'a' }, { title: 'b' }, { title: 'c' }];
    expect(screening.cost!({ items, detail: false })).toEqual({ points: 3, units: 3 });
    expect(images.cost!({ country: 'US', limit: 10, detail: false, url: 'https://example.com/a.png' }).points).toBe(5);
    expect([screening.minTier, images.minTier]).toEqual(['professional', 'professional']);

    expect(doc.paths['/v1/batch-screen']!.post!).toMatchObject({
      'x-points-cost': { points: 1, per: 'item' },
      'x-min-tier': 'professional',
    });
    expect(doc.paths['/v1/image-search']!.post!).toMatchObject({
      'x-points-cost': { points: 5, per: 'call' },
      'x-min-tier': 'professional',
    });
    expect(doc.paths['/v1/account']!.get!).toMatchObject({ 'x-points-cost': { points: 0 }, 'x-min-tier': 'free' });
    expect(doc.paths['/v1/watch']!.put!).toMatchObject({
      'x-points-cost': { points: 1, per: 'item' },
      'x-min-tier': 'professional',
    });
    expect(PRICE_LIST.filter((p) => p.points > 0).map((p) => p.operation)).toEqual([
      'batch-screen',
      'image-search',
      'put-watch',
    ]);
    expect(doc.info.description).toMatch(/free < basic < professional < enterprise/);
  });

  it('lists the error codes of each operation by status', () => {
    const responses = doc.paths['/v1/batch-screen']!.post!.responses;
    expect(Object.keys(responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '402', '403', '409', '413', '415', '422', '429']),
    );
    expect(responses['403']!.description).toContain('`tier_not_allowed`');
    expect(responses['403']!.description).toContain('`account_suspended`');
    expect(doc.paths['/v1/openapi.json']!.get!.security).toEqual([]);
  });

  it('GET /v1/status: no key, no price, its failures only (500, 503), and the response schema', () => {
    const status = doc.paths['/v1/status']!.get! as OpenApiOperation & Record<string, unknown>;
    expect(status.security).toEqual([]);
    expect(status['x-points-cost']).toBeUndefined();
    expect(Object.keys(status.responses)).toEqual(['200', '500', '503']);
    const schema = (status.responses['200'] as unknown as { content: Record<string, { schema: unknown }> }).content[
      'application/json'
    ]!.schema;
    expect(schema).toMatchObject({ required: ['as_of', 'markets'] });
  });
});
