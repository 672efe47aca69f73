import { createHash, type Hash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bodies below this size are sent as they are: compression would save less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

export type Coding = 'identity' | 'gzip' | 'br';

/**
 * The strong validator of one body: its base tag and the quoted ETags of its three codings (made once: they are
 * sent and compared on every hit). The identity form is `"<tag>"`, compressed forms `"<tag>-gz"`, `"<tag>-br"`.
 */
export class EntityTag {
  private readonly etags: Readonly<Record<Coding, string>>;

  constructor(readonly tag: string) {
    this.etags = { identity: `"${tag}"`, gzip: `"${tag}-gz"`, br: `"${tag}-br"` };
  }

  etag(coding: Coding): string {
    return this.etags[coding];
  }

  /** Whether an If-None-Match value names this body (any of its codings: the content is the same). */
  matches(ifNoneMatch: string): boolean {
    const { identity, gzip, br } = this.etags;
    // The usual revalidation sends back exactly the tag it got: no list to split.
    if (ifNoneMatch === identity || ifNoneMatch === gzip || ifNoneMatch === br) return true;
    for (const raw of ifNoneMatch.split(',')) {
      const t = raw.trim();
      if (t === '*') return true;
      // If-None-Match compares weakly (RFC 9110 8.8.3.2): a W/ prefix does not prevent a match.
      const opaque = t.startsWith('W/') ? t.slice(2) : t;
      if (opaque === identity || opaque === gzip || opaque === br) return true;
    }
    return false;
  }
}

/** A 27-character tag (SHA-256, base64url) of the given bytes or hash input. */
export function hashTag(hash: Hash): string {
  return hash.digest('base64url').slice(0, 27);
}

/** The compression settings of every coded body, held (CachedBody) or streamed (streamed-body.ts). */
export const GZIP_OPTIONS = { level: 6 } as const;
export const brotliOptions = (sizeHint: number) => ({
  params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: sizeHint },
});

/**
 * A response body that is served many times (cached): its bytes, its strong ETag (by default a hash of the body
 * as served, computed once here, never per request) and its compressed forms, each made once on first demand
 * and then kept with the body. A cache hit therefore costs no hashing and no compression.
 */
export class CachedBody extends EntityTag {
  readonly bytes: Buffer;
  private gz: Buffer | undefined;
  private brotli: Buffer | undefined;

  /** `tag`: a tag the caller already holds for exactly these bytes (a code block's, made from its sources). */
  constructor(body: string | Buffer, tag?: string) {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    super(tag ?? hashTag(createHash('sha256').update(bytes)));
    this.bytes = bytes;
  }

  /** The body's text (for callers that post-process it). */
  text(): string {
    return this.bytes.toString('utf8');
  }

  /** The body in `coding`, compressed on first use and kept (a few ms once for a large list). */
  encoded(coding: Coding): Buffer {
    if (coding === 'gzip') return (this.gz ??= gzipSync(this.bytes, GZIP_OPTIONS));
    if (coding === 'br') return (this.brotli ??= brotliCompressSync(this.bytes, brotliOptions(this.bytes.length)));
    return this.bytes;
  }
}

/**
 * The content coding to send, from an Accept-Encoding value (RFC 9110 12.5.3): the acceptable coding of
 * highest q among br, gzip and identity; on a tie br before gzip before identity. `*` stands for any coding
 * not named; `identity` is acceptable unless excluded (`identity;q=0`, or `*;q=0` without naming it).
 */
export function negotiateCoding(acceptEncoding: string | undefined): Coding {
  if (!acceptEncoding) return 'identity';
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().split(';');
    const coding = name?.trim().toLowerCase();
    if (!coding) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m?.[1] !== undefined) weight = Math.min(1, Math.max(0, Number(m[1]) || 0));
    }
    // A coding named twice keeps its first weight.
    if (!q.has(coding)) q.set(coding, weight);
  }
  const star = q.get('*');
  const weightOf = (c: Coding): number => q.get(c) ?? (c === 'identity' ? (star === 0 ? 0 : Math.max(star ?? 0, 0.001)) : (star ?? 0));
  let best: Coding = 'identity';
  let bestQ = weightOf('identity');
  for (const c of ['gzip', 'br'] as const) {
    const w = weightOf(c);
    if (w > 0 && w >= bestQ) {
      best = c;
      bestQ = w;
    }
  }
  // Nothing acceptable at all: identity anyway (RFC 9110 allows answering without a coding).
  return best;
}

/**
 * The headers of a conditional, negotiated GET answer, for a body held (sendCachedBody) or streamed
 * (streamed-body.ts): `ETag`, `Cache-Control: private, no-cache` (a shared cache must not keep a per-user answer;
 * a client must revalidate), `Vary: Accept-Encoding`, and `X-Content-Type-Options: nosniff` for `text/plain`.
 * Answers 304 without a body, and true, when If-None-Match names the body; otherwise sets the status, the type and
 * the coding, and answers false: the caller sends the body.
 */
export function beginConditional(req: IncomingMessage, res: ServerResponse, entity: EntityTag, coding: Coding, contentType: string): boolean {
  // A text download holds whatever a page author wrote: a browser must never sniff it into HTML or script.
  if (contentType.startsWith('text/plain')) res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader('ETag', entity.etag(coding));
  const inm = req.headers['if-none-match'];
  if (inm !== undefined && entity.matches(inm)) {
    res.statusCode = 304;
    res.end();
    return true;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', contentType);
  if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
  return false;
}

/**
 * Sends a cached body as a conditional, negotiated GET answer (beginConditional): 304 when If-None-Match names
 * it; the body compressed when the client accepts it and it is over 1 KB. Call it only after authentication and
 * the view check passed: a 304 answers like a 200.
 */
export function sendCachedBody(req: IncomingMessage, res: ServerResponse, body: CachedBody, contentType: string): void {
  const coding = body.bytes.length > COMPRESS_MIN_BYTES ? negotiateCoding(req.headers['accept-encoding']) : 'identity';
  if (beginConditional(req, res, body, coding, contentType)) return;
  const bytes = body.encoded(coding);
  res.setHeader('Content-Length', bytes.length);
  // res.end, not res.send: no second freshness check, no re-encoding, and HEAD gets the headers only.
  if (req.method === 'HEAD') res.end();
  else res.end(bytes);
}
