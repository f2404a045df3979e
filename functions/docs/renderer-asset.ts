/**
 * The docs page's renderer: the standalone browser bundle of Scalar's API reference (@scalar/api-reference, MIT),
 * served from this service, never from a CDN. In Lambda it sits beside the handler (the bundling step copies it
 * there); locally it is read from the installed package.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const RENDERER_FILE = 'api-reference.js';

function rendererPath(): string {
  const beside = path.join(__dirname, RENDERER_FILE);
  if (existsSync(beside)) return beside;
  // Named through a variable: the Lambda bundle must not try to include the package (the file beside it serves).
  const packageName = '@scalar/api-reference';
  return path.join(path.dirname(require.resolve(packageName)), 'browser', 'standalone.js');
}

let asset: { raw: Buffer; gzip: Buffer; etag: string } | undefined;

/** Read and compressed once per instance: the raw script is over 4 MB, gzip brings it near 1 MB. */
export function rendererAsset(): { raw: Buffer; gzip: Buffer; etag: string } {
  if (!asset) {
    const raw = readFileSync(rendererPath());
    asset = {
      raw,
      gzip: gzipSync(raw, { level: 6 }),
      etag: `"${raw.length.toString(16)}-${raw.subarray(-64).toString('hex').slice(0, 16)}"`,
    };
  }
  return asset;
}
