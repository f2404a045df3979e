/** GET /v1/account takes no input: the key says whose account it is. Query parameters are ignored. */
import * as z from 'zod';

export const accountQuerySchema = z.object({});
export type AccountQueryInput = z.infer<typeof accountQuerySchema>;
