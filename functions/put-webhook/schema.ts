/** PUT /v1/webhook: the account's webhook URL, and whether to issue a new signing secret. */
import * as z from 'zod';

export const MAX_WEBHOOK_URL_CHARS = 2048;

export const putWebhookRequestSchema = z.object({
  url: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .max(MAX_WEBHOOK_URL_CHARS, `must be at most ${MAX_WEBHOOK_URL_CHARS} characters`)
    .refine((u) => /^https:\/\//i.test(u) && URL.canParse(u), 'must be an https URL')
    .describe('Where alerts are POSTed: https on port 443, a public address (the rules of image URLs).'),
  rotate_secret: z
    .boolean({ error: 'must be true or false' })
    .default(false)
    .describe('true: issue a new signing secret (shown in this answer only); the old one signs nothing from now on.'),
});

export type PutWebhookRequest = z.infer<typeof putWebhookRequestSchema>;
