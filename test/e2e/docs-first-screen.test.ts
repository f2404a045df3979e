/**
 * The docs page's first screen in a real headless Chromium (Debian's) at 1280x900: the reference itself, rendered
 * once, with no request to another origin, no console error and no "Ask AI".
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { RunningServer } from '../../local/server';
import { createTestStack } from '../support/test-stack';
import { startTestServer } from '../support/test-server';

const CHROMIUM = '/usr/bin/chromium';

let server: RunningServer;
let browser: BrowserContext;
let profile: string;
let page: Page;
const requested: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium; .ci/run does)`);
  server = await startTestServer(await createTestStack());
  profile = mkdtempSync(path.join(os.tmpdir(), 'chromium-profile-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  page = await browser.newPage();
  page.on('request', (r) => requested.push(r.url()));
  page.on('console', (m) => {
    // The browser's own favicon probe is not the page's doing.
    if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) consoleErrors.push(m.text());
  });
  await page.goto(`${server.url}/docs`, { waitUntil: 'networkidle' });
  await page.getByText('Trademark-risk API').first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1500);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** The few DOM types the page-side function uses (the test project compiles without the DOM library). */
interface PageNode {
  nodeType: number;
  textContent: string | null;
}
interface PageElement extends PageNode {
  childNodes: Iterable<PageNode>;
  getBoundingClientRect(): { top: number };
  checkVisibility(): boolean;
}
interface PageDocument {
  querySelectorAll(selector: string): Iterable<PageElement>;
}

describe('GET /docs, first screen at 1280x900', () => {
  it('fetches nothing from another origin and logs no console error', () => {
    const origin = new URL(server.url).origin;
    expect(
      requested.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin),
    ).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('renders the reference once, its batch-screen operation within the first 900 px, and no "Ask AI"', async () => {
    // Elements whose own text names the operation, with where they sit on the page.
    const hits = await page.evaluate(() =>
      [...(globalThis as unknown as { document: PageDocument }).document.querySelectorAll('body *')]
        .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && /batch-screen/.test(n.textContent ?? '')))
        .map((e) => ({ text: e.textContent, top: e.getBoundingClientRect().top, shown: e.checkVisibility() })),
    );
    const boxes = hits.filter((h) => h.shown).map((h) => ({ y: h.top }));
    expect(await page.locator('.scalar-app, [class*="scalar-api-reference"]').count()).toBeGreaterThan(0);
    expect(await page.getByText('Trademark-risk API', { exact: true }).count()).toBeLessThanOrEqual(2);
    expect(boxes.filter((b) => b.y >= 0 && b.y < 900)).toHaveLength(1);
    expect(await page.getByText(/Ask AI/).count()).toBe(0);
  });

  it('shows content, not the uniform grey of a loading skeleton', async () => {
    const png = await page.screenshot({ fullPage: false });
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([1280, 900]);
    const colours = new Map<number, number>();
    for (let i = 0; i < data.length; i += 3) {
      const key = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
      colours.set(key, (colours.get(key) ?? 0) + 1);
    }
    const background = Math.max(...colours.values());
    const pixels = info.width * info.height;
    expect(colours.size).toBeGreaterThan(200);
    expect(1 - background / pixels).toBeGreaterThan(0.03);
  });
});
