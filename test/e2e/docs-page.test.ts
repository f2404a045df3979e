/**
 * The docs page in a real headless Chromium (Debian's) against the local server: it renders from the bundled
 * renderer with nothing loaded from anywhere else, lists both metered operations, and its "try it" client sends a
 * real call with the key typed into the page and shows the answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { RunningServer } from '../../local/server';
import { createTestStack, type TestStack } from '../support/test-stack';
import { startTestServer } from '../support/test-server';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let stack: TestStack;
let server: RunningServer;
let browser: BrowserContext;
let profile: string;
let page: Page;
const elsewhere: string[] = [];

beforeAll(async () => {
  stack = await createTestStack();
  server = await startTestServer(stack);
  profile = mkdtempSync(path.join(os.tmpdir(), 'chromium-profile-'));
  browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
  page = await browser.newPage();
  // Anything not served by this host is recorded and refused: the page must not need it.
  await page.route('**/*', (route) => {
    if (route.request().url().startsWith(server.url)) return route.continue();
    elsewhere.push(route.request().url());
    return route.abort();
  });
  await page.goto(`${server.url}/docs`);
  await page.getByText('Trademark-risk API').first().waitFor({ timeout: 30_000 });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Opens a group of the sidebar unless it is open already. */
async function openGroup(name: string): Promise<void> {
  const closed = page.getByRole('button', { name: `${name} Open Group`, exact: true });
  if (await closed.count()) await closed.first().click();
  await page
    .getByRole('button', { name: `${name} Close Group`, exact: true })
    .first()
    .waitFor();
}

describe('GET /docs in Chromium', () => {
  it('renders the document from the bundled renderer, loading nothing from any other host', async () => {
    // biome-ignore lint/performance/useDomNodeTextContent: the test asserts what a reader sees; innerText leaves out script and hidden text that textContent would count
    const text = await page.innerText('body');
    expect(text).toContain('OAS 3.1.0');
    expect(text).toContain('account_suspended');
    expect(text).toMatch(/free < basic < professional < enterprise/);
    expect(elsewhere).toEqual([]);
  });

  it('lists both metered operations and the account routes', async () => {
    await openGroup('Account');
    await openGroup('Image search');
    // The sidebar lists each operation by its summary and method, once its group is open.
    for (const [summary, method] of [
      ['Screen listing titles for trademarks', 'post'],
      ['Search registered marks by logo', 'post'],
      ['Your account: tier, balance, rate limit, key', 'get'],
      ['Your usage records and totals', 'get'],
    ]) {
      const entry = page
        .getByRole('listitem')
        .filter({ hasText: summary })
        .filter({ hasText: new RegExp(`http method:\\s*${method}`, 'i') });
      await entry.first().waitFor({ state: 'attached', timeout: 15_000 });
    }
    await expect(page.getByText('Search registered marks by logo').first().isVisible()).resolves.toBe(true);
    await expect(page.getByText('Screen listing titles for trademarks').first().isVisible()).resolves.toBe(true);
  });

  it('"try it": the key typed into the page goes with a real call to GET /v1/account, and the answer shows', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 777 });
    await page.getByPlaceholder('Token').first().fill(apiKey);
    await openGroup('Account');
    await page.getByText('Your account: tier, balance, rate limit, key').first().click();
    await page.getByRole('button', { name: 'Test Request (get /v1/account)' }).click();

    const answered = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/v1/account'), {
      timeout: 30_000,
    });
    await page.getByRole('button', { name: /^Send/ }).first().click();
    const response = await answered;

    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ account_id: accountId, balance: 777 });
    await page.getByText(accountId).first().waitFor({ timeout: 15_000 });
    expect(elsewhere).toEqual([]);
  });
});
