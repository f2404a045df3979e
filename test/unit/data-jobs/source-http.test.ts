/** The data jobs' HTTP calls: Retry-After in both forms, bounded retries, the credential kept to the source's origin. */
import { retryAfterMs, SourceHttp, SourceHttpError } from '../../../shared/data-jobs/source-http';
import { UsptoPortal } from '../../../shared/data-jobs/uspto-portal';

type Answer = { status: number; headers?: Record<string, string>; body?: string };

/** A scripted fetch (the remote service has no local form here): answers in order, records each request. */
function scripted(answers: Answer[]) {
  const seen: { url: string; headers: Record<string, string> }[] = [];
  const fetch = (async (url: URL | string, init?: RequestInit) => {
    seen.push({ url: String(url), headers: { ...(init?.headers as Record<string, string>) } });
    const answer = answers.shift() ?? { status: 500 };
    return new Response(answer.body ?? null, { status: answer.status, headers: answer.headers });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('SourceHttp', () => {
  it('waits what 429 asks, then succeeds', async () => {
    const waits: number[] = [];
    const { fetch } = scripted([
      { status: 429, headers: { 'retry-after': '3' } },
      { status: 200, body: '{"a":1}' },
    ]);
    const http = new SourceHttp('https://source.test', {
      headers: {},
      fetch,
      sleep: async (ms) => void waits.push(ms),
    });

    expect(await http.getJson('/x')).toEqual({ a: 1 });
    expect(waits).toEqual([3000]);
  });

  it('leaves a long Retry-After to the next run instead of waiting it out', async () => {
    const { fetch } = scripted([{ status: 429, headers: { 'retry-after': '3600' } }]);
    const http = new SourceHttp('https://source.test', {
      headers: {},
      fetch,
      maxRetryAfterMs: 60_000,
      sleep: async () => {},
    });

    await expect(http.get('/x')).rejects.toThrow('asks to wait 3600 s: left for the next run');
  });

  it('does not retry a 4xx other than 429, and never puts the credential or a query in the error', async () => {
    const { fetch, seen } = scripted([{ status: 403 }]);
    const http = new SourceHttp('https://source.test', {
      headers: { 'X-API-KEY': 'k-secret' },
      fetch,
      sleep: async () => {},
    });

    const error = await http.get('/files/a.zip?signature=s3cr3t').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SourceHttpError);
    expect((error as Error).message).toBe('https://source.test/files/a.zip answered 403');
    expect(seen).toHaveLength(1);
  });

  it('gives up after its attempts on 5xx', async () => {
    const { fetch, seen } = scripted([{ status: 502 }, { status: 503 }, { status: 500 }]);
    const http = new SourceHttp('https://source.test', { headers: {}, fetch, attempts: 3, sleep: async () => {} });

    await expect(http.get('/x')).rejects.toThrow('answered 500');
    expect(seen).toHaveLength(3);
  });

  it('follows a redirect to another origin without the credential', async () => {
    const { fetch, seen } = scripted([
      { status: 302, headers: { location: 'https://downloads.test/signed/a.zip?sig=1' } },
      { status: 200, body: 'zip' },
    ]);
    const http = new SourceHttp('https://source.test', { headers: { 'X-API-KEY': 'k' }, fetch });

    expect(await (await http.get('/files/a.zip')).text()).toBe('zip');
    expect(seen[0]!.headers['X-API-KEY']).toBe('k');
    expect(seen[1]!.url).toBe('https://downloads.test/signed/a.zip?sig=1');
    expect(seen[1]!.headers['X-API-KEY']).toBeUndefined();
  });
});

describe('UsptoPortal.listFiles', () => {
  it('reads the documented listing, oldest data first, and reports entries it cannot read', async () => {
    const entry = (fileName: string, day: string) => ({
      fileName,
      fileSize: 10,
      fileDataFromDate: day,
      fileDataToDate: day,
      fileDownloadURI: `https://source.test/api/v1/datasets/products/files/TRTDXFAP/${fileName}`,
    });
    const body = {
      count: 1,
      bulkDataProductBag: [
        {
          productIdentifier: 'TRTDXFAP',
          productFileBag: {
            count: 4,
            fileDataBag: [
              entry('apc261121.zip', '2026-11-21'),
              entry('apc261120.zip', '2026-11-20'),
              { fileName: '../escape.zip', fileDataToDate: '2026-11-20', fileDownloadURI: 'https://x.test/a' },
              entry('apc261101.zip', '2026-11-01'),
            ],
          },
        },
      ],
    };
    const { fetch, seen } = scripted([{ status: 200, body: JSON.stringify(body) }]);
    const portal = new UsptoPortal({ apiKey: 'k', origin: 'https://source.test', fetch });

    const listing = await portal.listFiles('TRTDXFAP', '2026-11-15', '2026-11-28');

    expect(seen[0]!.url).toBe(
      'https://source.test/api/v1/datasets/products/TRTDXFAP?fileDataFromDate=2026-11-15&fileDataToDate=2026-11-28&includeFiles=true',
    );
    expect(listing.files.map((f) => [f.fileName, f.dataDate])).toEqual([
      ['apc261120.zip', '2026-11-20'],
      ['apc261121.zip', '2026-11-21'],
    ]);
    expect(listing.unreadable).toEqual([expect.stringMatching(/^\.\.\/escape\.zip: a plain file name/)]);
  });

  it('refuses a listing that is not in the documented shape', async () => {
    const { fetch } = scripted([{ status: 200, body: '{"bulkDataProductBag": "no"}' }]);
    const portal = new UsptoPortal({ apiKey: 'k', origin: 'https://source.test', fetch });

    await expect(portal.listFiles('TRTDXFAP', '2026-11-15', '2026-11-28')).rejects.toThrow(
      'not in the documented shape',
    );
  });
});
