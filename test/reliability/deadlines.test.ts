/**
 * The worst inputs of the issue, through the local runtime with the production timeout (functions/limits.ts, 15 s)
 * over real HTTP and DynamoDB Local: 1,000 titles of 500 Chinese characters, and a 4096-pixel SVG of 20 nested
 * blur + dilate filters with 100 variants of it. Each is answered in time and leaves no charge standing; and when
 * the work budget is lifted so that the batch really runs into the deadline, it is cut off, refunded and answered
 * before the function's time is out.
 */
import type { RunningServer } from '../../local/server';
import { API_FUNCTION_TIMEOUT_SECONDS } from '../../functions/limits';
import { auditAccount } from '../../shared/metering/accounts';
import { createTestStack, type TestStack } from '../support/test-stack';
import { post, readJson, startTestServer } from '../support/test-server';
import { markPng } from '../unit/imaging/test-images';

/** What a function must answer within: its timeout less the deadline margin (DEADLINE_MARGIN_MS, 1.5 s). */
const DEADLINE_MS = API_FUNCTION_TIMEOUT_SECONDS * 1000 - 1500;

function figure(what: string, ms: number): void {
  if (process.env.FAULT_FIGURES) process.stdout.write(`${what} ${ms} ms\n`);
}

const CJK = '耐克阿迪达斯苹果华为小米运动鞋蓝牙耳机充电器无线手机壳保护套不锈钢杯子';

function cjkTitle(seed: number): string {
  let x = seed;
  let title = '';
  for (let i = 0; i < 500; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    title += CJK[x % CJK.length];
  }
  return title;
}

const worstBatch = { items: Array.from({ length: 1000 }, (_, i) => ({ title: cjkTitle(i + 1) })) };

/** The SVG of the issue: 4096 px, `filters` nested groups each with a blur and a dilate. */
function hostileSvg(filters: number, radius: number, deviation: number): string {
  let defs = '';
  let body = '<rect width="4096" height="4096" fill="red"/>';
  for (let i = 0; i < filters; i++) {
    defs += `<filter id="f${i}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${deviation}"/><feMorphology operator="dilate" radius="${radius}"/></filter>`;
    body = `<g filter="url(#f${i})">${body}</g>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="4096" height="4096"><defs>${defs}</defs>${body}</svg>`;
}

/** The parts of an error body these tests read. */
interface ErrorBody {
  error: { code: string; message: string; details: { items_that_fit?: number } };
}

async function timed(send: () => Promise<Response>): Promise<{ response: Response; ms: number; body: ErrorBody }> {
  const startedAt = Date.now();
  const response = await send();
  const body = await readJson(response);
  return { response, ms: Date.now() - startedAt, body };
}

let stack: TestStack;
let server: RunningServer;

beforeAll(async () => {
  stack = await createTestStack();
  server = await startTestServer(stack);
});
afterAll(async () => server?.close());

describe(`with the production timeout (${API_FUNCTION_TIMEOUT_SECONDS} s)`, () => {
  it('1,000 titles of 500 Chinese characters are refused before any work, uncharged, with how many fit', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 5000 });

    const { response, ms, body } = await timed(() =>
      post(`${server.url}/v1/batch-screen`, worstBatch, { Authorization: `Bearer ${apiKey}` }),
    );

    expect(response.status).toBe(413);
    expect(body.error.code).toBe('batch_too_complex');
    expect(body.error.details.items_that_fit).toBeGreaterThan(0);
    expect(body.error.details.items_that_fit).toBeLessThan(1000);
    // The aim (<= 3 s) is a figure for RELIABILITY.md (FAULT_FIGURES=1 prints it); the test holds the deadline.
    expect(ms).toBeLessThan(DEADLINE_MS);
    figure('worst batch refused in', ms);
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(5000);
    expect(await stack.deps.ledger.entries(accountId)).toHaveLength(1);
  });

  it('the hostile SVG and 100 variants are each refused as image_too_complex, uncharged, before the deadline', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 5000 });
    const variants = [
      hostileSvg(20, 40, 60),
      ...Array.from({ length: 100 }, (_, i) => hostileSvg(3 + (i % 18), 5 + ((i * 7) % 400), 1 + ((i * 13) % 200))),
    ];

    const slowest = { ms: 0 };
    for (const svg of variants) {
      const { response, ms, body } = await timed(() =>
        post(
          `${server.url}/v1/image-search`,
          { image_b64: Buffer.from(svg).toString('base64') },
          { Authorization: `Bearer ${apiKey}` },
        ),
      );
      expect(response.status).toBe(400);
      expect(body.error.code).toBe('image_too_complex');
      slowest.ms = Math.max(slowest.ms, ms);
    }

    expect(slowest.ms).toBeLessThan(DEADLINE_MS);
    figure('slowest of 101 hostile SVGs answered in', slowest.ms);
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(5000);
  });

  it('normal image searches stay available while the hostile SVGs arrive, 4 at a time', async () => {
    const { apiKey } = await stack.openAccount({ points: 100_000 });
    const auth = { Authorization: `Bearer ${apiKey}` };
    const logo = (await markPng(256, 256, '#c0392b')).toString('base64');
    const normalSearches = async (count: number): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const { response, ms } = await timed(() => post(`${server.url}/v1/image-search`, { image_b64: logo }, auth));
        expect(response.status).toBe(200);
        times.push(ms);
      }
      return times;
    };
    const hostile = Array.from({ length: 101 }, (_, i) =>
      Buffer.from(hostileSvg(3 + (i % 18), 5 + ((i * 7) % 400), 1 + ((i * 13) % 200))).toString('base64'),
    );

    const idle = await normalSearches(20);
    const queue = [...hostile];
    const attackers = Array.from({ length: 4 }, async () => {
      for (let svg = queue.pop(); svg; svg = queue.pop()) {
        const { response } = await timed(() => post(`${server.url}/v1/image-search`, { image_b64: svg }, auth));
        expect(response.status).toBe(400);
      }
    });
    const [loaded] = await Promise.all([normalSearches(20), ...attackers]);

    const p95 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.ceil(times.length * 0.95) - 1]!;
    figure('normal image search p95, idle', p95(idle));
    figure('normal image search p95, under the hostile SVGs', p95(loaded!));
    expect(loaded).toHaveLength(20);
  });

  it('with the work budget lifted, the batch runs into the deadline: cut off, refunded and answered before the timeout', async () => {
    const lifted = await createTestStack({ SCREENING_WORK_BUDGET: '100000000' });
    const liftedServer = await startTestServer(lifted);
    try {
      const { accountId, apiKey } = await lifted.openAccount({ points: 5000 });

      const { response, ms, body } = await timed(() =>
        post(`${liftedServer.url}/v1/batch-screen`, worstBatch, { Authorization: `Bearer ${apiKey}` }),
      );

      // Either the machine screened it all in time (charged once) or it was cut off at the margin (refunded).
      expect(ms).toBeLessThan(API_FUNCTION_TIMEOUT_SECONDS * 1000);
      figure(`lifted batch answered ${response.status} in`, ms);
      const charges = (await lifted.deps.ledger.entries(accountId)).filter((e) => e.kind === 'charge');
      expect(charges).toHaveLength(1);
      if (response.status === 200) {
        expect(charges[0]).toMatchObject({ status: 'charged', points: 1000 });
      } else {
        expect(response.status).toBe(503);
        expect(body.error.code).toBe('service_unavailable');
        expect(charges[0]).toMatchObject({ status: 'refunded' });
        expect((await lifted.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(5000);
      }
      expect((await auditAccount(lifted.deps, accountId)).consistent).toBe(true);
    } finally {
      await liftedServer.close();
    }
  }, 60_000);
});
