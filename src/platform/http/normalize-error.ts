import { ZodError } from 'zod';
import { AppError } from './app-error.ts';
import { translatePgError } from '../db/pg-errors.ts';
import {
  internalError,
  invalidBodyCharset,
  invalidBodyEncoding,
  invalidJson,
  invalidPathEncoding,
  payloadTooLarge,
  requestAborted,
  unreadableBody,
  unreadableRequest,
  unsupportedEncoding,
  validationErrors,
} from './platform.errors.ts';

/**
 * Turns anything thrown into an AppError (the errors of platform.errors.ts). Unknown errors become a generic 500 whose message never
 * reaches the client (the renderer uses its interface's generic text); the original is kept as `cause`
 * so the error handler can log it.
 */
export function normalizeError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) {
    return validationErrors(err.issues.map((i) => ({ name: i.path.map(String).join('.') || 'body', message: i.message })));
  }
  const e = err as { type?: string; status?: number; statusCode?: number; code?: unknown } | null;
  // The router's decoding of a path parameter (Express 5 throws URIError "Failed to decode param").
  if (err instanceof URIError) return invalidPathEncoding();
  if (e && typeof e === 'object' && e.code === 'BODY_NOT_UTF8') return invalidBodyCharset();
  // A body whose Content-Encoding is not what it says: body-parser passes zlib's error on with status 400.
  if (e && typeof e === 'object' && typeof e.code === 'string' && e.code.startsWith('Z_')) return invalidBodyEncoding();
  // body-parser errors carry `type`; their messages are safe and short.
  if (e && typeof e === 'object' && typeof e.type === 'string') {
    if (e.type === 'entity.parse.failed') return invalidJson();
    if (e.type === 'entity.too.large') return payloadTooLarge();
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return unsupportedEncoding();
    if (e.type === 'request.aborted') return requestAborted();
    const status = e.status ?? e.statusCode;
    if (status && status >= 400 && status < 500) return unreadableBody(status);
  }
  // Other client errors of the HTTP layer (http-errors with a 4xx status, e.g. from raw-body).
  const status = e && typeof e === 'object' && (e as { expose?: unknown }).expose === true ? (e.status ?? e.statusCode) : undefined;
  if (typeof status === 'number' && status >= 400 && status < 500) return unreadableRequest(status);
  const pg = translatePgError(err);
  if (pg) return pg;
  return internalError(err);
}
