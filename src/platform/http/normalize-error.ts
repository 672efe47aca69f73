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
  const e = err as { type?: string; status?: number; statusCode?: number; code?: unknown } | null;
  // The router's decoding of a path parameter (Express 5 throws URIError "Failed to decode param").
  if (err instanceof URIError) {
    return new AppError(400, 'INVALID_INPUT', 'path: a path segment is not valid percent-encoding.', {
      details: [{ name: 'path', message: 'a path segment is not valid percent-encoding.' }],
    });
  }
  if (e && typeof e === 'object' && e.code === 'BODY_NOT_UTF8') {
    return new AppError(400, 'INVALID_BODY_CHARSET', 'The request body is not valid UTF-8.');
  }
  // A body whose Content-Encoding is not what it says: body-parser passes zlib's error on with status 400.
  if (e && typeof e === 'object' && typeof e.code === 'string' && e.code.startsWith('Z_')) {
    return new AppError(400, 'INVALID_BODY_ENCODING', 'The request body could not be decoded as its Content-Encoding says.');
  }
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
  // Other client errors of the HTTP layer (http-errors with a 4xx status, e.g. from raw-body).
  const status = e && typeof e === 'object' && (e as { expose?: unknown }).expose === true ? (e.status ?? e.statusCode) : undefined;
  if (typeof status === 'number' && status >= 400 && status < 500) return new AppError(status, 'BAD_REQUEST', 'The request could not be read.');
  const pg = translatePgError(err);
  if (pg) return pg;
  return new AppError(500, 'INTERNAL', 'Internal server error', { cause: err });
}
