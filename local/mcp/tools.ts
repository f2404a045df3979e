/**
 * The Model Context Protocol tools: `screen_titles` and `search_logo`, each one call of the HTTP API with the
 * user's own key, so an assistant's scan costs exactly what the same call costs the user (1 point a title, 5 an
 * image) and answers what the API answers. Refusals come back as tool errors carrying the API's code and message.
 */
import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiAnswer, PostJson } from '../bulk/api-client';

type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

function refusal(answer: ApiAnswer): ToolResult {
  const error = answer.body?.error ?? {};
  return {
    content: [
      { type: 'text', text: `${answer.status} ${error.code ?? 'error'}: ${error.message ?? answer.text ?? ''}` },
    ],
    isError: true,
  };
}

const costLine = (answer: ApiAnswer) =>
  `Cost ${answer.headers.get('x-points-cost') ?? '?'} points; balance ${answer.headers.get('x-points-balance') ?? '?'}.`;

export const screenTitlesInput = {
  titles: z
    .array(z.string().min(1).max(500))
    .min(1)
    .max(1000)
    .describe('Listing titles to screen, 1 to 1,000 (up to 500 characters each)'),
  nice: z.string().optional().describe('Nice class of the goods, e.g. "9" or "25", when all titles share one'),
};

export const searchLogoInput = {
  image_path: z.string().optional().describe('Path of a local image file (PNG, JPEG, WebP, GIF or SVG, up to 4 MB)'),
  image_url: z.string().optional().describe('Public http(s) address of the image'),
  country: z.enum(['US', 'CN']).default('US').describe('Market: US, or CN (beta, marks in force only)'),
  limit: z.number().int().min(1).max(50).default(5).describe('How many similar marks to return'),
};

export async function screenTitles(post: PostJson, input: { titles: string[]; nice?: string }): Promise<ToolResult> {
  const items = input.titles.map((title) => (input.nice ? { title, nice: input.nice } : { title }));
  const answer = await post('/v1/batch-screen', { items, detail: true });
  if (answer.status !== 200) return refusal(answer);
  const results = answer.body.results as {
    name: string;
    risk: string;
    tro_hit: boolean;
    top_conflict: string;
    brand_words?: string[];
  }[];
  const lines = results.map(
    (r, i) =>
      `${i + 1}. [${r.risk}${r.tro_hit ? ', TRO brand' : ''}] ${r.name}${r.top_conflict ? ` — conflicts with "${r.top_conflict}"` : ''}${r.brand_words?.length ? ` (brand words: ${r.brand_words.join(', ')})` : ''}`,
  );
  const text = `Screened ${results.length} titles (data as of ${answer.body.data_as_of}). Risk: 高 high, 中 medium, 低 low.\n${lines.join('\n')}\n${costLine(answer)}`;
  return { content: [{ type: 'text', text }], structuredContent: answer.body };
}

export async function searchLogo(
  post: PostJson,
  input: { image_path?: string; image_url?: string; country: 'US' | 'CN'; limit: number },
): Promise<ToolResult> {
  if ((input.image_path === undefined) === (input.image_url === undefined)) {
    return { content: [{ type: 'text', text: 'Give exactly one of image_path and image_url.' }], isError: true };
  }
  let source: { image_b64: string } | { url: string };
  if (input.image_path !== undefined) {
    try {
      source = { image_b64: (await readFile(input.image_path)).toString('base64') };
    } catch (error) {
      return {
        content: [{ type: 'text', text: `Cannot read ${input.image_path}: ${(error as Error).message}` }],
        isError: true,
      };
    }
  } else source = { url: input.image_url! };
  const answer = await post('/v1/image-search', { ...source, country: input.country, limit: input.limit });
  if (answer.status !== 200) return refusal(answer);
  const results = answer.body.results as { serial: string; mark: string; score: number; is_live: number }[];
  const lines = results.map(
    (m, i) =>
      `${i + 1}. ${m.mark || '(no text)'} [${m.serial}] similarity ${m.score.toFixed(3)}${m.is_live ? '' : ' (not in force)'}`,
  );
  const text = `${results.length} similar ${input.country} marks${answer.body.degraded ? ' (degraded search)' : ''}, data as of ${answer.body.data_as_of}:\n${lines.join('\n') || '(none)'}\n${costLine(answer)}`;
  return { content: [{ type: 'text', text }], structuredContent: answer.body };
}

export function registerTools(server: McpServer, post: PostJson): void {
  server.registerTool(
    'screen_titles',
    {
      title: 'Screen listing titles for trademarks',
      description:
        'Checks marketplace listing titles for registered trademarks and brands that file Schedule A TRO suits. Returns per title a risk (高/中/低), the conflicting mark and the brand words. Costs 1 point per title.',
      inputSchema: screenTitlesInput,
    },
    async (input) => screenTitles(post, input),
  );
  server.registerTool(
    'search_logo',
    {
      title: 'Search registered marks by logo',
      description:
        'Finds registered trademarks whose logo looks like an image (a local file or a public URL), most similar first. Costs 5 points per search.',
      inputSchema: searchLogoInput,
    },
    async (input) => searchLogo(post, input),
  );
}
