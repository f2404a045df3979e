/** GET /docs: the API reference page (Scalar, bundled), and GET /docs/assets/api-reference.js, its script. No key. */
import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { errorEnvelope } from '../../shared/http/error-envelope';
import { header } from '../../shared/http/headers';
import { requestLogging } from '../../shared/http/request-logging';
import type { ApiEvent, ApiResult } from '../../shared/http/types';
import { createLogger } from '../../shared/observability';
import { DOCS_ASSET_PATH } from '../routes';
import { rendererAsset } from './renderer-asset';

/**
 * Paths are absolute, so the page works at /docs and /docs/ alike. No fonts, proxy or telemetry from elsewhere. The
 * mount is not `#api-reference`: the renderer would also mount a second, default-configured copy on that id.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trademark-risk API reference</title>
</head>
<body>
<div id="reference"></div>
<script src="${DOCS_ASSET_PATH}"></script>
<script>
Scalar.createApiReference('#reference', {
  url: '/v1/openapi.json',
  proxyUrl: '',
  withDefaultFonts: false,
  customCss: ':root { --scalar-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; --scalar-font-code: ui-monospace, Menlo, Consolas, monospace; }',
  telemetry: false,
  hideClientButton: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
});
</script>
</body>
</html>
`;

/** The page loads nothing from anywhere else: its script, fonts, and its "try it" calls stay on this host. */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
].join('; ');

export async function serveDocs(event: ApiEvent): Promise<ApiResult> {
  if ((event.rawPath ?? '').replace(/^\/v1/, '') !== DOCS_ASSET_PATH) {
    return {
      statusCode: 200,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'public, max-age=300',
        'Content-Security-Policy': PAGE_POLICY,
      },
      body: PAGE,
    };
  }
  const asset = rendererAsset();
  const headers = {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=86400',
    ETag: asset.etag,
    Vary: 'Accept-Encoding',
  };
  if (header(event, 'if-none-match') === asset.etag) return { statusCode: 304, headers, body: '' };
  // Lambda answers at most 6 MB: the compressed script always fits, the raw one only for a client without gzip.
  if (/\bgzip\b/.test(header(event, 'accept-encoding') ?? '')) {
    return {
      statusCode: 200,
      headers: { ...headers, 'Content-Encoding': 'gzip' },
      body: asset.gzip.toString('base64'),
      isBase64Encoded: true,
    };
  }
  return { statusCode: 200, headers, body: asset.raw.toString('utf8') };
}

const logger = createLogger('trademark-risk-api');

export const handler = middy<ApiEvent, ApiResult, Error, Context>()
  .use([requestLogging({ logger, operation: 'docs' }), errorEnvelope({ logger })] as unknown as MiddlewareObj<
    ApiEvent,
    ApiResult,
    Error,
    Context
  >[])
  .handler(serveDocs);
