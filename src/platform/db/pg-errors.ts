import { AppError } from '../http/app-error.ts';

/**
 * Maps PostgreSQL SQLSTATEs that a client can cause to AppErrors. Services check their rules first;
 * this is the safety net for races (two creates of the same name) so they end as 409/400, not 500.
 */
export function translatePgError(err: unknown): AppError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
  switch (code) {
    case '23505':
      return new AppError(409, 'UNIQUE_VIOLATION', 'A record with this value already exists.', { cause: err });
    case '23503':
      return new AppError(409, 'FOREIGN_KEY_VIOLATION', 'The record refers to, or is referred to by, another record.', {
        cause: err,
      });
    case '23502':
    case '22001':
    case '22003':
    case '22P02':
      return new AppError(400, 'INVALID_VALUE', 'A value is missing, too long or out of range.', { cause: err });
    case '40001':
    case '40P01':
      return new AppError(503, 'RETRY', 'The request collided with another one; please retry.', {
        cause: err,
        headers: { 'Retry-After': '1' },
      });
    case '57014':
      return new AppError(503, 'TIMEOUT', 'The request took too long.', { cause: err });
    default:
      return undefined;
  }
}
