/**
 * The MCP server end to end: the SDK's own client starts `local/mcp/mcp-server.ts` over stdio (as `npm run mcp`
 * does) against the local server, lists the tools and calls them; each call is a real, charged API call.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { RunningServer } from '../../local/server';
import { startOneMarkServer } from '../support/one-mark-server';
import type { TestStack } from '../support/test-stack';

const ROOT = path.resolve(__dirname, '../..');
let stack: TestStack;
let server: RunningServer;
const clients: Client[] = [];

beforeAll(async () => {
  ({ stack, server } = await startOneMarkServer('e2e-mcp'));
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await server?.close();
});

async function connect(apiKey: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'local/mcp/mcp-server.ts'],
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      TMK_API_KEY: apiKey,
      TMK_BASE_URL: server.url,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const textOf = (result: Record<string, unknown>) =>
  (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

describe('npm run mcp', () => {
  it('lists the two tools with their inputs', async () => {
    const { apiKey } = await stack.openAccount();
    const client = await connect(apiKey);

    const { tools } = await client.listTools();

    expect(tools.map((t) => t.name).sort()).toEqual(['screen_titles', 'search_logo']);
    const screen = tools.find((t) => t.name === 'screen_titles')!;
    expect(screen.inputSchema.required).toEqual(['titles']);
    expect(screen.description).toContain('1 point per title');
  });

  it("screen_titles screens through the API with the user's key and charges that account", async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 100 });
    const client = await connect(apiKey);

    const result = await client.callTool({
      name: 'screen_titles',
      arguments: { titles: ['Anker power bank 20000mAh', 'Plain cotton socks'], nice: '9' },
    });

    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/1\. \[(高|中)\] Anker power bank 20000mAh — conflicts with "Anker"/);
    expect(textOf(result)).toMatch(/2\. \[低\] Plain cotton socks/);
    expect(textOf(result)).toContain('Cost 2 points; balance 98.');
    expect((result.structuredContent as { count: number }).count).toBe(2);
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(98);
  });

  it('search_logo reads a local image and searches with it (5 points)', async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 100 });
    const client = await connect(apiKey);

    const result = await client.callTool({
      name: 'search_logo',
      arguments: { image_path: path.join(ROOT, 'data/sample/logos/simple-icons/adidas.svg'), limit: 3 },
    });

    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/similar US marks/);
    expect(textOf(result)).toContain('Cost 5 points; balance 95.');
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(95);
  });

  it("hands refusals back as tool errors with the API's code, and charges nothing", async () => {
    const { accountId, apiKey } = await stack.openAccount({ points: 1 });
    const client = await connect(apiKey);

    const poor = await client.callTool({ name: 'screen_titles', arguments: { titles: ['a', 'b'] } });
    const twoSources = await client.callTool({
      name: 'search_logo',
      arguments: { image_path: 'x.png', image_url: 'https://example.com/x.png' },
    });

    expect([poor.isError, textOf(poor)]).toEqual([true, expect.stringMatching(/^402 insufficient_points: /)]);
    expect([twoSources.isError, textOf(twoSources)]).toEqual([true, 'Give exactly one of image_path and image_url.']);
    expect((await stack.deps.accounts.getAccount(accountId, { consistent: true }))!.points).toBe(1);
    const stranger = await connect('tmk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(textOf(await stranger.callTool({ name: 'screen_titles', arguments: { titles: ['a'] } }))).toMatch(
      /^401 invalid_api_key: /,
    );
  });
});
