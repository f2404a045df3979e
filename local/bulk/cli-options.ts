/** The options both bulk commands share: the input, --out, the API's base URL and key (flags or environment). */
import { parseArgs } from 'node:util';

export interface BulkCliOptions {
  input: string;
  out: string;
  baseUrl: string;
  apiKey: string;
  fresh: boolean;
  extra: Record<string, string | boolean | undefined>;
}

export function readBulkOptions(
  argv: string[],
  env: Record<string, string | undefined>,
  usage: string,
  extra: Record<string, { type: 'string' | 'boolean' }> = {},
): BulkCliOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      'base-url': { type: 'string' },
      key: { type: 'string' },
      fresh: { type: 'boolean' },
      help: { type: 'boolean' },
      ...extra,
    },
  });
  if (values.help) throw new Error(usage);
  const [input] = positionals;
  if (!input || !values.out) throw new Error(`an input and --out are required\n\n${usage}`);
  const apiKey = (values.key as string | undefined) ?? env.TMK_API_KEY;
  if (!apiKey) throw new Error(`no API key: pass --key or set TMK_API_KEY\n\n${usage}`);
  return {
    input,
    out: values.out as string,
    baseUrl: (values['base-url'] as string | undefined) ?? env.TMK_BASE_URL ?? 'http://127.0.0.1:3000',
    apiKey,
    fresh: values.fresh === true,
    extra: values as Record<string, string | boolean | undefined>,
  };
}
