import type { AppError } from '../http/app-error.ts';
import { foreignKeyViolation, invalidValue, retryCollision, statementTimeout, uniqueViolation } from '../http/platform.errors.ts';

/**
 * Maps PostgreSQL SQLSTATEs that a client can cause to AppErrors. Services check their rules first;
 * this is the safety net for races (two creates of the same name) so they end as 409/400, not 500.
 */
export function translatePgError(err: unknown): AppError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
  switch (code) {
    case '23505':
      return uniqueViolation(err);
    case '23503':
      return foreignKeyViolation(err);
    case '23502':
    case '22001':
    case '22003':
    case '22P02':
      return invalidValue(err);
    case '40001':
    case '40P01':
      return retryCollision(err);
    case '57014':
      return statementTimeout(err);
    default:
      return undefined;
  }
}
