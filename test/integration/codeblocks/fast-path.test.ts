// The download fast path (src/codeblocks/download-fast-path.ts) answers exactly as Express does: for a matrix of
// requests, each sent twice to warm the caches, the answer of a server with the fast path is compared with that
// of a server without it (status, headers in order, body byte for byte), and so are the log line and the
// metrics. Also: the fast path is really taken for the hits, and a revoked token, a changed password or a
// revoked view right is refused on the very next request.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authUserOf } from '../../helpers/directory-fixtures.ts';
import { expectCase, lineShape, routeSeries, send, startFastPathPair, type FastPathCase, type FastPathPair } from '../../helpers/fast-path-harness.ts';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { codeboxMacro, createContent, createSpace, keyOf, multiBox, restrictContent, trashContent } from '../../helpers/wiki-fixtures.ts';

const METRICS_TOKEN = 'fast-path-test-metrics-token';

describe.each([
  { compat: '5', base: 'http://localhost:8080', contentParam: 'contentId' },
  { compat: '3.4', base: 'http://localhost:8080/wiki', contentParam: 'pageId' },
] as const)('the download fast path (CODEBLOCKS_COMPAT=$compat, BASE_URL=$base)', ({ compat, base, contentParam }) => {
  let t: TestApp;
  let pair: FastPathPair;
  let reader: TestUser;
  let outsider: TestUser;
  let readerToken: string;
  let readOnlyToken: string;
  let page: number;
  let trashed: number;
  let macro: string;
  let single: string;
  let cp: string;

  const answered = () => pair.app.fastPaths.get('codeblocks')!.answered;

  beforeAll(async () => {
    // Many wrong passwords in a row here: no lock (that is Express's answer either way).
    t = await createTestApp({ CODEBLOCKS_COMPAT: compat, BASE_URL: base, METRICS_TOKEN, MAX_AUTH_ATTEMPTS: '1000' });
    cp = t.config.contextPath;
    // Both servers on the same services (same caches, same data), logging to one captured stream.
    pair = await startFastPathPair(t);

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
    pair?.close();
    await t?.close();
  });

  const e1 = (q: string, path = '/download_code/plain_text') => `${cp}/rest/advancedcodeblocks/1${path}?${q}`;
  /** `small`: the single block; any other name: that section of the big box. */
  const q = (key: string, content: number = page, extra = '') =>
    key === 'small'
      ? `key=${encodeURIComponent(keyOf('raw'))}&macroId=${single}&${contentParam}=${content}${extra}`
      : `key=${encodeURIComponent(keyOf(key))}&macroId=${macro}&${contentParam}=${content}${extra}`;

  const cases: FastPathCase[] = [
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
    { name: 'key decoding to U+0000', url: () => e1(`key=AA%3D%3D&macroId=${macro}&${contentParam}=${page}`), auth: () => reader.auth, fast: false, status: 500 },
    { name: 'key decoding to U+0000, /code', url: () => e1(`key=AA%3D%3D&macroId=${macro}&${contentParam}=${page}`, '/code'), auth: () => readerToken, fast: false, status: 500 },
    { name: 'NUL in the query', url: () => e1(`${q('small')}&x=%00`), auth: () => reader.auth, fast: false, status: 500 },
    { name: 'token in the query', url: () => e1(`${q('small')}&access_token=abc`), auth: () => reader.auth, fast: false, status: 401 },
    { name: 'trailing slash', url: () => e1(q('small'), '/download_code/plain_text/'), auth: () => reader.auth, fast: false, status: 200 },
    { name: 'upper case path', url: () => e1(q('small'), '/DOWNLOAD_CODE/plain_text'), auth: () => reader.auth, fast: false, status: 200 },
  ];

  it.each(cases)('$name: the same answer as Express', async (c) => {
    await expectCase(pair, answered, c, reader.auth);
  });

  it('writes the same request line (fields, level, message) as Express', async () => {
    const headers = { Authorization: reader.auth };
    await send(pair.slowPort, 'GET', e1(q('small')), headers);
    const before = answered();
    const fast = await send(pair.fastPort, 'GET', e1(q('small')), headers);
    expect(answered() - before).toBe(1);
    const slow = await send(pair.slowPort, 'GET', e1(q('small')), headers);
    const [f, s] = [await pair.lineOf(fast.headers['x-request-id'] as string), await pair.lineOf(slow.headers['x-request-id'] as string)];
    expect(lineShape(f)).toEqual(lineShape(s));
    expect(f).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: e1(q('small')) }, res: { statusCode: 200 } });
  });

  it('records the request in the metrics under the route template Express uses', async () => {
    const series = () => routeSeries(t, METRICS_TOKEN, 'download_code');
    const headers = { Authorization: reader.auth };
    await send(pair.slowPort, 'GET', e1(q('small')), headers);
    const s0 = await series();
    expect(s0).toEqual([['/rest/advancedcodeblocks/1/download_code/plain_text', expect.any(Number)]]);
    const before = answered();
    await send(pair.fastPort, 'GET', e1(q('small')), headers);
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
    const port = pair.fastPort;
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
