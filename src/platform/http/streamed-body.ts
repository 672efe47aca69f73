// A body too large to hold (a large code block, docs/security.md "Unbounded output"): its tag and exact size are
// known before its first byte, and its bytes are made chunk by chunk as the client takes them. The answer is
// the same conditional, negotiated GET answer as a cached body's (cached-body.ts), compressed per request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable, pipeline, type Transform } from 'node:stream';
import { createBrotliCompress, createGzip } from 'node:zlib';
import { beginConditional, brotliOptions, GZIP_OPTIONS, negotiateCoding, type Coding, type EntityTag } from './cached-body.ts';

export interface StreamedBody {
  /** The body's strong validator, known without the body (made from what the body is made from). */
  readonly entity: EntityTag;
  /** The exact size of the body in bytes (its identity form): the `Content-Length`. */
  readonly size: number;
  /** The body's bytes, made on demand; each call starts again from the first byte. */
  chunks(): Iterable<Buffer>;
}

/** Bytes a streamed answer keeps ready ahead of the socket: one chunk of the body. */
const READ_AHEAD_BYTES = 64 * 1024;

function compressor(coding: Exclude<Coding, 'identity'>, size: number): Transform {
  return coding === 'gzip' ? createGzip(GZIP_OPTIONS) : createBrotliCompress(brotliOptions(size));
}

/**
 * Sends a streamed body as a conditional, negotiated GET answer (beginConditional): 304 when If-None-Match
 * names it; otherwise its chunks, compressed when the client accepts it (no `Content-Length` then: the size of
 * the compressed form is known only at its end), each made when the socket (or the compressor) takes more, so
 * the answer holds about one chunk whatever the body's size. A client that goes away stops the making: the
 * pipeline destroys the chunks' source, which ends its generator. Headers are sent by then, so a failure can only
 * cut the answer short (a client sees fewer bytes than the `Content-Length`, or a broken chunked coding), never
 * turn it into an error answer. Call it only after authentication and the view check passed.
 */
export function sendStreamedBody(req: IncomingMessage, res: ServerResponse, body: StreamedBody, contentType: string): void {
  const coding = negotiateCoding(req.headers['accept-encoding']);
  if (beginConditional(req, res, body.entity, coding, contentType)) return;
  if (coding === 'identity') res.setHeader('Content-Length', body.size);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const source = Readable.from(body.chunks(), { objectMode: false, highWaterMark: READ_AHEAD_BYTES });
  // The callback sees the end, or why it stopped (ERR_STREAM_PREMATURE_CLOSE when the client went away); the
  // pipeline has destroyed every stream by then, so there is nothing left to release, and nothing to answer.
  const done = () => undefined;
  if (coding === 'identity') pipeline(source, res, done);
  else pipeline(source, compressor(coding, body.size), res, done);
}
