import type { IncomingMessage } from 'node:http';
import { invalidBodyCharset, payloadTooLarge, unsupportedEncoding } from './platform.errors.ts';

/**
 * An upload: a POST to a path where a file is the body (the field editor's option sync takes JSON or CSV of
 * many megabytes). The input boundary leaves such a body unread (no JSON parser, no body-type refusal, no
 * limit of the API's JSON bodies): the route reads it with `uploadChunks` under its own limit and
 * checks what it reads. Only the types named are uploads; any other body on that path meets the boundary as usual.
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

/**
 * An upload's body as UTF-8 text, chunk by chunk as it arrives, at most `limit` bytes (413 beyond, before the
 * rest is read; 415 for a compressed body; 400 at the first byte that is not UTF-8). The reader consumes each
 * chunk before the next is read, so its memory is what it keeps, not what the client sends; a reader that stops
 * early (a limit of its own) leaves the rest to be drained unread.
 */
export async function* uploadChunks(req: IncomingMessage, limit: number): AsyncGenerator<string, void, undefined> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') throw unsupportedEncoding();
  if (Number(req.headers['content-length'] ?? 0) > limit) throw payloadTooLarge();
  // A byte order mark in front is dropped (the export writes one for Excel).
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const text = (chunk?: Buffer) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw invalidBodyCharset();
    }
  };
  let size = 0;
  try {
    // destroyOnReturn false: a reader that stops early still answers on this connection.
    for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw payloadTooLarge();
      yield text(chunk);
    }
    yield text();
  } finally {
    // Stopped early (a limit, a refusal): what is left is read and dropped, never kept.
    if (!req.readableEnded) drain(req);
  }
}

function drain(req: IncomingMessage): void {
  req.on('error', () => undefined);
  req.resume();
}
