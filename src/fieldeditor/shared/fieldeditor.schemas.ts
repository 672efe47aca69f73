import { z } from 'zod';

/** Schemas shared by several resources of the field editor. */

/** Largest page the paginated lists (fields, event log, jobs) hand out; a larger `maxResults` is served as this many (documented). */
export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 20;

/** true/false, or the strings "true"/"false" (any case, surrounding blanks ignored). */
export const lenientBoolean = z.union([
  z.boolean(),
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['true', 'false'], { error: 'must be a boolean (true or false)' }))
    .transform((s) => s === 'true'),
], { error: 'must be a boolean (true or false)' });

export const bodyObject = { error: 'the request body must be a JSON object' };

/** `expand=a,b`: unknown keys are ignored (as the hosts do), a repeated parameter is merged. */
export const expandQuery = z.object({
  expand: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => new Set((Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean))),
});
