/**
 * What a logo batch costs on the AWS path, from its manifest and a measured ingest (logo-scale-ingest.ts):
 *
 *   npx tsx test/bench/logo-batch-cost.ts --manifest DIR/logos.jsonl --ingest-report REPORT.json [--marks 1000000]
 *
 * 1. Each line becomes one vector in the learned embedder's S3 Vectors index: 128 float32 values, the key
 *    (designKeyOf) and the metadata S3VectorsIndex.put writes. Their sizes, summed over the manifest, are the logical
 *    data a PutVectors is billed on.
 * 2. PutVectors calls: ingest puts each design as it is stored (one call a design); in batches of 500 (the API's
 *    limit) it would be one call per 500.
 * 3. Embedding: the ingesting process's CPU seconds per design (normalise, the descriptor, the learned embedder,
 *    the in-process descriptor index) as a Lambda at 1,769 MB (one vCPU) would bill them.
 * Prices (us-east-1, quoted in the figures' section of BENCHMARKS.md with their source): S3 Vectors PUT $0.20 per GB
 * of logical data, storage $0.06 per GB-month; Lambda arm64 $0.0000133334 per GB-second, $0.20 per million requests.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { designKeyOf } from '../../shared/adapters/aws/s3vectors-index';

const DIMENSIONS = 128;
const PUT_PER_GB = 0.2;
const STORAGE_PER_GB_MONTH = 0.06;
const LAMBDA_ARM_PER_GB_SECOND = 0.0000133334;
const LAMBDA_PER_MILLION_REQUESTS = 0.2;
const LAMBDA_GB_FOR_ONE_VCPU = 1769 / 1024;
const PUT_BATCH = 500;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { manifest: { type: 'string' }, 'ingest-report': { type: 'string' }, marks: { type: 'string' } },
  });
  if (!values.manifest) throw new Error('give --manifest');
  let designs = 0;
  let bytes = 0;
  const lines = createInterface({ input: createReadStream(values.manifest) });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const logo = JSON.parse(line) as { serial: string; mark: string; file: string; nice: number[]; is_live: boolean };
    const metadata = {
      serial: logo.serial,
      design: logo.file,
      mark: logo.mark,
      nice: logo.nice.map((n) => String(n).padStart(2, '0')),
      is_live: logo.is_live,
    };
    bytes +=
      DIMENSIONS * 4 +
      Buffer.byteLength(designKeyOf(logo.serial, logo.file)) +
      Buffer.byteLength(JSON.stringify(metadata));
    designs++;
  }
  const report = values['ingest-report']
    ? (JSON.parse(readFileSync(values['ingest-report'], 'utf8')) as {
        written: number;
        cpuSeconds: number;
        seconds: number;
      })
    : undefined;
  const scale = values.marks ? Number(values.marks) / designs : 1;
  const gb = (bytes * scale) / 1e9;
  const cpuPerDesign = report ? report.cpuSeconds / report.written : Number.NaN;
  const lambdaSeconds = cpuPerDesign * designs * scale;
  const out = {
    designs: Math.round(designs * scale),
    bytesPerVector: bytes / designs,
    logicalGb: gb,
    putDollars: gb * PUT_PER_GB,
    storageDollarsPerMonth: gb * STORAGE_PER_GB_MONTH,
    putVectorsCallsOnePerDesign: Math.round(designs * scale),
    putVectorsCallsBatched: Math.ceil((designs * scale) / PUT_BATCH),
    cpuSecondsPerDesign: cpuPerDesign,
    wallSecondsPerDesign: report ? report.seconds / report.written : Number.NaN,
    lambdaGbSeconds: lambdaSeconds * LAMBDA_GB_FOR_ONE_VCPU,
    lambdaDollars:
      lambdaSeconds * LAMBDA_GB_FOR_ONE_VCPU * LAMBDA_ARM_PER_GB_SECOND +
      // One invocation per 15-minute run of the ingest function, at most.
      (Math.ceil(lambdaSeconds / 900) / 1e6) * LAMBDA_PER_MILLION_REQUESTS,
    lambdaRunsOf15Minutes: Math.ceil(lambdaSeconds / 900),
  };
  console.log(JSON.stringify(out, null, 1));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
