import type { z } from 'zod';
import { AppError } from './app-error.ts';

/**
 * Parses a request part with a zod schema and returns the typed value (Express 5's `req.query` is a
 * getter, so nothing is written back). Failures become one 400 listing each bad parameter.
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, what = 'request'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new AppError(400, 'VALIDATION', 'validation errors', {
    details: result.error.issues.map((i) => ({
      name: i.path.length > 0 ? i.path.map(String).join('.') : what,
      message: i.message,
    })),
  });
}
