// Remote code boxes against a local HTTP server on 127.0.0.1: allowed, not allowed, redirects inside and
// out of the allowlist, Basic credentials, non-2xx, oversize, a body that breaks off, and the 5 s time-out.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { keyOf, WikiFixtures } from '../../helpers/wiki-fixtures.ts';
import { expect500 } from './support.ts';

const E1 = '/rest/advancedcodeblocks/1/download_code/plain_text';
const MIB = 1024 * 1024;

const hits = new Map<string, number>();

function templateServer(): http.Server {
  return http.createServer((req, res) => {
    const path = req.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const send = (status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
      res.end(body);
    };
    if (path === '/allowed/template.txt') return send(200, '\ufeffserver ${host};\r\nport 80\n');
    if (path === '/allowed/latin1.txt') return send(200, Buffer.from('Gr\xfc\xdfe ${host}', 'latin1'), { 'content-type': 'text/plain; charset=ISO-8859-1' });
    if (path === '/allowed/auth.txt') {
      const ok = req.headers.authorization === `Basic ${Buffer.from('deploy:s3cr:et').toString('base64')}`;
      return ok ? send(200, 'secret ${host}') : send(401, 'no');
    }
    if (path === '/allowed/redirect-in') return send(302, '', { location: '/allowed/template.txt' });
    if (path === '/allowed/redirect-out') return send(302, '', { location: '/private/template.txt' });
    if (path === '/allowed/redirect-metadata') return send(301, '', { location: 'http://169.254.169.254/latest/meta-data/' });
    if (path === '/allowed/loop') return send(302, '', { location: '/allowed/loop' });
    if (path === '/private/template.txt') return send(200, 'private');
    if (path === '/allowed/missing.txt') return send(404, 'not here');
    if (path === '/allowed/error.txt') return send(503, 'down');
    if (path === '/allowed/exact.txt') return send(200, 'x'.repeat(MIB));
    if (path === '/allowed/big-declared.txt') return send(200, 'x'.repeat(MIB + 1));
    if (path === '/allowed/big-chunked.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }); // no length: chunked
      for (let i = 0; i < 17; i++) res.write('y'.repeat(64 * 1024));
      return res.end('y');
    }
    if (path === '/allowed/broken.txt') {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('only part');
      return setTimeout(() => res.socket?.destroy(), 20);
    }
    if (path === '/allowed/slow.txt') return; // never answers
    // The first fetch of a counted path takes a second, so that concurrent downloads find it under way; later ones answer at once.
    if (path.startsWith('/allowed/counted')) {
      const n = hits.get(path)!;
      return void setTimeout(() => send(200, `counted ${n}`), n === 1 ? 1000 : 0);
    }
    send(404, 'unknown');
  });
}

describe('remote code boxes', () => {
  let server: http.Server;
  let origin: string;
  let fx: WikiFixtures;
  let user: TestUser;
  let pageId: number;
  /** The download of an upstream that never answers, started before the other tests and awaited by the last. */
  let slow: Promise<{ res: Response | undefined; took: number; err?: unknown }>;

  beforeAll(async () => {
    server = templateServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  // Created after the template server, whose port the allowlist names; closed after it.
  const t = useTestApp(() => ({ OUTBOUND_ALLOWLIST: `${origin}/allowed/, not a url` }));
  beforeAll(async () => {
    fx = new WikiFixtures(t);
    user = await t.createUser('remote-reader', { groups: ['remote-team'] });
    const space = await fx.space('REMOTE', { groups: ['remote-team'] });
    pageId = await fx.content({ space });
  });
  // Its 5 s run while the tests below do: started once its code box is saved (a page save of its own, so the
  // other tests' saves do not race it), timed from the request to the answer.
  beforeAll(async () => {
    const macroId = await remoteBox(url('/allowed/slow.txt'));
    const started = Date.now();
    slow = t.http
      .get(E1)
      .query({ key: keyOf('prod'), macroId, contentId: String(pageId) })
      .set('Authorization', user.auth)
      .then(
        (res) => ({ res, took: Date.now() - started }),
        (err: unknown) => ({ res: undefined, took: Date.now() - started, err }),
      );
  });
  afterAll(async () => {
    await slow;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const remoteBox = (params: Record<string, string>, body = '[prod]\nhost = p.example\n') =>
    fx.codebox(pageId, 'advanced-remote-codeblock-macro', body, params);
  const download = async (params: Record<string, string>, key = keyOf('prod')) => {
    const macroId = await remoteBox(params);
    return t.http.get(E1).query({ key, macroId, contentId: String(pageId) }).set('Authorization', user.auth);
  };
  const url = (path: string) => ({ remotefileurl: `${origin}${path}` });

  it('fetches an allowed template and substitutes per section; raw is the fetched text', async () => {
    const res = await download(url('/allowed/template.txt'));
    expect(res.status).toBe(200);
    expect(res.text).toBe('server p.example;\r\nport 80\n');
    expect((await download(url('/allowed/template.txt'), 'cmF3')).text).toBe('server ${host};\r\nport 80\n');
  });

  it('decodes the charset the server names', async () => {
    expect((await download(url('/allowed/latin1.txt'))).text).toBe('Grüße p.example');
  });

  it('sends the Basic credentials of the macro parameters (password with a colon)', async () => {
    const ok = await download({ ...url('/allowed/auth.txt'), remotefilehttpuser: 'deploy', remotefilehttppassword: 's3cr:et' });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('secret p.example');
    expect500('5', 'E1', await download(url('/allowed/auth.txt')), 'HTTP', '401');
  });

  it('follows redirects inside the allowlist', async () => {
    expect((await download(url('/allowed/redirect-in'))).text).toBe('server p.example;\r\nport 80\n');
  });

  it('refuses URLs and redirects outside the allowlist', async () => {
    expect500('5', 'E1', await download(url('/private/template.txt')), 'OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED', '/private/template.txt');
    expect500('5', 'E1', await download(url('/allowed/redirect-out')), 'OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED', '/private/template.txt');
    expect500('5', 'E1', await download(url('/allowed/redirect-metadata')), 'OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED', '169.254.169.254');
    expect500('5', 'E1', await download({ remotefileurl: 'http://169.254.169.254/latest/' }), 'OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED');
    // A prefix matches at a path boundary only.
    expect500('5', 'E1', await download({ remotefileurl: `${origin}/allowed-not/x` }), 'OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED');
  });

  it('maps malformed and missing URLs to MALFORMED_URL', async () => {
    expect500('5', 'E1', await download({ remotefileurl: 'ht tp://bad' }), 'MALFORMED_URL');
    expect500('5', 'E1', await download({ remotefileurl: 'file:///etc/passwd' }), 'MALFORMED_URL', 'file:');
    expect500('5', 'E1', await download({}), 'MALFORMED_URL', 'missing');
  });

  it('maps non-2xx answers and redirect loops to HTTP', async () => {
    expect500('5', 'E1', await download(url('/allowed/missing.txt')), 'HTTP', '404');
    expect500('5', 'E1', await download(url('/allowed/error.txt')), 'HTTP', '503');
    expect500('5', 'E1', await download(url('/allowed/loop')), 'HTTP', 'redirects');
  });

  it('accepts exactly 1 MiB and refuses one byte more, declared or chunked', async () => {
    const exact = await download(url('/allowed/exact.txt'), 'cmF3');
    expect(exact.status).toBe(200);
    expect(exact.text.length).toBe(MIB);
    expect500('5', 'E1', await download(url('/allowed/big-declared.txt'), 'cmF3'), 'CHUNKED_READ', 'larger than');
    expect500('5', 'E1', await download(url('/allowed/big-chunked.txt'), 'cmF3'), 'CHUNKED_READ', 'larger than');
  });

  it('maps a body that breaks off to CHUNKED_READ and a refused connection to IO', async () => {
    expect500('5', 'E1', await download(url('/allowed/broken.txt'), 'cmF3'), 'CHUNKED_READ', 'broke off');
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    // Not on the allowlist: refused before any connection.
    expect500('5', 'E1', await download({ remotefileurl: `http://127.0.0.1:${port}/allowed/x` }), 'OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED');
  });

  it('checks the section before fetching: an unknown section is a parameter error', async () => {
    expect500('5', 'E1', await download(url('/allowed/slow.txt'), keyOf('nope')), 'INVALID_URL_PARAMETER', 'nope');
  });

  it('lets concurrent downloads of one URL share a fetch, and fetches again afterwards', async () => {
    const macroId = await remoteBox(url('/allowed/counted-1'));
    const one = () => t.http.get(E1).query({ key: 'cmF3', macroId, contentId: String(pageId) }).set('Authorization', user.auth);
    const answers = await Promise.all([one(), one(), one(), one()]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(hits.get('/allowed/counted-1')).toBe(1);
    expect(new Set(answers.map((r) => r.text))).toEqual(new Set(['counted 1']));
    expect((await one()).text).toBe('counted 2');
  });

  it('gives up after 5 s with IO', async () => {
    const { res, took, err } = await slow;
    if (!res) throw err;
    expect500('5', 'E1', res, 'IO', '5000 ms');
    expect(took).toBeGreaterThanOrEqual(4900);
    expect(took).toBeLessThan(8000);
  });
});
