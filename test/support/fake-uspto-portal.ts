/**
 * A local stand-in for the USPTO Open Data Portal's bulk datasets (the remote service has no local form): the
 * product listing in its documented JSON shape, each file's download path answering with a redirect to a second
 * server (another origin, like the portal's signed download host), and the faults a daily job must survive: a 429
 * with Retry-After, a file cut short, a file published late. Both servers record what they were asked, with headers.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PublishedFile {
  product: string;
  fileName: string;
  dataDate: string;
  bytes: Buffer;
  /** Serve only this many bytes while listing the whole size (a transfer cut short). */
  cutAt?: number;
}

export interface SeenRequest {
  path: string;
  apiKey: string | undefined;
}

export interface FakePortal {
  origin: string;
  published: PublishedFile[];
  /** Answer the next n listing requests with 429 and this Retry-After. */
  throttleListings(n: number, retryAfter: string): void;
  listings: SeenRequest[];
  downloads: SeenRequest[];
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startFakePortal(apiKey: string): Promise<FakePortal> {
  const published: PublishedFile[] = [];
  const listings: SeenRequest[] = [];
  const downloads: SeenRequest[] = [];
  let throttled = 0;
  let retryAfter = '1';

  const downloadServer = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    downloads.push({ path: url.pathname, apiKey: request.headers['x-api-key'] as string | undefined });
    const name = decodeURIComponent(url.pathname.replace(/^\/signed\//, ''));
    const file = published.find((f) => f.fileName === name);
    if (!file || url.searchParams.get('signature') !== 'ok') {
      response.writeHead(403).end();
      return;
    }
    const body = file.cutAt === undefined ? file.bytes : file.bytes.subarray(0, file.cutAt);
    response.writeHead(200, { 'content-type': 'application/zip', 'content-length': body.length }).end(body);
  });
  const downloadOrigin = await listen(downloadServer);

  const portalServer = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const seen = { path: url.pathname, apiKey: request.headers['x-api-key'] as string | undefined };
    if (seen.apiKey !== apiKey) {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"invalid api key"}');
      return;
    }
    const file = /^\/api\/v1\/datasets\/products\/files\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (file) {
      response.writeHead(302, { location: `${downloadOrigin}/signed/${file[2]}?signature=ok` }).end();
      return;
    }
    const product = /^\/api\/v1\/datasets\/products\/([^/]+)$/.exec(url.pathname);
    if (!product) {
      response.writeHead(404).end();
      return;
    }
    listings.push(seen);
    if (throttled > 0) {
      throttled--;
      response.writeHead(429, { 'retry-after': retryAfter }).end();
      return;
    }
    const from = url.searchParams.get('fileDataFromDate') ?? '0000-00-00';
    const to = url.searchParams.get('fileDataToDate') ?? '9999-99-99';
    const files = published.filter((f) => f.product === product[1] && f.dataDate >= from && f.dataDate <= to);
    const body = {
      count: 1,
      bulkDataProductBag: [
        {
          productIdentifier: product[1],
          productTitleText: 'Trademark Full Text XML Data (No Images) - Daily Applications',
          productFrequencyText: 'DAILY',
          productFileBag: {
            count: files.length,
            fileDataBag: files.map((f) => ({
              fileName: f.fileName,
              fileSize: f.bytes.length,
              fileDataFromDate: f.dataDate,
              fileDataToDate: f.dataDate,
              fileTypeText: 'Data',
              fileDownloadURI: `${'http://127.0.0.1'}:${(portalServer.address() as AddressInfo).port}/api/v1/datasets/products/files/${f.product}/${f.fileName}`,
              fileReleaseDate: f.dataDate,
              fileLastModifiedDateTime: `${f.dataDate} 06:00:00`,
            })),
          },
        },
      ],
    };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  const origin = await listen(portalServer);

  return {
    origin,
    published,
    listings,
    downloads,
    throttleListings(n, value) {
      throttled = n;
      retryAfter = value;
    },
    async close() {
      portalServer.close();
      downloadServer.close();
      await Promise.all([once(portalServer, 'close'), once(downloadServer, 'close')]);
    },
  };
}
