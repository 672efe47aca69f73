import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { payloadTooLarge, requestAborted, unsupportedEncoding } from '../platform/http/platform.errors.ts';

/**
 * Streams an upload's body to `file`, at most `limit` bytes: a space export runs to gigabytes, so it is never
 * held in memory. Beyond the limit (declared or counted) it answers 413 and reads the rest away unwritten, so
 * the client gets the answer rather than a reset connection. A compressed transfer encoding is refused (415).
 */
export function spoolUpload(req: IncomingMessage, file: string, limit: number): Promise<number> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return Promise.reject(unsupportedEncoding());
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    req.resume();
    return Promise.reject(payloadTooLarge());
  }
  return new Promise((resolve, reject) => {
    const out = fs.createWriteStream(file);
    let size = 0;
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(out);
      req.off('data', count);
      req.resume();
      out.destroy();
      reject(err);
    };
    const count = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) fail(payloadTooLarge());
    };
    req.on('data', count);
    req.once('error', () => fail(requestAborted()));
    req.once('close', () => {
      if (!req.complete) fail(requestAborted());
    });
    out.once('error', fail);
    out.once('finish', () => {
      if (settled) return;
      settled = true;
      resolve(size);
    });
    req.pipe(out);
  });
}
