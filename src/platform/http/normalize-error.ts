import { ZodError } from 'zod';
import { AppError } from './app-error.ts';
import { translatePgError } from '../db/pg-errors.ts';

/**
 * Turns anything thrown into an AppError. Unknown errors become a generic 500 whose message never
 * reaches the client (the renderer uses its interface's generic text); the original is kept as `cause`
 * so the error handler can log it.
 */
export function normalizeError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) {
    return new AppError(400, 'VALIDATION', 'validation errors', {
      details: err.issues.map((i) => ({ name: i.path.map(String).join('.') || 'body', message: i.message })),
    });
  }
  const e = err as { type?: string; status?: number; statusCode?: number } | null;
  // body-parser errors carry `type`; their messages are safe and short.
  if (e && typeof e === 'object' && typeof e.type === 'string') {
    if (e.type === 'entity.parse.failed') return new AppError(400, 'INVALID_JSON', 'The request body is not valid JSON.');
    if (e.type === 'entity.too.large') return new AppError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large.');
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
      return new AppError(415, 'UNSUPPORTED_ENCODING', 'The request body encoding is not supported.');
    }
    if (e.type === 'request.aborted') return new AppError(400, 'REQUEST_ABORTED', 'The request was aborted.');
    const status = e.status ?? e.statusCode;
    if (status && status >= 400 && status < 500) return new AppError(status, 'BAD_REQUEST', 'The request body could not be read.');
  }
  const pg = translatePgError(err);
  if (pg) return pg;
  return new AppError(500, 'INTERNAL', 'Internal server error', { cause: err });
}
