// Issue 44, finding 5: a large code block (over STREAM_MIN_BYTES, 1 MiB) is rendered into the answer chunk by
// chunk, never held whole nor cached. Its ETag (made from what the block is made of), its Content-Length (counted
// from its pieces), its 304 and its compressed forms are those a held block gets; its bytes are exactly those of
// the whole-string rendering; a client that goes away stops the rendering, and the server keeps answering.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRequestListener } from '../../../src/app.ts';
import { BlockOutput } from '../../../src/codeblocks/block-output.ts';
import { asciiOnly } from '../../../src/codeblocks/codebox/ascii-only.ts';
import { STREAM_MIN_BYTES } from '../../../src/codeblocks/download.service.ts';
import { createHttpServer } from '../../../src/server.ts';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { keyOf, WikiFixtures } from '../../helpers/wiki-fixtures.ts';

const E1 = '/rest/advancedcodeblocks/1/download_code/plain_text';
const STRONG = /^"[A-Za-z0-9_-]{27}(-gz|-br)?"$/;

// Umlauts written decomposed across the template and the values (`o` in the template, its U+0308 starting a
// value), characters of 2, 3 and 4 bytes: every seam the streamed rendering and asciiOnly must keep. A config
// value is one line, trimmed.
const V = '\u0308 Größe=ä 🙂 € naïve '.repeat(100) + 'a';
const W = '\u0308u\u0308 plain ascii text of a configuration line; '.repeat(60) + 'end';
const TEMPLATE = 'o${v}${w}|${unknown}\r\n'.repeat(600);
/** The whole-string rendering, as a block was rendered before it could be streamed: one replace, then asciiOnly. */
const expected = (ascii: boolean) => {
  const text = TEMPLATE.replace(/\$\{([^{}]+)\}/g, (whole, name: string) => ({ v: V, w: W })[name] ?? whole);
  return Buffer.from(ascii ? asciiOnly(text) : text, 'utf8');
};
interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent, not decoded. */
  body: Buffer;
}

describe('code blocks: large blocks are streamed (issue 44)', () => {
  const t = useTestApp({ CODEBLOCK_MAX_MB: '512' });
  // A listening server of the app's own listener, read with node:http: no client decodes or buffers for us.
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = createHttpServer(createRequestListener(t.services, t.app));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  const request = (method: string, path: string, headers: Record<string, string>) =>
    new Promise<Answer>((resolve, reject) => {
      const req = http.request(`${base}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  let fx: WikiFixtures;
  let reader: TestUser;
  let outsider: TestUser;
  let pageId: number;
  let macroId: string;
  let url: (ascii?: boolean) => string;

  beforeAll(async () => {
    fx = new WikiFixtures(t);
    reader = await t.createUser('stream-reader', { groups: ['stream-team'] });
    outsider = await t.createUser('stream-outsider');
    const space = await fx.space('STREAM', { groups: ['stream-team'] });
    pageId = await fx.content({ space });
    macroId = await fx.codebox(pageId, 'advanced-codeblock-macro', `[big]\nv = ${V}\nw = ${W}\n[content]\n${TEMPLATE}`);
    url = (ascii = false) => `${E1}?key=${encodeURIComponent(keyOf('big'))}&macroId=${macroId}&contentId=${pageId}${ascii ? '&asciiOnly=true' : ''}`;
  });

  /** A GET as the reader; identity unless the headers ask for a coding. */
  const get = async (path: string, headers: Record<string, string> = {}, status = 200) => {
    const res = await request('GET', path, { Authorization: reader.auth, 'Accept-Encoding': 'identity', ...headers });
    expect(res.status).toBe(status);
    return res;
  };

  it('sends the bytes of the whole-string rendering, with its Content-Length, as and not as asciiOnly', async () => {
    for (const ascii of [false, true]) {
      const want = expected(ascii);
      expect(want.length).toBeGreaterThan(STREAM_MIN_BYTES);
      const res = await get(url(ascii));
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-length']).toBe(String(want.length));
      expect(res.headers['transfer-encoding']).toBeUndefined();
      expect(res.headers['etag']).toMatch(STRONG);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body.equals(want)).toBe(true);
    }
    // asciiOnly changes the bytes, so it changes the tag.
    const [plain, ascii] = await Promise.all([get(url(false)), get(url(true))]);
    expect(plain.headers['etag']).not.toBe(ascii.headers['etag']);
  });

  it('is neither held nor cached: each download renders again, with the same tag', async () => {
    const renders = vi.spyOn(BlockOutput.prototype, 'chunks');
    try {
      const first = await get(url());
      const second = await get(url());
      expect(second.headers['etag']).toBe(first.headers['etag']);
      expect(renders).toHaveBeenCalledTimes(2);
    } finally {
      renders.mockRestore();
    }
  });

  it('answers 304 to a matching If-None-Match (any form of the tag, W/, a list, *) and 200 to another', async () => {
    const tag = (await get(url())).headers['etag'] as string;
    for (const inm of [tag, `W/${tag}`, `"nope", ${tag.replace(/"$/, '-gz"')}`, '*']) {
      const r304 = await request('GET', url(), { Authorization: reader.auth, 'If-None-Match': inm });
      expect([inm, r304.status]).toEqual([inm, 304]);
      expect(r304.body.length).toBe(0);
      expect(r304.headers['etag']).toBe(tag);
    }
    await get(url(), { 'If-None-Match': '"nope"' });
    // Only after the view check: an outsider gets 403 whatever tag it sends, without a tag.
    const denied = await request('GET', url(), { Authorization: outsider.auth, 'If-None-Match': tag });
    expect(denied.status).toBe(403);
    expect(denied.headers['etag']).toBeUndefined();
  });

  it('compresses per request as a stream (gzip, br), chunked, with the coding\'s tag', async () => {
    const want = expected(false);
    const tag = (await get(url())).headers['etag'] as string;
    for (const [coding, decode, suffix] of [
      ['gzip', gunzipSync, '-gz'],
      ['br', brotliDecompressSync, '-br'],
    ] as const) {
      const res = await get(url(), { 'Accept-Encoding': coding });
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.headers['vary']).toBe('Accept-Encoding');
      expect(res.headers['etag']).toBe(tag.replace(/"$/, `${suffix}"`));
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect(res.body.length).toBeLessThan(want.length / 4);
      expect(decode(res.body).equals(want)).toBe(true);
      await get(url(), { 'Accept-Encoding': coding, 'If-None-Match': res.headers['etag'] as string }, 304);
    }
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const [head, full] = await Promise.all([request('HEAD', url(), { Authorization: reader.auth, 'Accept-Encoding': 'identity' }), get(url())]);
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['content-length', 'etag', 'content-type', 'cache-control']) expect([name, head.headers[name]]).toEqual([name, full.headers[name]]);
  });

  it('a new value is a new tag: the old one gets the new body', async () => {
    const space = await fx.space('STREAMB', { groups: ['stream-team'] });
    const page = await fx.content({ space });
    const big = 'x'.repeat(STREAM_MIN_BYTES / 16);
    const m1 = await fx.codebox(page, 'advanced-codeblock-macro', `[s]\nv = ${big}\n[content]\n${'${v}'.repeat(20)}`);
    const u1 = `${E1}?key=${encodeURIComponent(keyOf('s'))}&macroId=${m1}&contentId=${page}`;
    const tag = (await get(u1)).headers['etag'] as string;
    const m2 = await fx.codebox(page, 'advanced-codeblock-macro', `[s]\nv = ${big}y\n[content]\n${'${v}'.repeat(20)}`);
    const u2 = u1.replace(m1, m2);
    const changed = await get(u2, { 'If-None-Match': tag });
    expect(changed.headers['etag']).not.toBe(tag);
    expect(changed.body.toString('utf8')).toBe(`${big}y`.repeat(20));
  });

  describe('a client that goes away midway', () => {
    it('stops the rendering (backpressure, then the close); the server keeps answering', async () => {
      // 256 MiB: far more than loopback's socket buffers take from a client that stops reading (the receiving
      // side's grows up to tcp_rmem's maximum, 32 MiB here, the sending side's to 4 MiB), so the rendering must
      // wait for the client. A value gzip cannot shrink much, so that the compressed answer waits as soon.
      const value = randomBytes(48 * 1024).toString('base64');
      const m = await fx.codebox(pageId, 'advanced-codeblock-macro', `[huge]\nv = ${value}\n[content]\n${'${v}'.repeat(4096)}`);
      const size = value.length * 4096;
      const runs: { bytes: number; completed: boolean; closed: boolean }[] = [];
      const chunks = BlockOutput.prototype.chunks;
      const spy = vi.spyOn(BlockOutput.prototype, 'chunks').mockImplementation(function (this: BlockOutput) {
        const run = { bytes: 0, completed: false, closed: false };
        runs.push(run);
        const inner = chunks.call(this);
        return (function* () {
          try {
            for (const c of inner) {
              run.bytes += c.length;
              yield c;
            }
            run.completed = true;
          } finally {
            run.closed = true;
          }
        })();
      });
      try {
        const path = `${E1}?key=${encodeURIComponent(keyOf('huge'))}&macroId=${m}&contentId=${pageId}`;
        for (let i = 0; i < 3; i++) {
          let received = 0;
          await new Promise<void>((resolve, reject) => {
            const req = http.get(`${base}${path}`, { headers: { Authorization: reader.auth, 'Accept-Encoding': i === 2 ? 'gzip' : 'identity' } }, (res) => {
              expect(res.statusCode).toBe(200);
              if (i !== 2) expect(res.headers['content-length']).toBe(String(size));
              res.once('data', (c: Buffer) => {
                received += c.length;
                // The client stops reading, waits, then goes away.
                res.pause();
                setTimeout(() => {
                  req.destroy();
                  resolve();
                }, 300);
              });
            });
            req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(err)));
          });
          expect(received).toBeGreaterThan(0);
          await vi.waitFor(() => expect(runs[i]?.closed).toBe(true), { timeout: 10_000 });
          expect(runs[i]!.completed).toBe(false);
          // It waited for the client: far less than the block was made.
          expect(runs[i]!.bytes, `run ${i}`).toBeLessThan(size / 4);
        }
        // The server answers as before, a streamed block included, whole.
        expect((await request('GET', '/status', {})).status).toBe(200);
        expect((await get(url())).body.equals(expected(false))).toBe(true);
        expect(runs.at(-1)!.completed).toBe(true);
      } finally {
        spy.mockRestore();
      }
    });
  });
});
