import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { invalidBodyCharset, payloadTooLarge, unsupportedEncoding } from './platform.errors.ts';

/**
 * An upload: a POST to a path where a file is the body (the field editor's option sync takes JSON or CSV of
 * many megabytes). The input boundary leaves such a body unread (no JSON parser, no body-type refusal, no
 * limit of the API's JSON bodies): the route reads it with `readUpload` under its own limit and checks
 * what it reads. Only the types named are uploads; any other body on that path meets the boundary as usual.
 * A type an HTML form can send (text/plain, form-encoded, multipart) must not be named: the XSRF rule
 * (body-type.ts) would then no longer guard the path.
 */
export interface UploadRule {
  /** Matched against the path (without the query), context path and base path included; anchor it at the end. */
  readonly path: RegExp;
  /** Media types (lower case, without parameters), e.g. `text/csv`, `application/json`. */
  readonly types: readonly string[];
}

const mediaType = (raw: string | undefined) => (raw === undefined ? '' : raw.split(';')[0]!.trim().toLowerCase());

/** Whether the request is an upload under one of the rules. */
export function isUpload(req: IncomingMessage, rules: readonly UploadRule[] | undefined): boolean {
  if (!rules || req.method !== 'POST') return false;
  const type = mediaType(req.headers['content-type']);
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return rules.some((r) => r.types.includes(type) && r.path.test(path));
}

/** The media type of an upload (`text/csv`), for the route to pick its reader. */
export const uploadType = (req: IncomingMessage): string => mediaType(req.headers['content-type']);

/** Reads an upload's body as UTF-8 text, at most `limit` bytes (413 beyond, before the rest is read); 415 for a compressed body. */
export function readUpload(req: IncomingMessage, limit: number): Promise<string> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return Promise.reject(unsupportedEncoding());
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(payloadTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (err: Error) => {
      req.off('data', onData);
      req.resume();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return fail(payloadTooLarge());
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('error', fail);
    req.once('end', () => {
      if (size > limit) return;
      const body = Buffer.concat(chunks);
      if (!isUtf8(body)) return reject(invalidBodyCharset());
      resolve(body.toString('utf8'));
    });
  });
}
