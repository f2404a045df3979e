/** `npm run bench`: every benchmark, each writing its section of BENCHMARKS.md. They report; they never gate. */
import { benchMeteredChain } from './metered-chain.bench';
import { writeSection } from './bench-support';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

async function main(): Promise<void> {
  const section = await benchMeteredChain();
  writeSection('Metered chain (issue: foundation)', section);
  console.log(section);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
