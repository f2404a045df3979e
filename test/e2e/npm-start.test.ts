/**
 * `npm start` as a user runs it: a child process that starts DynamoDB Local and the server, prints a working key
 * and curl lines, answers over HTTP, and on SIGTERM stops everything it started.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { readJson } from '../support/test-server';

const ROOT = path.join(__dirname, '../..');
let child: ChildProcess | undefined;

afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

function waitForOutput(process: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`no match for ${pattern} within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    process.stdout?.on('data', onData);
    process.stderr?.on('data', onData);
  });
}

it('serves with a demo account, then stops DynamoDB Local and itself on SIGTERM', async () => {
  child = spawn(process.execPath, [require.resolve('tsx/cli'), 'local/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Java and the sample corpus (marks, logos and their embeddings) take 20-60 s on a busy 2-core machine.
  const banner = await waitForOutput(child, /Stop: Ctrl-C/, 150_000);
  const base = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
  const dynamoDb = /DynamoDB Local at (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
  const apiKey = /API key \(shown once\):\s+(tmk_local_\w{32})/.exec(banner)![1]!;
  expect(banner).toMatch(/professional tier, 10000 points/);
  // What the sample lacks, so that a 低 for a brand it does not hold is read as "absent", not "safe".
  expect(banner).toMatch(
    /among them \d+ of the\s+\d+ well-known names in data\/sample\/well-known-names.txt \(Harry Potter, /,
  );
  expect(banner).toContain('answers 低 because the brand is absent, not because the title is safe');
  // Its state is in this test's own folder (TMK_STATE_DIR), never in the checkout's .local of a developer's npm start.
  const runtimeFile = path.join(process.env.TMK_STATE_DIR!, 'runtime.json');
  expect(JSON.parse(readFileSync(runtimeFile, 'utf8'))).toMatchObject({ url: base, dynamoDbEndpoint: dynamoDb });
  expect(banner).toContain(`curl -s -X POST ${base}/v1/batch-screen -H 'Authorization: Bearer ${apiKey}'`);

  const noKey = await fetch(`${base}/v1/batch-screen`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"items":[]}',
  });
  expect(noKey.status).toBe(401);
  const invalid = await fetch(`${base}/v1/v1/batch-screen`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiKey}` },
    body: '{"items":[]}',
  });
  expect(invalid.status).toBe(400);
  expect((await readJson(invalid)).error.code).toBe('invalid_request');
  expect((await fetch(`${base}/v2/anything`)).status).toBe(404);
  // The account routes, the document, the data status and the docs page run in the real handlers as wired by npm start.
  const bearer = { Authorization: `Bearer ${apiKey}` };
  expect(await readJson(await fetch(`${base}/v1/account`, { headers: bearer }))).toMatchObject({
    tier: 'professional',
    balance: 10000,
  });
  expect((await readJson(await fetch(`${base}/v1/usage`, { headers: bearer }))).records[0]).toMatchObject({
    kind: 'credit',
    points: 10000,
  });
  expect((await readJson(await fetch(`${base}/v1/allowlist`, { headers: bearer }))).brands).toEqual([]);
  expect((await readJson(await fetch(`${base}/v1/openapi.json`))).openapi).toBe('3.1.0');
  const status = await readJson(await fetch(`${base}/v1/status`));
  expect(status.markets[0].sources[0]).toMatchObject({ source: 'marks', data_as_of: '2026-11-22' });
  const script = await fetch(`${base}/docs/assets/api-reference.js`, { headers: { 'Accept-Encoding': 'gzip' } });
  expect([script.status, script.headers.get('content-encoding'), (await script.text()).length]).toEqual([
    200,
    'gzip',
    expect.any(Number),
  ]);
  expect(banner).toContain(`API reference (try each call there): ${base}/docs`);
  // The README's first screen: its curl line, run as written against this npm start, answers what it shows.
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const firstCurl = /```sh\n(curl [\s\S]*?)```\s*```json\n([\s\S]*?)```/.exec(readme)!;
  const { stdout } = await promisify(execFile)(
    'bash',
    ['-e', '-c', firstCurl[1]!.replaceAll('http://127.0.0.1:3000', base)],
    {
      env: { PATH: process.env.PATH ?? '', TMK_API_KEY: apiKey },
    },
  );
  expect(JSON.parse(stdout)).toEqual(JSON.parse(firstCurl[2]!));

  const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(existsSync(runtimeFile)).toBe(false);
  await expect(fetch(dynamoDb, { method: 'POST', signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  await expect(fetch(base, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
}, 180_000);
