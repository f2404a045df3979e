/** `npm run screen -- listings.csv --out results.csv [--base-url URL] [--key KEY] [--column title] [--fresh]` */
import { createApiClient } from './api-client';
import { readBulkOptions } from './cli-options';
import { screenCsv } from './screen-csv';

const USAGE = `Usage: npm run screen -- listings.csv --out results.csv [options]

  --base-url URL     the API (default: TMK_BASE_URL, or http://127.0.0.1:3000)
  --key KEY          your API key (default: TMK_API_KEY)
  --column NAME      the column holding the titles (default: title); a "nice" column is sent too
  --fresh            start over instead of resuming an interrupted run into the same --out

Costs 1 point per row screened. Interrupted? Run the same command again: it resumes, and pays no batch twice.`;

export async function runScreenCli(
  argv: string[],
  env: Record<string, string | undefined>,
  log: (text: string) => void,
): Promise<void> {
  const options = readBulkOptions(argv, env, USAGE, { column: { type: 'string' }, 'nice-column': { type: 'string' } });
  const post = createApiClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    onRetry: (reason, ms) => log(`\nretrying in ${(ms / 1000).toFixed(1)} s (${reason})\n`),
  });
  const outcome = await screenCsv({
    input: options.input,
    out: options.out,
    post,
    fresh: options.fresh,
    titleColumn: options.extra.column as string | undefined,
    niceColumn: options.extra['nice-column'] as string | undefined,
    progress: log,
  });
  log(
    `${outcome.rows} rows in ${options.out} (${outcome.batches} batches sent now, ${outcome.refused} rows refused with their reason)\n`,
  );
}

if (require.main === module) {
  runScreenCli(process.argv.slice(2), process.env, (text) => process.stderr.write(text)).catch((error: Error) => {
    process.stderr.write(`\nerror: ${error.message}\n`);
    process.exit(1);
  });
}
