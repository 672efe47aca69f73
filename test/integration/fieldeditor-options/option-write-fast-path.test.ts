// The option-write fast path (src/fieldeditor/options/option-write-fast-path.ts) answers exactly as Express does:
// each request is sent to a server with the fast paths and to one without (the same services), and the answers
// are compared: status, headers in order, body byte for byte (a create compares all but its own id, value and
// rank). Refusals the pipeline or the route makes before the write (401, a read-only token, a bad id) stay with
// Express; refusals of the write itself (403, 400, 404) are taken by the fast path and rendered by Express.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparable, lineShape, startFastPathPair, type Answer, type FastPathPair } from '../../helpers/fast-path-harness.ts';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { addOptions, createField, grant, paths, type TestField } from '../../helpers/tracker-fixtures.ts';

const METRICS_TOKEN = 'option-write-fast-path-metrics-token';

/** One raw request with a JSON body on a fresh connection. */
function sendJson(port: number, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  const all = { ...headers, ...(data === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(data)) }) };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: all, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(data);
  });
}

describe.each([{ base: 'http://localhost:8080' }, { base: 'http://localhost:8080/jira' }])('the option-write fast path (BASE_URL=$base)', ({ base }) => {
  let t: TestApp;
  let pair: FastPathPair;
  let editor: TestUser;
  let outsider: TestUser;
  let readOnlyToken: string;
  let single: TestField;
  let other: TestField;
  let cascading: TestField;
  let text: TestField;
  let parentId: number;
  let cp: string;

  const answered = () => pair.app.fastPaths.get('fieldeditor-writes')!.answered;
  const at = (path: string) => `${cp}${path}`;
  const list = () => at(paths(single.id, 'default').options);

  beforeAll(async () => {
    t = await createTestApp({ BASE_URL: base, METRICS_TOKEN, MAX_AUTH_ATTEMPTS: '1000' });
    cp = t.config.contextPath;
    pair = await startFastPathPair(t);
    const tag = base.endsWith('jira') ? 'j' : 'r';
    editor = await t.createUser(`owfp-editor-${tag}`);
    outsider = await t.createUser(`owfp-outsider-${tag}`);
    const user = await t.services.directory.getUser(editor.name);
    readOnlyToken = `Bearer ${(await t.services.tokens.create(user.id, 'ro', undefined, 'read')).rawToken}`;
    single = await createField(t);
    other = await createField(t);
    cascading = await createField(t, { type: 'cascadingselect' });
    text = await createField(t, { type: 'textfield' });
    for (const f of [single, other, cascading, text]) await grant(t, f.id, { user: editor.name });
    await addOptions(t, editor.auth, list(), ['Alpha', 'Beta', 'Gamma']);
    parentId = (await addOptions(t, editor.auth, at(paths(cascading.id, 'default').options), ['Parent']))[0]!.id;
    await addOptions(t, editor.auth, at(paths(cascading.id, 'default').children(parentId)), ['Child A', 'Child B']);
  });
  afterAll(async () => {
    pair?.close();
    await t?.close();
  });

  /** The id of an option of the single select's default list, by value. */
  async function idOf(value: string, path = list()): Promise<number> {
    const res = await t.http.get(path).set('Authorization', editor.auth).expect(200);
    return (res.body as { id: number; optionvalue: string }[]).find((o) => o.optionvalue === value)!.id;
  }

  /** Sends the same request to the fast server, then to Express's; checks the same answer, and whether the fast path took it. */
  async function expectSame(method: 'POST' | 'PUT', path: string, auth: string | undefined, body: unknown, fast: boolean, status: number): Promise<Answer> {
    const headers: Record<string, string> = auth === undefined ? {} : { Authorization: auth };
    const before = answered();
    const f = await sendJson(pair.fastPort, method, path, headers, body);
    expect(answered() - before, 'taken by the fast path').toBe(fast ? 1 : 0);
    const s = await sendJson(pair.slowPort, method, path, headers, body);
    expect(answered() - before).toBe(fast ? 1 : 0);
    expect(f.status, f.body.toString('utf8')).toBe(status);
    expect(s.status).toBe(status);
    expect(comparable(f)).toEqual(comparable(s));
    expect(f.body.toString('utf8')).toBe(s.body.toString('utf8'));
    return f;
  }

  it('creates as Express does: same status, headers in order and members; the list has both', async () => {
    const headers = { Authorization: editor.auth };
    const before = answered();
    const f = await sendJson(pair.fastPort, 'POST', list(), headers, { optionvalue: 'Made fast' });
    expect(answered() - before).toBe(1);
    const s = await sendJson(pair.slowPort, 'POST', list(), headers, { optionvalue: 'Made slow' });
    expect([f.status, s.status]).toEqual([200, 200]);
    const [fb, sb] = [JSON.parse(f.body.toString('utf8')) as Record<string, unknown>, JSON.parse(s.body.toString('utf8')) as Record<string, unknown>];
    expect(Object.keys(fb)).toEqual(Object.keys(sb));
    expect(fb).toEqual({ ...sb, id: fb['id'], optionvalue: 'Made fast', sequence: Number(sb['sequence']) - 1 });
    const len = (a: Answer) => comparable(a).filter((h) => !h.startsWith('Content-Length'));
    expect(len(f)).toEqual(len(s));
    const values = ((await t.http.get(list()).set('Authorization', editor.auth).expect(200)).body as { optionvalue: string }[]).map((o) => o.optionvalue);
    expect(values.slice(-2)).toEqual(['Made fast', 'Made slow']);
  });

  it('renames, disables and moves as Express does (the second request repeats the first: the same answer)', async () => {
    const beta = await idOf('Beta');
    await expectSame('PUT', at(paths(single.id, 'default').option(beta)), editor.auth, { optionvalue: 'Beta renamed' }, true, 200);
    await expectSame('PUT', at(paths(single.id, 'default').option(beta)), editor.auth, { disabled: true }, true, 200);
    await expectSame('POST', at(paths(single.id, 'default').move(beta)), editor.auth, { position: 'First' }, true, 200);
    const alpha = await idOf('Alpha');
    await expectSame('POST', at(paths(single.id, 'default').move(beta)), editor.auth, { after: String(alpha) }, true, 200);
    const child = await idOf('Child B', at(paths(cascading.id, 'default').children(parentId)));
    await expectSame('PUT', at(paths(cascading.id, 'default').child(parentId, child)), editor.auth, { optionvalue: 'Child B renamed' }, true, 200);
    await expectSame('POST', at(paths(cascading.id, 'default').childMove(parentId, child)), editor.auth, { position: 'First' }, true, 200);
  });

  it('leaves to Express what is refused before the write: no user, a wrong password, a read-only token, a bad id, a query, another spelling', async () => {
    const wrong = `Basic ${Buffer.from(`${editor.name}:wrong`).toString('base64')}`;
    await expectSame('POST', list(), undefined, { optionvalue: 'x' }, false, 401);
    await expectSame('POST', list(), wrong, { optionvalue: 'x' }, false, 401);
    await expectSame('POST', list(), readOnlyToken, { optionvalue: 'x' }, false, 403);
    await expectSame('POST', list().replace(`/customfields/${single.id}/`, '/customfields/abc/'), editor.auth, { optionvalue: 'x' }, false, 400);
    await expectSame('PUT', `${list()}/0`, editor.auth, { optionvalue: 'x' }, false, 400);
    await expectSame('POST', `${list()}?x=1`, editor.auth, { optionvalue: 'Beta renamed' }, false, 400);
    await expectSame('POST', list().replace('/user/', '/USER/'), editor.auth, { optionvalue: 'Beta renamed' }, false, 400);
  });

  it('refusals of the write itself come from Express’s error handler, exactly as Express answers them', async () => {
    const gamma = await idOf('Gamma');
    const otherOption = (await addOptions(t, editor.auth, at(paths(other.id, 'default').options), ['Elsewhere']))[0]!.id;
    // 403001 (no grant: before the body is looked at), 400 (bad body, duplicate, a text field, children of a
    // single select), 404 (an option of no list here), 400 (after an option of another list).
    await expectSame('POST', list(), outsider.auth, { nothing: true }, true, 403);
    await expectSame('POST', list(), editor.auth, { optionvalue: '' }, true, 400);
    await expectSame('POST', list(), editor.auth, { optionvalue: 'gamma' }, true, 400);
    await expectSame('POST', at(paths(text.id, 'default').options), editor.auth, { optionvalue: 'x' }, true, 400);
    await expectSame('POST', at(paths(single.id, 'default').children(gamma)), editor.auth, { optionvalue: 'x' }, true, 400);
    await expectSame('PUT', at(paths(single.id, 'default').option(999999)), editor.auth, { optionvalue: 'x' }, true, 404);
    await expectSame('POST', at(paths(single.id, 'default').move(gamma)), editor.auth, { after: String(otherOption) }, true, 400);
    await expectSame('POST', at(paths(cascading.id, 'default').children(999999)), editor.auth, { optionvalue: 'x' }, true, 404);
  });

  it('writes the same request line and the same metrics route as Express', async () => {
    const gamma = await idOf('Gamma');
    const path = at(paths(single.id, 'default').option(gamma));
    const headers = { Authorization: editor.auth };
    const f = await sendJson(pair.fastPort, 'PUT', path, headers, { optionvalue: 'Gamma' });
    const s = await sendJson(pair.slowPort, 'PUT', path, headers, { optionvalue: 'Gamma' });
    const [fl, sl] = [await pair.lineOf(f.headers['x-request-id'] as string), await pair.lineOf(s.headers['x-request-id'] as string)];
    expect(lineShape(fl)).toEqual(lineShape(sl));
    expect(fl).toMatchObject({ msg: 'request completed', req: { method: 'PUT', url: path }, res: { statusCode: 200 } });
    const res = await t.http.get(`${cp}/metrics`).set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
    const route = '/rest/trackercustomfieldeditorplugin/1/user/customfields/:customFieldId/contexts/:contextId/options/:optionId';
    const count = new RegExp(`addon_pair_http_request_duration_seconds_count\\{route="${route.replace(/[/]/g, '\\/')}",method="PUT",status_class="2xx"\\} (\\d+)`).exec(res.text);
    expect(Number(count?.[1])).toBeGreaterThanOrEqual(2);
  });
});
