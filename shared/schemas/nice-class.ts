import * as z from 'zod';

/**
 * A Nice class, 1 to 45, given as a number (9) or a string ("9", "09"); read as the two-digit string the
 * trademark records use ("09").
 */
const MESSAGE = 'must be a Nice class from 1 to 45, e.g. 9 or "09"';

export const niceClassSchema = z
  .union([z.number(), z.string()], { error: `${MESSAGE} (one class, not a list)` })
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value.trim();
    const n = /^\d{1,2}$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > 45) {
      ctx.addIssue({ code: 'custom', message: MESSAGE });
      return z.NEVER;
    }
    return String(n).padStart(2, '0');
  });
