/**
 * `npm run mcp`: a Model Context Protocol server on stdio with the tools screen_titles and search_logo, calling the
 * API at TMK_BASE_URL (default http://127.0.0.1:3000) with the key in TMK_API_KEY. For an MCP client's config:
 *   { "command": "npm", "args": ["run", "-s", "mcp"], "env": { "TMK_API_KEY": "tmk_live_...", "TMK_BASE_URL": "https://..." } }
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createApiClient } from '../bulk/api-client';
import { registerTools } from './tools';

export function createMcpServer(options: { baseUrl: string; apiKey: string }): McpServer {
  const server = new McpServer({ name: 'trademark-risk-api', version: '1.0.0' });
  registerTools(server, createApiClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, maxAttempts: 4 }));
  return server;
}

if (require.main === module) {
  const apiKey = process.env.TMK_API_KEY;
  if (!apiKey) {
    // stdout belongs to the protocol: the reason goes to stderr.
    process.stderr.write('TMK_API_KEY is not set: give the MCP server your API key in its environment.\n');
    process.exit(1);
  }
  createMcpServer({ baseUrl: process.env.TMK_BASE_URL ?? 'http://127.0.0.1:3000', apiKey })
    .connect(new StdioServerTransport())
    .catch((error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    });
}
