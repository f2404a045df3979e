/** `npm run image-search -- images/ --out results.csv [--country US|CN] [--limit 5] [--base-url URL] [--key KEY]` */
import { createApiClient } from './api-client';
import { readBulkOptions } from './cli-options';
import { searchImageFolder } from './image-folder';

const USAGE = `Usage: npm run image-search -- images/ --out results.csv [options]

  --base-url URL     the API (default: TMK_BASE_URL, or http://127.0.0.1:3000)
  --key KEY          your API key (default: TMK_API_KEY)
  --country US|CN    the market (default US)
  --limit N          matches per image, 1 to 50 (default 5)
  --fresh            start over instead of resuming an interrupted run into the same --out

Costs 5 points per image. Interrupted? Run the same command again: it resumes, and pays no image twice.`;

export async function runImageSearchCli(
  argv: string[],
  env: Record<string, string | undefined>,
  log: (text: string) => void,
): Promise<void> {
  const options = readBulkOptions(argv, env, USAGE, { country: { type: 'string' }, limit: { type: 'string' } });
  const country = (options.extra.country as string | undefined) ?? 'US';
  if (country !== 'US' && country !== 'CN') throw new Error('--country must be US or CN');
  const limit = Number((options.extra.limit as string | undefined) ?? 5);
  if (!Number.isInteger(limit) || limit < 1 || limit > 50)
    throw new Error('--limit must be a whole number from 1 to 50');
  const post = createApiClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    onRetry: (reason, ms) => log(`\nretrying in ${(ms / 1000).toFixed(1)} s (${reason})\n`),
  });
  const outcome = await searchImageFolder({
    folder: options.input,
    out: options.out,
    post,
    country,
    limit,
    fresh: options.fresh,
    progress: log,
  });
  log(
    `${outcome.images} images in ${options.out} (${outcome.searched} searched now, ${outcome.refused} refused with their reason)\n`,
  );
}

if (require.main === module) {
  runImageSearchCli(process.argv.slice(2), process.env, (text) => process.stderr.write(text)).catch((error: Error) => {
    process.stderr.write(`\nerror: ${error.message}\n`);
    process.exit(1);
  });
}
