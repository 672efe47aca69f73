// The download fast path (src/codeblocks/download-fast-path.ts) answers exactly as Express does: for a matrix of
// requests, each sent twice to warm the caches, the answer of a server with the fast path is compared with that
// of a server without it (status, headers in order, body byte for byte), and so are the log line and the
// metrics. Also: the fast path is really taken for the hits, and a revoked token, a changed password or a
// revoked view right is refused on the very next request.
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createRequestListener, type AppListener } from '../../../src/app.ts';
import { createHttpServer } from '../../../src/server.ts';
import { createLogger } from '../../../src/platform/log/logger.ts';
import { authUserOf } from '../../helpers/directory-fixtures.ts';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { codeboxMacro, createContent, createSpace, keyOf, multiBox, restrictContent, trashContent } from '../../helpers/wiki-fixtures.ts';

const METRICS_TOKEN = 'fast-path-test-metrics-token';

interface Answer {
  status: number;
  /** Raw header names and values in the order sent. */
  rawHeaders: string[];
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function send(port: number, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Header list for comparison: Date and X-Request-Id values left out (they differ per request). */
const comparable = (a: Answer) => {
  const out: string[] = [];
  for (let i = 0; i < a.rawHeaders.length; i += 2) {
    const name = a.rawHeaders[i]!;
    const lower = name.toLowerCase();
    out.push(lower === 'date' || lower === 'x-request-id' ? `${name}: *` : `${name}: ${a.rawHeaders[i + 1]}`);
  }
  return out;
};

function listen(listener: http.RequestListener): Promise<http.Server> {
  const server = createHttpServer(listener);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const portOf = (s: http.Server) => (s.address() as AddressInfo).port;

function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  return { lines, logger: createLogger('info', stream) };
}

describe.each([
  { compat: '5', base: 'http://localhost:8080', contentParam: 'contentId' },
  { compat: '3.4', base: 'http://localhost:8080/wiki', contentParam: 'pageId' },
] as const)('the download fast path (CODEBLOCKS_COMPAT=$compat, BASE_URL=$base)', ({ compat, base, contentParam }) => {
  let t: TestApp;
  let fastServer: http.Server;
  let slowServer: http.Server;
  let listener: AppListener;
  let log: ReturnType<typeof captureLogger>;
  let reader: TestUser;
  let outsider: TestUser;
  let readerToken: string;
  let readOnlyToken: string;
  let page: number;
  let trashed: number;
  let macro: string;
  let single: string;
  let cp: string;

  const answered = () => listener.fastPath!.answered;

  beforeAll(async () => {
    // Many wrong passwords in a row here: no lock (that is Express's answer either way).
    t = await createTestApp({ CODEBLOCKS_COMPAT: compat, BASE_URL: base, METRICS_TOKEN, MAX_AUTH_ATTEMPTS: '1000' });
    cp = t.config.contextPath;
    log = captureLogger();
    // Both servers on the same services (same caches, same data), logging to one captured stream.
    const services = { ...t.services, log: log.logger };
    slowServer = await listen(createRequestListener(services, createApp(services), false));
    listener = createRequestListener(services, createApp(services), true);
    fastServer = await listen(listener);

    reader = await t.createUser(`fp-reader-${compat.replace('.', '')}`, { groups: ['fp-team'] });
    outsider = await t.createUser(`fp-outsider-${compat.replace('.', '')}`);
    readerToken = await t.tokenFor(reader.name);
    const user = await t.services.directory.getUser(reader.name);
    readOnlyToken = `Bearer ${(await t.services.tokens.create(user.id, 'ro', undefined, 'read')).rawToken}`;
    await createSpace(t, 'FP', { groups: ['fp-team'] }, {}, 'Fast path', { keepCreatorGrants: true });
    macro = randomUUID();
    single = randomUUID();
    // One box of sections over a template of 3 KB (compressed when accepted), and one small single block.
    const big = 'echo ${host} and a long line of shell that repeats\n'.repeat(60);
    const body = multiBox(macro, `[big]\nhost = ä\n[other]\nhost = s1\n[content]\n${big}`) + codeboxMacro('advanced-single-codeblock-macro', 'ls\n', {}, single);
    page = Number((await createContent(t, t.adminAuth, { space: 'FP', title: 'Fast', body })).id);
    trashed = Number((await createContent(t, t.adminAuth, { space: 'FP', title: 'Trashed', body: codeboxMacro('advanced-codeblock-macro', 'x', {}, macro) })).id);
    await trashContent(t, t.adminAuth, trashed);
  });
  afterAll(async () => {
    fastServer?.close();
    slowServer?.close();
    await t?.close();
  });

  const e1 = (q: string, path = '/download_code/plain_text') => `${cp}/rest/advancedcodeblocks/1${path}?${q}`;
  /** `small`: the single block; any other name: that section of the big box. */
  const q = (key: string, content: number = page, extra = '') =>
    key === 'small'
      ? `key=${encodeURIComponent(keyOf('raw'))}&macroId=${single}&${contentParam}=${content}${extra}`
      : `key=${encodeURIComponent(keyOf(key))}&macroId=${macro}&${contentParam}=${content}${extra}`;

  interface Case {
    name: string;
    method?: 'GET' | 'HEAD';
    url: () => string;
    auth?: () => string | undefined;
    headers?: Record<string, string>;
    /** Sends If-None-Match with the tag a plain request of the same URL and credential gets (`W/`: weak form). */
    matchTag?: '' | 'W/';
    /** The Content-Encoding expected (none when unset). */
    encoding?: 'gzip' | 'br';
    /** Whether the fast path answers it (once warm). */
    fast: boolean;
    status: number;
  }

  const cases: Case[] = [
    { name: 'Basic, small block', url: () => e1(q('small')), auth: () => reader.auth, fast: true, status: 200 },
    { name: 'Bearer, small block', url: () => e1(q('small')), auth: () => readerToken, fast: true, status: 200 },
    { name: 'read-only token', url: () => e1(q('small')), auth: () => readOnlyToken, fast: true, status: 200 },
    { name: 'big block, gzip', url: () => e1(q('big')), auth: () => reader.auth, headers: { 'Accept-Encoding': 'gzip' }, encoding: 'gzip', fast: true, status: 200 },
    { name: 'big block, br', url: () => e1(q('big')), auth: () => reader.auth, headers: { 'Accept-Encoding': 'gzip;q=0.5, br' }, encoding: 'br', fast: true, status: 200 },
    { name: 'big block, gzip over br by q', url: () => e1(q('big')), auth: () => readerToken, headers: { 'Accept-Encoding': 'br;q=0.2, gzip;q=0.8' }, encoding: 'gzip', fast: true, status: 200 },
    { name: 'If-None-Match matching', url: () => e1(q('big')), auth: () => reader.auth, matchTag: '', fast: true, status: 304 },
    { name: 'If-None-Match matching (weak, gzip)', url: () => e1(q('big')), auth: () => readerToken, headers: { 'Accept-Encoding': 'gzip' }, matchTag: 'W/', fast: true, status: 304 },
    { name: 'HEAD If-None-Match matching', method: 'HEAD', url: () => e1(q('small')), auth: () => readerToken, matchTag: '', fast: true, status: 304 },
    { name: 'If-None-Match matching, user without view right', url: () => e1(q('small')), auth: () => outsider.auth, matchTag: '', fast: false, status: 403 },
    { name: 'If-None-Match matching, no auth', url: () => e1(q('small')), matchTag: '', fast: false, status: 401 },
    { name: 'big block, identity', url: () => e1(q('big')), auth: () => reader.auth, headers: { 'Accept-Encoding': 'identity' }, fast: true, status: 200 },
    { name: 'big block, q=0', url: () => e1(q('big')), auth: () => readerToken, headers: { 'Accept-Encoding': 'gzip;q=0, br;q=0, *;q=0' }, fast: true, status: 200 },
    { name: 'big block, identity;q=0', url: () => e1(q('big')), auth: () => readerToken, headers: { 'Accept-Encoding': 'identity;q=0, gzip' }, encoding: 'gzip', fast: true, status: 200 },
    { name: 'asciiOnly', url: () => e1(q('big', page, '&asciiOnly=true')), auth: () => reader.auth, fast: true, status: 200 },
    { name: '/code', url: () => e1(q('small'), '/code'), auth: () => reader.auth, fast: true, status: 200 },
    { name: 'raw template', url: () => e1(q('raw')), auth: () => readerToken, fast: true, status: 200 },
    { name: 'HEAD', method: 'HEAD', url: () => e1(q('big')), auth: () => reader.auth, headers: { 'Accept-Encoding': 'br' }, encoding: 'br', fast: true, status: 200 },
    { name: 'If-None-Match *', url: () => e1(q('small')), auth: () => reader.auth, headers: { 'If-None-Match': '*' }, fast: true, status: 304 },
    { name: 'If-None-Match other', url: () => e1(q('small')), auth: () => reader.auth, headers: { 'If-None-Match': '"nope"' }, fast: true, status: 200 },
    { name: 'HEAD If-None-Match *', method: 'HEAD', url: () => e1(q('small')), auth: () => readerToken, headers: { 'If-None-Match': '*' }, fast: true, status: 304 },
    { name: 'sane request id', url: () => e1(q('small')), auth: () => reader.auth, headers: { 'X-Request-Id': 'abc-123' }, fast: true, status: 200 },
    { name: 'wrong password', url: () => e1(q('small')), auth: () => `Basic ${Buffer.from(`${reader.name}:wrong`).toString('base64')}`, fast: false, status: 401 },
    { name: 'unknown token', url: () => e1(q('small')), auth: () => 'Bearer not-a-token', fast: false, status: 401 },
    { name: 'no auth', url: () => e1(q('small')), fast: false, status: 401 },
    { name: 'no auth, If-None-Match *', url: () => e1(q('small')), headers: { 'If-None-Match': '*' }, fast: false, status: 401 },
    { name: 'other scheme', url: () => e1(q('small')), auth: () => 'Digest x', fast: false, status: 401 },
    { name: 'user without view right', url: () => e1(q('small')), auth: () => outsider.auth, headers: { 'If-None-Match': '*' }, fast: false, status: 403 },
    { name: 'trashed content', url: () => e1(q('raw', trashed)), auth: () => reader.auth, fast: false, status: 500 },
    { name: 'unknown key', url: () => e1(q('no-such-section')), auth: () => reader.auth, fast: false, status: 500 },
    { name: 'bad key', url: () => e1(`key=%%%&macroId=${macro}&contentId=${page}`), auth: () => reader.auth, fast: false, status: 500 },
    { name: 'NUL in the query', url: () => e1(`${q('small')}&x=%00`), auth: () => reader.auth, fast: false, status: 500 },
    { name: 'token in the query', url: () => e1(`${q('small')}&access_token=abc`), auth: () => reader.auth, fast: false, status: 401 },
    { name: 'trailing slash', url: () => e1(q('small'), '/download_code/plain_text/'), auth: () => reader.auth, fast: false, status: 200 },
    { name: 'upper case path', url: () => e1(q('small'), '/DOWNLOAD_CODE/plain_text'), auth: () => reader.auth, fast: false, status: 200 },
  ];

  it.each(cases)('$name: the same answer as Express', async (c) => {
    const headers: Record<string, string> = { ...c.headers };
    const auth = c.auth?.();
    if (auth !== undefined) headers['Authorization'] = auth;
    const method = c.method ?? 'GET';
    if (c.matchTag !== undefined) {
      const plain = await send(portOf(slowServer), 'GET', c.url(), { ...c.headers, Authorization: reader.auth });
      expect(plain.status).toBe(200);
      headers['If-None-Match'] = `"other", ${c.matchTag}${plain.headers['etag'] as string}`;
    }
    // Twice on the Express server: the second request finds every cache warm.
    await send(portOf(slowServer), method, c.url(), headers);
    await send(portOf(slowServer), method, c.url(), headers);
    const before = answered();
    const fast = await send(portOf(fastServer), method, c.url(), headers);
    expect(answered() - before, 'answered by the fast path').toBe(c.fast ? 1 : 0);
    const slow = await send(portOf(slowServer), method, c.url(), headers);
    expect(slow.status).toBe(c.status);
    expect(fast.status).toBe(slow.status);
    expect(comparable(fast)).toEqual(comparable(slow));
    expect(fast.body.equals(slow.body)).toBe(true);
    expect(fast.headers['content-encoding']).toBe(c.encoding);
    expect(fast.headers['x-request-id']).toMatch(c.headers?.['X-Request-Id'] === undefined ? /^[0-9a-f-]{36}$/ : /^abc-123$/);
    if (c.status === 200 && method === 'GET') expect(fast.body.length).toBeGreaterThan(0);
  });

  const lineOf = async (id: string) => {
    for (let i = 0; i < 50; i++) {
      const line = log.lines.find((l) => (l['req'] as { id?: string } | undefined)?.id === id);
      if (line) return line;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no log line for request ${id}`);
  };

  it('writes the same request line (fields, level, message) as Express', async () => {
    const headers = { Authorization: reader.auth };
    await send(portOf(slowServer), 'GET', e1(q('small')), headers);
    const before = answered();
    const fast = await send(portOf(fastServer), 'GET', e1(q('small')), headers);
    expect(answered() - before).toBe(1);
    const slow = await send(portOf(slowServer), 'GET', e1(q('small')), headers);
    const [f, s] = [await lineOf(fast.headers['x-request-id'] as string), await lineOf(slow.headers['x-request-id'] as string)];
    const shape = (l: Record<string, unknown>) => ({ ...l, time: typeof l['time'], responseTime: typeof l['responseTime'], req: { ...(l['req'] as object), id: '*' } });
    expect(shape(f)).toEqual(shape(s));
    expect(f).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: e1(q('small')) }, res: { statusCode: 200 } });
  });

  it('records the request in the metrics under the route template Express uses', async () => {
    const series = async () => {
      const res = await t.http.get(`${cp}/metrics`).set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
      const m = /addon_pair_http_request_duration_seconds_count\{route="([^"]+)",method="GET",status_class="2xx"\} (\d+)/g;
      return [...res.text.matchAll(m)].filter((x) => x[1]!.includes('download_code')).map((x) => [x[1], Number(x[2])] as const);
    };
    const headers = { Authorization: reader.auth };
    await send(portOf(slowServer), 'GET', e1(q('small')), headers);
    const s0 = await series();
    expect(s0).toEqual([['/rest/advancedcodeblocks/1/download_code/plain_text', expect.any(Number)]]);
    const before = answered();
    await send(portOf(fastServer), 'GET', e1(q('small')), headers);
    expect(answered() - before).toBe(1);
    await new Promise((r) => setTimeout(r, 20));
    const s1 = await series();
    expect(s1).toEqual([[s0[0]![0], s0[0]![1] + 1]]);
  });

  it('refuses a revoked token, a changed password and a revoked view right on the very next request', async () => {
    const user = await t.createUser(`fp-revoked-${compat.replace('.', '')}`, { groups: ['fp-team'] });
    const row = await t.services.tokens.create((await t.services.directory.getUser(user.name)).id, 'r');
    const token = `Bearer ${row.rawToken}`;
    const url = e1(q('small'));
    const port = portOf(fastServer);
    for (const auth of [token, user.auth]) {
      await send(port, 'GET', url, { Authorization: auth });
      const before = answered();
      expect((await send(port, 'GET', url, { Authorization: auth })).status).toBe(200);
      expect(answered() - before).toBe(1);
    }
    await t.services.tokens.revoke(await authUserOf(t.services, user.name), row.row.id);
    expect((await send(port, 'GET', url, { Authorization: token })).status).toBe(401);
    expect((await send(port, 'GET', url, { Authorization: user.auth })).status).toBe(200);
    await t.services.directory.setPassword(user.name, 'a-new-password');
    expect((await send(port, 'GET', url, { Authorization: user.auth, 'If-None-Match': '*' })).status).toBe(401);

    const newAuth = `Basic ${Buffer.from(`${user.name}:a-new-password`).toString('base64')}`;
    await send(port, 'GET', url, { Authorization: newAuth });
    let before = answered();
    expect((await send(port, 'GET', url, { Authorization: newAuth })).status).toBe(200);
    expect(answered() - before).toBe(1);
    await restrictContent(t, t.adminAuth, page, { users: [reader.name, 'admin'] });
    before = answered();
    expect((await send(port, 'GET', url, { Authorization: newAuth, 'If-None-Match': '*' })).status).toBe(403);
    expect(answered() - before).toBe(0);
    await restrictContent(t, t.adminAuth, page, {});
  });
});
