import { z } from 'zod';

/** PostgreSQL's integer: a larger id cannot exist, and comparing with one would raise an out-of-range error. */
export const MAX_INT_ID = 2_147_483_647;

/**
 * Content (page, blog post, comment) ids are 64-bit (issue 31: cloud wiki exports have ids above 2^31), bounded
 * by what a JavaScript number holds exactly. Ids of everything else stay PostgreSQL integers (MAX_INT_ID).
 */
export const MAX_CONTENT_ID = Number.MAX_SAFE_INTEGER;

/** A numeric id in a path: digits only, 1 … 2^31-1. */
export const numericPathId = z
  .string()
  .regex(/^\d{1,10}$/, { error: 'must be a numeric id' })
  .transform(Number)
  .pipe(z.number().int().positive({ error: 'must be a numeric id' }).max(MAX_INT_ID, { error: 'must be a numeric id' }));

/** An id in a JSON body: a positive integer, or a string of digits (clients of Java services send both). */
export const lenientId = z.union(
  [
    z.number().int().positive().max(MAX_INT_ID),
    z.string().trim().regex(/^\d{1,10}$/).transform(Number).pipe(z.number().int().positive().max(MAX_INT_ID)),
  ],
  { error: 'must be a positive integer id' },
);
