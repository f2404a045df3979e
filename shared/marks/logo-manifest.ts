/**
 * A logo batch's manifest (data/FORMATS.md, "Logo batch manifest"): one JSON object per line naming an image file
 * and the mark it belongs to. Parsed line by line like the mark JSONL: a bad line is refused with its number and
 * the other lines still count. Whether the file exists and the serial is known is checked by the ingest.
 */
import * as z from 'zod';
import { decodeBatchText, type BatchInput } from './batch-text-decoder';
import { describeIssues, toNiceClass } from './mark-record';

export const logoManifestLineSchema = z
  .object({
    serial: z.string().regex(/^[A-Za-z0-9._-]{1,40}$/, 'must be 1-40 letters, digits, ".", "_" or "-"'),
    mark: z.string().max(1000),
    file: z
      .string()
      .min(1)
      .refine(
        (f) => !f.startsWith('/') && !f.split(/[\\/]/).includes('..') && !/^[A-Za-z]:/.test(f),
        'must be a relative path inside the batch folder',
      ),
    nice: z.array(z.union([z.number(), z.string()])).transform((values, ctx) => {
      const classes = values.map((v) => toNiceClass(v));
      if (classes.some((c) => c === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'Nice classes are 1 to 45' });
        return z.NEVER;
      }
      return [...new Set(classes as string[])].sort();
    }),
    is_live: z.boolean(),
    source: z.string().min(1).max(200),
  })
  .strict();

export type LogoManifestLine = z.output<typeof logoManifestLineSchema>;

export type ParsedLogoLine =
  | { ok: true; line: number; logo: LogoManifestLine }
  | { ok: false; line: number; error: string; serial?: string };

export async function* parseLogoManifest(input: BatchInput): AsyncGenerator<ParsedLogoLine> {
  let buffered = '';
  let line = 0;
  const parseLine = (text: string): ParsedLogoLine | undefined => {
    line++;
    if (text.trim() === '') return undefined;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { ok: false, line, error: 'not a JSON object' };
    }
    const parsed = logoManifestLineSchema.safeParse(json);
    if (!parsed.success) {
      const serial =
        typeof (json as { serial?: unknown })?.serial === 'string' ? (json as { serial: string }).serial : undefined;
      return { ok: false, line, error: describeIssues(parsed.error), ...(serial ? { serial } : {}) };
    }
    return { ok: true, line, logo: parsed.data };
  };
  for await (const chunk of decodeBatchText(input, { isXml: false })) {
    buffered += chunk;
    for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
      const result = parseLine(buffered.slice(0, newline).replace(/\r$/, ''));
      buffered = buffered.slice(newline + 1);
      if (result) yield result;
    }
  }
  const last = parseLine(buffered);
  if (last) yield last;
}
