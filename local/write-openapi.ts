/** `npm run openapi`: writes the OpenAPI document built from the request schemas to docs/openapi.json. */
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument } from '../functions/openapi/document';

export const OPENAPI_FILE = path.join(__dirname, '../docs/openapi.json');

export function openApiText(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

if (require.main === module) {
  mkdirSync(path.dirname(OPENAPI_FILE), { recursive: true });
  writeFileSync(OPENAPI_FILE, openApiText());
  console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
}
