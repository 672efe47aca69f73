// The option-list fast path (src/fieldeditor/options/option-list-fast-path.ts) answers exactly as Express does:
// for a matrix of U4/U9 and C1 requests, each sent twice to warm the caches, the answer of a server with the
// fast path is compared with that of a server without it (status, headers in order, body byte for byte), and
// so are the log line and the metrics. Also: the fast path is really taken for the hits, and a new option, a
// revoked grant and a revoked token show on the very next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authUserOf } from '../../helpers/directory-fixtures.ts';
import { expectCase, lineShape, routeSeries, send, startFastPathPair, type FastPathCase, type FastPathPair } from '../../helpers/fast-path-harness.ts';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { addOptions, createContext, createField, grant, paths, type TestField } from '../../helpers/tracker-fixtures.ts';

const METRICS_TOKEN = 'option-list-fast-path-metrics-token';
const BASES = ['/rest/trackercustomfieldeditorplugin/1', '/rest/trackercustomfieldeditorplugin/1.2', '/rest/jiracustomfieldeditorplugin/1', '/rest/jiracustomfieldeditorplugin/1.2'];

describe.each([{ base: 'http://localhost:8080' }, { base: 'http://localhost:8080/jira' }])('the option-list fast path (BASE_URL=$base)', ({ base }) => {
  let t: TestApp;
  let pair: FastPathPair;
  let editor: TestUser;
  let outsider: TestUser;
  let editorToken: string;
  let readOnlyToken: string;
  let single: TestField;
  let cascading: TestField;
  let text: TestField;
  let otherContext: number;
  let parentId: number;
  let cp: string;

  const answered = () => pair.app.fastPaths.get('fieldeditor')!.answered;
  const at = (path: string) => `${cp}${path}`;

  beforeAll(async () => {
    t = await createTestApp({ BASE_URL: base, METRICS_TOKEN, MAX_AUTH_ATTEMPTS: '1000' });
    cp = t.config.contextPath;
    pair = await startFastPathPair(t);
    const tag = base.endsWith('jira') ? 'j' : 'r';
    editor = await t.createUser(`olfp-editor-${tag}`);
    outsider = await t.createUser(`olfp-outsider-${tag}`);
    editorToken = await t.tokenFor(editor.name);
    const user = await t.services.directory.getUser(editor.name);
    readOnlyToken = `Bearer ${(await t.services.tokens.create(user.id, 'ro', undefined, 'read')).rawToken}`;
    single = await createField(t);
    cascading = await createField(t, { type: 'cascadingselect' });
    text = await createField(t, { type: 'textfield' });
    otherContext = (await createContext(t, single.id)).id;
    for (const f of [single, cascading, text]) await grant(t, f.id, { user: editor.name });
    // Enough options for a list over 1 KB (compressed when accepted).
    await addOptions(t, editor.auth, at(paths(single.id, 'default').options), Array.from({ length: 40 }, (_, i) => `Option number ${i} with a longer name`));
    await addOptions(t, editor.auth, at(paths(single.id, otherContext).options), ['Only here']);
    parentId = (await addOptions(t, editor.auth, at(paths(cascading.id, 'default').options), ['Parent']))[0]!.id;
    await addOptions(t, editor.auth, at(paths(cascading.id, 'default').children(parentId)), ['Child A', 'Child B']);
  });
  afterAll(async () => {
    pair?.close();
    await t?.close();
  });

  const list = (context: number | 'default' = 'default', b?: string) => at(paths(single.id, context, b).options);
  const children = () => at(paths(cascading.id, 'default').children(parentId));

  const cases: FastPathCase[] = [
    { name: 'Basic, default context', url: () => list(), auth: () => editor.auth, fast: true, status: 200 },
    { name: 'Bearer, numeric context', url: () => list(otherContext), auth: () => editorToken, fast: true, status: 200 },
    { name: 'read-only token', url: () => list(), auth: () => readOnlyToken, fast: true, status: 200 },
    { name: 'administrator without a grant', url: () => list(), auth: () => t.adminAuth, fast: false, status: 403 },
    { name: 'customfield_ id', url: () => list().replace(`/customfields/${single.id}/`, `/customfields/customfield_${single.id}/`), auth: () => editor.auth, fast: true, status: 200 },
    { name: 'gzip', url: () => list(), auth: () => editor.auth, headers: { 'Accept-Encoding': 'gzip' }, encoding: 'gzip', fast: true, status: 200 },
    { name: 'br', url: () => list(), auth: () => editorToken, headers: { 'Accept-Encoding': 'gzip;q=0.5, br' }, encoding: 'br', fast: true, status: 200 },
    { name: 'If-None-Match matching', url: () => list(), auth: () => editor.auth, matchTag: '', fast: true, status: 304 },
    { name: 'If-None-Match *', url: () => list(), auth: () => editorToken, headers: { 'If-None-Match': '*' }, fast: true, status: 304 },
    { name: 'HEAD', method: 'HEAD', url: () => list(), auth: () => editor.auth, headers: { 'Accept-Encoding': 'br' }, encoding: 'br', fast: true, status: 200 },
    ...BASES.slice(1).map((b) => ({ name: `base ${b}`, url: () => list('default', b), auth: () => editor.auth, fast: true, status: 200 })),
    { name: 'child options (C1)', url: children, auth: () => editor.auth, fast: true, status: 200 },
    { name: 'sane request id', url: () => list(), auth: () => editor.auth, headers: { 'X-Request-Id': 'abc-123' }, fast: true, status: 200 },
    { name: 'wrong password', url: () => list(), auth: () => `Basic ${Buffer.from(`${editor.name}:wrong`).toString('base64')}`, fast: false, status: 401 },
    { name: 'no auth', url: () => list(), fast: false, status: 401 },
    { name: 'no auth, If-None-Match *', url: () => list(), headers: { 'If-None-Match': '*' }, fast: false, status: 401 },
    { name: 'user without a grant', url: () => list(), auth: () => outsider.auth, fast: false, status: 403 },
    { name: 'user without a grant, If-None-Match *', url: () => list(), auth: () => outsider.auth, headers: { 'If-None-Match': '*' }, fast: false, status: 403 },
    { name: 'text field', url: () => at(paths(text.id, 'default').options), auth: () => editor.auth, fast: false, status: 400 },
    { name: 'child options of a single select', url: () => at(paths(single.id, 'default').children(1)), auth: () => editor.auth, fast: false, status: 400 },
    { name: 'unknown parent', url: () => at(paths(cascading.id, 'default').children(999999)), auth: () => editor.auth, fast: false, status: 404 },
    { name: 'bad field id', url: () => list().replace(`/customfields/${single.id}/`, '/customfields/abc/'), auth: () => editor.auth, fast: false, status: 400 },
    { name: 'a query', url: () => `${list()}?expand=x`, auth: () => editor.auth, fast: false, status: 200 },
    { name: 'trailing slash', url: () => `${list()}/`, auth: () => editor.auth, fast: false, status: 200 },
    { name: 'upper case path', url: () => list().replace('/user/', '/USER/'), auth: () => editor.auth, fast: false, status: 200 },
  ];

  it.each(cases)('$name: the same answer as Express', async (c) => {
    const fast = await expectCase(pair, answered, c, editor.auth);
    if (c.status === 200 && (c.method ?? 'GET') === 'GET' && !c.encoding) expect(JSON.parse(fast.body.toString('utf8')) as unknown[]).not.toHaveLength(0);
  });

  it('writes the same request line (fields, level, message) as Express', async () => {
    const headers = { Authorization: editor.auth };
    await send(pair.slowPort, 'GET', list(), headers);
    const before = answered();
    const fast = await send(pair.fastPort, 'GET', list(), headers);
    expect(answered() - before).toBe(1);
    const slow = await send(pair.slowPort, 'GET', list(), headers);
    const [f, s] = [await pair.lineOf(fast.headers['x-request-id'] as string), await pair.lineOf(slow.headers['x-request-id'] as string)];
    expect(lineShape(f)).toEqual(lineShape(s));
    expect(f).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: list() }, res: { statusCode: 200 } });
  });

  it('records the request in the metrics under the route template Express uses', async () => {
    const template = '/rest/trackercustomfieldeditorplugin/1/user/customfields/:customFieldId/contexts/:contextId/options';
    const series = async () => (await routeSeries(t, METRICS_TOKEN, '/contexts/:contextId/options')).filter(([route]) => route === template);
    const headers = { Authorization: editor.auth };
    await send(pair.slowPort, 'GET', list(), headers);
    const s0 = await series();
    expect(s0).toEqual([[template, expect.any(Number)]]);
    const before = answered();
    await send(pair.fastPort, 'GET', list(), headers);
    expect(answered() - before).toBe(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(await series()).toEqual([[template, s0[0]![1] + 1]]);
  });

  it('shows a new option, a revoked grant and a revoked token on the very next request', async () => {
    const field = await createField(t);
    const user = await t.createUser(`olfp-revoked-${base.endsWith('jira') ? 'j' : 'r'}`);
    await grant(t, field.id, { user: user.name });
    const row = await t.services.tokens.create((await t.services.directory.getUser(user.name)).id, 'r');
    const token = `Bearer ${row.rawToken}`;
    const url = at(paths(field.id, 'default').options);
    await addOptions(t, user.auth, url, ['First']);
    const port = pair.fastPort;
    const values = async (auth: string) => (JSON.parse((await send(port, 'GET', url, { Authorization: auth })).body.toString('utf8')) as { optionvalue: string }[]).map((o) => o.optionvalue);

    for (const auth of [token, user.auth]) {
      await send(port, 'GET', url, { Authorization: auth });
      const before = answered();
      expect(await values(auth)).toEqual(['First']);
      expect(answered() - before).toBe(1);
    }
    // A write through the other server (the same services): the list cache is cleared before it answers.
    await addOptions(t, user.auth, url, ['Second']);
    expect(await values(token)).toEqual(['First', 'Second']);
    await send(port, 'GET', url, { Authorization: token });

    await t.services.tokens.revoke(await authUserOf(t.services, user.name), row.row.id);
    expect((await send(port, 'GET', url, { Authorization: token, 'If-None-Match': '*' })).status).toBe(401);

    const revoke = await t.http
      .patch(at(`/rest/trackercustomfieldeditorplugin/1/admin/customfields/${field.id}`))
      .set('Authorization', t.adminAuth)
      .send({ user: user.name, action: 'REVOKE', type: 'GLOBAL' });
    expect(revoke.status, JSON.stringify(revoke.body)).toBe(200);
    const before = answered();
    expect((await send(port, 'GET', url, { Authorization: user.auth, 'If-None-Match': '*' })).status).toBe(403);
    expect(answered() - before).toBe(0);
  });
});
