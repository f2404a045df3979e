/**
 * POST /v1/feedback: a report on one screening result. It names the result by the batch-screen call's request id
 * and the item's index, or by a watched item's id; says what was wrong (kind); and quotes the title as screened.
 * No message here repeats what the client sent: feedback text stays out of responses and logs alike.
 */
import * as z from 'zod';
import { FEEDBACK_KINDS, MAX_NOTE_CHARS } from '../../shared/feedback/feedback';
import { MAX_BRAND_CHARS } from '../../shared/screening/allowlist';
import { MAX_ITEMS, MAX_TITLE_CHARS } from '../batch-screen/schema';

const REFERENCE = /^[A-Za-z0-9._:#/-]{1,128}$/;

const referenceSchema = (what: string) =>
  z.string({ error: 'must be a string' }).regex(REFERENCE, `must be ${what}: 1 to 128 letters, digits or . _ : # / -`);

const markText = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_BRAND_CHARS, `must be at most ${MAX_BRAND_CHARS} characters`);

export const feedbackRequestSchema = z
  .object({
    request_id: referenceSchema('the X-Request-Id of the batch-screen call')
      .optional()
      .describe('The X-Request-Id (request_id) of the batch-screen call whose result this is.'),
    item_index: z
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(0, 'must be 0 or more')
      .max(MAX_ITEMS - 1, `must be at most ${MAX_ITEMS - 1}`)
      .optional()
      .describe('The index of the item in that call (results[i] answers items[i]); with request_id.'),
    watch_item_id: referenceSchema('a watched item id')
      .optional()
      .describe('A watched item, instead of request_id and item_index.'),
    title: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
      .trim()
      .min(1, 'must not be empty')
      .refine((t) => [...t].length <= MAX_TITLE_CHARS, `must be at most ${MAX_TITLE_CHARS} characters`)
      .describe('The listing title as it was screened.'),
    kind: z
      .enum(FEEDBACK_KINDS, { error: `must be one of ${FEEDBACK_KINDS.join(', ')}` })
      .describe(
        'false_alarm: the result raised a mark the title does not use as a brand; missed_brand: the title uses a brand the result did not raise; wrong_mark: the result named another mark than the one the title uses.',
      ),
    brand: markText.optional().describe('missed_brand (required there): the brand the title uses.'),
    mark: markText.optional().describe('wrong_mark (optional): the mark the result should have named.'),
    top_conflict: markText
      .optional()
      .describe('false_alarm, wrong_mark (optional): the top_conflict the result gave, as it was.'),
    note: z
      .string({ error: 'must be a string' })
      .trim()
      .max(MAX_NOTE_CHARS, `must be at most ${MAX_NOTE_CHARS} characters`)
      .optional()
      .describe(`Anything else worth knowing, at most ${MAX_NOTE_CHARS} characters.`),
  })
  .superRefine((input, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    const byRequest = input.request_id !== undefined || input.item_index !== undefined;
    if (input.watch_item_id !== undefined && byRequest)
      issue('watch_item_id', 'give request_id and item_index, or watch_item_id, not both');
    else if (input.watch_item_id === undefined) {
      if (input.request_id === undefined) issue('request_id', 'is required (or give watch_item_id)');
      if (input.item_index === undefined) issue('item_index', 'is required with request_id');
    }
    if (input.kind === 'missed_brand' && input.brand === undefined)
      issue('brand', 'is required when kind is missed_brand');
    if (input.kind !== 'missed_brand' && input.brand !== undefined) issue('brand', 'is only for kind missed_brand');
    if (input.kind !== 'wrong_mark' && input.mark !== undefined) issue('mark', 'is only for kind wrong_mark');
    if (input.kind === 'missed_brand' && input.top_conflict !== undefined)
      issue('top_conflict', 'is only for kinds false_alarm and wrong_mark');
  });

export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;
