import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';

/** A body whose bytes are not UTF-8: thrown by express.json's `verify`, mapped to a 400 by normalizeError. */
export class BodyCharsetError extends Error {
  readonly code = 'BODY_NOT_UTF8';
  constructor() {
    super('The request body is not valid UTF-8.');
  }
}

/**
 * express.json's `verify` hook: JSON is UTF-8 (RFC 8259); undecodable bytes would otherwise become U+FFFD
 * silently. Bodies declaring another charset are decoded by body-parser (unknown charsets answer 415).
 */
export function verifyUtf8(_req: IncomingMessage, _res: unknown, buf: Buffer, encoding: string): void {
  if ((encoding === 'utf-8' || encoding === 'utf8') && !isUtf8(buf)) throw new BodyCharsetError();
}
