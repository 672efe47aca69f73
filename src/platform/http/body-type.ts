import type { IncomingHttpHeaders } from 'node:http';
import type { AppError } from './app-error.ts';
import { unsupportedMediaType, xsrfCheckFailed } from './platform.errors.ts';

/*
 * The media type of a request body, checked by the input boundary of every JSON API mount (mount-api.ts)
 * before the JSON parser, which silently skips any other type: a form-encoded body then reached a route as
 * "no body" and was answered as if a JSON member were missing. As the tracker host does, a body of a type an
 * HTML form can send (form-encoded, multipart, text/plain) on a state-changing request needs the header
 * `X-Atlassian-Token: no-check` (403 "XSRF check failed" otherwise: a browser sends such a request cross-site
 * without asking, and with any credential it has cached, Basic included); with the header, or for any other
 * type, a non-JSON body answers 415. Each API renders both in its own error shape.
 */

/** Types an HTML form (or `navigator.sendBeacon`) can send cross-site without a CORS preflight. */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const XSRF_TOKEN_HEADER = 'x-atlassian-token';

/** `application/json; charset=utf-8` → `application/json`; undefined without the header. */
function mediaTypeOf(headers: IncomingHttpHeaders): string | undefined {
  const raw = headers['content-type'];
  if (raw === undefined) return undefined;
  const semi = raw.indexOf(';');
  return (semi < 0 ? raw : raw.slice(0, semi)).trim().toLowerCase();
}

/** A body with at least one byte (or of unknown length); `Content-Length: 0` carries nothing to refuse. */
function hasBytes(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length.trim() !== '0';
}

function hasNoCheckToken(headers: IncomingHttpHeaders): boolean {
  const value = headers[XSRF_TOKEN_HEADER];
  const first = Array.isArray(value) ? value[0] : value;
  return first !== undefined && first.trim().toLowerCase() === 'no-check';
}

/**
 * The error for a request whose body is not JSON, or undefined when it may go on: a state-changing request
 * with a form type and without the no-check header (even an empty form: forged requests need no body), or a
 * body of any type but `application/json`. A body without a Content-Type is left to the parser as before.
 */
export function bodyTypeRefusal(method: string, headers: IncomingHttpHeaders): AppError | undefined {
  if (!STATE_CHANGING.has(method)) return undefined;
  const type = mediaTypeOf(headers);
  if (type === undefined || type === '' || type === 'application/json') return undefined;
  if (FORM_TYPES.has(type) && !hasNoCheckToken(headers)) return xsrfCheckFailed();
  return hasBytes(headers) ? unsupportedMediaType(type) : undefined;
}
