/** `npm run bench`: every benchmark, each writing its section of BENCHMARKS.md. They report; they never gate. */
import { benchMeteredChain } from './metered-chain.bench';
import { writeSection } from './bench-support';
import { benchScreening } from './screening.bench';
import { benchBundleSize } from './bundle-size.bench';
import { benchIngest } from './ingest.bench';
import { benchLogoSearch } from './logo-search.bench';
import { benchImageSearch } from './image-search.bench';
import { benchCustomer } from './customer.bench';
import { benchDataJobs } from './data-jobs.bench';
import { benchWatch } from './watch.bench';
import { benchKeyFilterReload } from './key-filter-reload.bench';
import { registerArgument, registerScaleBench } from './register-scale-screening.bench';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

const BENCHMARKS: [string, () => Promise<string>][] = [
  ['Metered chain', benchMeteredChain],
  ['Batch screening speed', benchScreening],
  ['Bundle size and cold init', benchBundleSize],
  ['Ingest', () => benchIngest()],
  ['Logo search speed', () => benchLogoSearch()],
  ['Image search end to end', benchImageSearch],
  ['Account routes and bulk screening (customer)', benchCustomer],
  ['Data jobs', benchDataJobs],
  ['Watched catalogue', benchWatch],
  ['Key filter reloads', benchKeyFilterReload],
];

async function main(): Promise<void> {
  const only = process.argv[2];
  // `--register <marks-jsonl | none>`: screening at register scale instead (register-scale-screening.bench.ts).
  const register = registerArgument(process.argv);
  for (const [title, run] of register ? [registerScaleBench(register)] : BENCHMARKS) {
    if (only && !title.toLowerCase().includes(only.toLowerCase())) continue;
    const section = await run();
    writeSection(title, section);
    console.log(`## ${title}\n\n${section}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
