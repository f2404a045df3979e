/**
 * What a warm screening instance pays to keep its key filter current. The screening service reloads the market's
 * key filter every few seconds (DEFAULT_REFRESH_MS) so that a completed data batch is seen within seconds; the
 * filter of a register is megabytes. This saves a filter the size the ingest seals for REGISTER_KEYS lookup keys
 * (the number of distinct keys of the 1,000,000-mark register-scale corpus, and three times that) on DynamoDB Local
 * in memory, then reloads it as a warm instance does: the first load reads every chunk; later loads of the same
 * version read only the `current` item. Read units are counted from the items read (strongly consistent: 1 per
 * started 4 KB), the rule DynamoDB bills reads by. Reports; never gates.
 * `npm run bench -- "key filter"`
 */
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { createDynamoDbClients } from '../../shared/adapters/aws/dynamodb-client';
import { buildDataStores } from '../../shared/composition/data-stores';
import { KeyFilter } from '../../shared/marks/key-filter';
import { DEFAULT_REFRESH_MS } from '../../shared/screening/screening-service';
import { createTestStack } from '../support/test-stack';
import { machineLine, percentile } from './bench-support';

/** Distinct lookup keys of the 1,000,000-mark corpus (builders/register-scale-corpus.ts, seed 43), counted. */
const REGISTER_KEYS = [2_171_055, 3 * 2_171_055];
/** On-demand read request units, us-east-1, per million (the price the register-scale sections use). */
const USD_PER_MILLION_READS = 0.125;
const RELOADS = 10;

class ReadCounter {
  units = 0;
  calls = 0;
  attach(raw: import('@aws-sdk/client-dynamodb').DynamoDBClient): void {
    raw.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const output = result.output as unknown as { Item?: unknown; Responses?: Record<string, unknown[]> };
        this.calls += 1;
        if (context.commandName === 'GetItemCommand' && output.Item) this.units += itemUnits(output.Item);
        if (context.commandName === 'BatchGetItemCommand')
          for (const items of Object.values(output.Responses ?? {}))
            for (const item of items) this.units += itemUnits(item);
        return result;
      },
      { step: 'initialize', name: 'countReads' },
    );
  }
}

/** An item's read units, from its bytes attribute (a chunk) or a small item's 100 bytes (1 unit per started 4 KB). */
function itemUnits(item: unknown): number {
  const attribute = (item as { bytes?: Uint8Array | { B?: Uint8Array } }).bytes;
  const bytes = attribute instanceof Uint8Array ? attribute.length : (attribute?.B?.length ?? 0);
  return Math.max(1, Math.ceil((bytes + 100) / 4096));
}

export async function benchKeyFilterReload(): Promise<string> {
  const engine = await startDynamoDbLocal({ timeoutMs: 60_000 });
  process.env.TEST_DYNAMODB_ENDPOINT = engine.endpoint;
  const rows: string[] = [];
  try {
    for (const keys of REGISTER_KEYS) {
      const { config } = await createTestStack();
      const { raw, doc } = createDynamoDbClients({ region: 'us-east-1', endpoint: engine.endpoint });
      const filter = KeyFilter.forCapacity(2 * keys);
      for (let i = 0; i < keys; i++) filter.add(`e:key${i}`);
      await buildDataStores(config, doc).keyFilters.save('US', filter, { sealed: true });
      const counter = new ReadCounter();
      counter.attach(raw);
      // A fresh store, as a new instance has: its first load reads the chunks.
      const reader = buildDataStores(config, doc).keyFilters;
      let started = performance.now();
      await reader.load('US');
      const firstMs = performance.now() - started;
      const firstUnits = counter.units;
      const warmMs: number[] = [];
      for (let i = 0; i < RELOADS; i++) {
        started = performance.now();
        await reader.load('US');
        warmMs.push(performance.now() - started);
      }
      const warmUnits = (counter.units - firstUnits) / RELOADS;
      const reloadsPerDay = (24 * 3600 * 1000) / DEFAULT_REFRESH_MS;
      const dollars = (units: number) => ((units * reloadsPerDay) / 1e6) * USD_PER_MILLION_READS;
      rows.push(
        `| ${keys.toLocaleString('en-US')} | ${(filter.bits.length / 2 ** 20).toFixed(1)} MiB | ${firstMs.toFixed(0)} ms, ${firstUnits.toLocaleString('en-US')} RRU | ${percentile(
          warmMs.sort((a, b) => a - b),
          50,
        ).toFixed(
          1,
        )} ms, ${warmUnits.toFixed(0)} RRU | $${dollars(firstUnits).toFixed(2)} | $${dollars(warmUnits).toFixed(4)} |`,
      );
      raw.destroy();
    }
  } finally {
    await engine.stop();
  }
  return `Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench -- "key filter"\`. DynamoDB Local in memory.

A warm screening instance reloads the market's key filter every ${DEFAULT_REFRESH_MS / 1000} s. Before this change every reload read every chunk of
the filter, and a filter of 16 MiB or more (a register of about 3,000,000 marks) did not load at all: one BatchGetItem
answer holds at most 16 MB, the chunks it left unprocessed were not read again, and screening went on without a
filter, looking up every key. Now the chunks are read until none is left, and a reload reads the filter's \`current\`
item and its chunks only when it names a new version (a completed batch that added keys). Per day and warm
instance, at $${USD_PER_MILLION_READS} per million read request units:

| lookup keys in the filter | filter size | first load (all chunks) | later load of the same version, p50 | per day, every reload reading the chunks | per day now |
|---|---|---|---|---|---|
${rows.join('\n')}`;
}

if (require.main === module) {
  benchKeyFilterReload().then(
    (text) => console.log(text),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
