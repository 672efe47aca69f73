import type { z } from 'zod';
import { validationErrors } from './platform.errors.ts';

/**
 * Parses a request part with a zod schema and returns the typed value (Express 5's `req.query` is a
 * getter, so nothing is written back). Failures become one 400 listing each bad parameter.
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, what = 'request'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationErrors(
    result.error.issues.map((i) => ({
      name: i.path.length > 0 ? i.path.map(String).join('.') : what,
      message: i.message,
    })),
  );
}
