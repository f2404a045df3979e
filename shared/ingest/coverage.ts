/** The CN store's coverage record, as it travels beside a CN batch and as image-search passes it through. */
import * as z from 'zod';
import type { CoverageRecord } from '../ports';

export const coverageRecordSchema = z
  .object({
    country: z.string().min(1),
    source: z.string().min(1),
    partial: z.boolean(),
    coverage_note: z.string().min(1),
    data_as_of: z.string().optional(),
  })
  .strict();

export async function readCoverage(stream: NodeJS.ReadableStream): Promise<CoverageRecord> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  const parsed = coverageRecordSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(
      `coverage record: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const { data_as_of: _dataAsOf, ...coverage } = parsed.data;
  return coverage;
}
