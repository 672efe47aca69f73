import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { createContent, createSpace } from '../../helpers/wiki-fixtures.ts';

const t = useTestApp();
let writer: TestUser; // read + create through a group
let reader: TestUser; // read only
let stranger: TestUser; // no permission on the space
let commenter: TestUser; // read + create with target comment only

beforeAll(async () => {
  writer = await t.createUser('ct-writer', { groups: ['ct-writers'] });
  reader = await t.createUser('ct-reader', { groups: ['ct-readers'] });
  stranger = await t.createUser('ct-stranger');
  commenter = await t.createUser('ct-commenter', { groups: ['ct-readers'] });
  await createSpace(t, 'CT', { groups: ['ct-writers', 'ct-readers'] }, { groups: ['ct-writers'] });
  const grant = await t.http
    .post('/rest/api/space/CT/permission')
    .set('Authorization', t.adminAuth)
    .send({ subject: { type: 'user', identifier: 'ct-commenter' }, operation: { key: 'create', target: 'comment' } });
  expect(grant.status).toBe(200);
  await createSpace(t, 'OTHER', { groups: ['ct-writers'] }, { groups: ['ct-writers'] });
}, 60_000);

const storage = (value: string) => ({ storage: { value, representation: 'storage' } });

describe('POST /rest/api/content', () => {
  it('creates a page (Basic) and answers the host shape', async () => {
    const res = await t.http
      .post('/rest/api/content')
      .set('Authorization', writer.auth)
      .send({ type: 'page', title: 'First', space: { key: 'CT' }, body: storage('<p>Hi &amp; bye</p>') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      type: 'page',
      status: 'current',
      title: 'First',
      space: { key: 'CT', name: 'Space CT' },
      version: { number: 1, by: { username: 'ct-writer' } },
      body: { storage: { value: '<p>Hi &amp; bye</p>', representation: 'storage' } },
      ancestors: [],
      _links: { base: 'http://localhost:8080', self: `http://localhost:8080/rest/api/content/${res.body.id}` },
    });
  });

  it('creates with Bearer, and administrators may create without a grant', async () => {
    const bearer = await t.http
      .post('/rest/api/content')
      .set('Authorization', await t.tokenFor(writer.name))
      .send({ type: 'blogpost', title: 'News', space: { key: 'CT' }, body: storage('<p>n</p>') });
    expect(bearer.status).toBe(200);
    expect(bearer.body.type).toBe('blogpost');
    const admin = await t.http
      .post('/rest/api/content')
      .set('Authorization', t.adminAuth)
      .send({ type: 'page', title: 'By admin', space: { key: 'CT' }, body: storage('<p/>') });
    expect(admin.status).toBe(200);
    // No implicit view for the administrator: it created the page, but may not read it back.
    expect((await t.http.get(`/rest/api/content/${admin.body.id}`).set('Authorization', t.adminAuth)).status).toBe(404);
  });

  it('403 without create permission to readers of the space, 404 to others, 401 anonymous', async () => {
    const body = { type: 'page', title: 'x', space: { key: 'CT' }, body: storage('<p/>') };
    expect((await t.http.post('/rest/api/content').set('Authorization', reader.auth).send(body)).status).toBe(403);
    // Issue 30: a space the caller cannot read is hidden behind 404, as by every other space endpoint.
    expect((await t.http.post('/rest/api/content').set('Authorization', stranger.auth).send(body)).status).toBe(404);
    expect((await t.http.post('/rest/api/content').set('Authorization', commenter.auth).send(body)).status).toBe(403);
    expect((await t.http.post('/rest/api/content').send(body)).status).toBe(401);
  });

  it('answers creating in a space the caller cannot read exactly as an unknown key, and writes nothing', async () => {
    const create = (key: string) =>
      t.http.post('/rest/api/content').set('Authorization', stranger.auth).send({ type: 'page', title: 'Probe', space: { key }, body: storage('<p/>') });
    const before = await t.services.db.knex('contents').count({ n: '*' });
    const hidden = await create('CT');
    const unknown = await create('NOSUCHKEY');
    expect(hidden.status).toBe(404);
    expect(unknown.status).toBe(404);
    // The same body but for the key each request named: nothing tells an existing key from an unknown one.
    expect(JSON.stringify(hidden.body).replaceAll('CT', 'KEY')).toBe(JSON.stringify(unknown.body).replaceAll('NOSUCHKEY', 'KEY'));
    expect(await t.services.db.knex('contents').count({ n: '*' })).toEqual(before);
    // A reader of the space (who can see it) still learns why: 403.
    const readerAnswer = await t.http.post('/rest/api/content').set('Authorization', reader.auth).send({ type: 'page', title: 'Probe', space: { key: 'CT' }, body: storage('<p/>') });
    expect(readerAnswer.status).toBe(403);
  });

  it('creates child pages under ancestors, and comments in a container', async () => {
    const parent = await createContent(t, writer.auth, { title: 'Parent', space: 'CT' });
    const child = await createContent(t, writer.auth, { title: 'Child', space: 'CT', parent: parent.id });
    const got = await t.http.get(`/rest/api/content/${child.id}?expand=ancestors,container`).set('Authorization', reader.auth);
    expect(got.status).toBe(200);
    expect(got.body.ancestors.map((a: { id: string }) => a.id)).toEqual([parent.id]);
    expect(got.body.container).toMatchObject({ key: 'CT' });

    const comment = await t.http
      .post('/rest/api/content')
      .set('Authorization', commenter.auth)
      .send({ type: 'comment', space: { key: 'CT' }, container: { id: child.id, type: 'page' }, body: storage('<p>c</p>') });
    expect(comment.status, JSON.stringify(comment.body)).toBe(200);
    expect(comment.body).toMatchObject({ type: 'comment', title: 'Re: Child', container: { id: child.id, type: 'page' } });
  });

  it('cuts a comment title derived from a 255-character page title to 255 characters', async () => {
    const long = await createContent(t, writer.auth, { title: 'L'.repeat(255), space: 'CT' });
    const comment = await createContent(t, writer.auth, { type: 'comment', space: 'CT', container: long.id });
    expect((comment as unknown as { title: string }).title).toBe(`Re: ${'L'.repeat(251)}`);
  });

  it('400 for bad references and shapes, never 500', async () => {
    const page = await createContent(t, writer.auth, { title: 'Ref target', space: 'CT' });
    const other = await createContent(t, writer.auth, { title: 'Elsewhere', space: 'OTHER' });
    const cases: unknown[] = [
      { type: 'comment', space: { key: 'CT' }, body: storage('<p/>') },
      { type: 'comment', space: { key: 'CT' }, container: { id: '999999' }, body: storage('<p/>') },
      { type: 'comment', space: { key: 'CT' }, container: { id: other.id }, body: storage('<p/>') },
      { type: 'page', title: 'x', space: { key: 'CT' }, ancestors: [{ id: other.id }], body: storage('<p/>') },
      { type: 'page', title: 'x', space: { key: 'CT' }, ancestors: [{ id: 'abc' }], body: storage('<p/>') },
      { type: 'blogpost', title: 'x', space: { key: 'CT' }, ancestors: [{ id: page.id }], body: storage('<p/>') },
      { type: 'page', space: { key: 'CT' }, body: storage('<p/>') },
      { type: 'folder', title: 'x', space: { key: 'CT' }, body: storage('<p/>') },
      { type: 'page', title: 'x', space: { key: 'CT' }, body: { storage: { value: '<p/>', representation: 'wiki' } } },
      { type: 'page', title: 'x', space: { key: 'CT' } },
      { type: 'page', title: 'x', body: storage('<p/>') },
      [1, 2],
    ];
    for (const body of cases) {
      const res = await t.http.post('/rest/api/content').set('Authorization', writer.auth).send(body as object);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.statusCode).toBe(400);
    }
    const noSpace = await t.http.post('/rest/api/content').set('Authorization', writer.auth).send({ type: 'page', title: 'x', space: { key: 'NOPE' }, body: storage('<p/>') });
    expect(noSpace.status).toBe(404);
  });

  it('400 for malformed storage with line and column, and nothing is stored', async () => {
    const before = await t.services.db.knex('contents').count({ n: '*' }).first();
    const res = await t.http
      .post('/rest/api/content')
      .set('Authorization', writer.auth)
      .send({ type: 'page', title: 'Broken', space: { key: 'CT' }, body: storage('<p>one\n<b>two</p>') });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/line 2, column \d+/);
    const after = await t.services.db.knex('contents').count({ n: '*' }).first();
    expect(Number(after?.n)).toBe(Number(before?.n));
    expect(await t.services.db.knex('contents').where({ title: 'Broken' }).first()).toBeUndefined();
  });

  it('accepts a body larger than the default 1 MiB limit', async () => {
    const big = `<p>${'x'.repeat(2 * 1024 * 1024)}</p>`;
    const page = await createContent(t, writer.auth, { title: 'Big', space: 'CT', body: big });
    expect(page.body.storage.value.length).toBe(big.length);
  });
});

describe('GET /rest/api/content/{id}', () => {
  it('answers viewers with the requested expansions only', async () => {
    const page = await createContent(t, writer.auth, { title: 'Readable', space: 'CT', body: '<p>b</p>' });
    const plain = await t.http.get(`/rest/api/content/${page.id}`).set('Authorization', reader.auth);
    expect(plain.status).toBe(200);
    expect(plain.body.body).toBeUndefined();
    expect(plain.body.version.number).toBe(1);
    expect(plain.body._expandable).toHaveProperty('body');
    const expanded = await t.http.get(`/rest/api/content/${page.id}?expand=body.storage,version,space`).set('Authorization', await t.tokenFor(reader.name));
    expect(expanded.body.body.storage.value).toBe('<p>b</p>');
  });

  it('404 for non-viewers and unknown ids, 400 for malformed ids, 401 anonymous', async () => {
    const page = await createContent(t, writer.auth, { title: 'Hidden', space: 'CT' });
    expect((await t.http.get(`/rest/api/content/${page.id}`).set('Authorization', stranger.auth)).status).toBe(404);
    expect((await t.http.get('/rest/api/content/99999999').set('Authorization', reader.auth)).status).toBe(404);
    expect((await t.http.get('/rest/api/content/12x').set('Authorization', reader.auth)).status).toBe(400);
    expect((await t.http.get('/rest/api/content/9007199254740992').set('Authorization', reader.auth)).status).toBe(400);
    expect((await t.http.get(`/rest/api/content/${page.id}`)).status).toBe(401);
  });
});

describe('PUT /rest/api/content/{id}', () => {
  it('updates with version = current + 1, keeps history, and answers 409 on a stale version', async () => {
    const page = await createContent(t, writer.auth, { title: 'V', space: 'CT', body: '<p>1</p>' });
    const put = (n: number, value: string, auth = writer.auth) =>
      t.http.put(`/rest/api/content/${page.id}`).set('Authorization', auth).send({ type: 'page', title: 'V2', version: { number: n }, body: storage(value) });
    const ok = await put(2, '<p>2</p>');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ title: 'V2', version: { number: 2 }, body: { storage: { value: '<p>2</p>' } } });
    const stale = await put(2, '<p>again</p>');
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ statusCode: 409, reason: 'Conflict' });
    expect((await put(5, '<p>skip</p>')).status).toBe(409);
    const versions = await t.services.db.knex('content_versions').where({ content_id: Number(page.id) }).orderBy('number').select('number', 'body');
    expect(versions).toEqual([{ number: 1, body: '<p>1</p>' }, { number: 2, body: '<p>2</p>' }]);
  });

  it('400 for malformed storage on update, nothing changes', async () => {
    const page = await createContent(t, writer.auth, { title: 'Stay', space: 'CT', body: '<p>keep</p>' });
    const res = await t.http
      .put(`/rest/api/content/${page.id}`)
      .set('Authorization', writer.auth)
      .send({ type: 'page', title: 'Stay', version: { number: 2 }, body: storage('<ac:structured-macro>') });
    expect(res.status).toBe(400);
    const row = await t.services.db.knex('contents').where({ id: Number(page.id) }).first();
    expect(row).toMatchObject({ version: 1, body: '<p>keep</p>' });
  });

  it('403 for readers, 404 for strangers, 401 anonymous, 400 for a type change or missing version', async () => {
    const page = await createContent(t, writer.auth, { title: 'Guarded', space: 'CT' });
    const body = { type: 'page', title: 'G', version: { number: 2 }, body: storage('<p/>') };
    expect((await t.http.put(`/rest/api/content/${page.id}`).set('Authorization', reader.auth).send(body)).status).toBe(403);
    expect((await t.http.put(`/rest/api/content/${page.id}`).set('Authorization', stranger.auth).send(body)).status).toBe(404);
    expect((await t.http.put(`/rest/api/content/${page.id}`).send(body)).status).toBe(401);
    expect((await t.http.put(`/rest/api/content/${page.id}`).set('Authorization', writer.auth).send({ ...body, type: 'blogpost' })).status).toBe(400);
    expect((await t.http.put(`/rest/api/content/${page.id}`).set('Authorization', writer.auth).send({ title: 'x' })).status).toBe(400);
  });
});

describe('DELETE /rest/api/content/{id}', () => {
  it('moves a page, its comments and (through the view rule) its children to the trash', async () => {
    const page = await createContent(t, writer.auth, { title: 'Doomed', space: 'CT' });
    const child = await createContent(t, writer.auth, { title: 'Doomed child', space: 'CT', parent: page.id });
    const comment = await createContent(t, writer.auth, { type: 'comment', space: 'CT', container: page.id });
    expect((await t.http.delete(`/rest/api/content/${page.id}`).set('Authorization', reader.auth)).status).toBe(403);
    expect((await t.http.delete(`/rest/api/content/${page.id}`).set('Authorization', stranger.auth)).status).toBe(404);
    expect((await t.http.delete(`/rest/api/content/${page.id}`)).status).toBe(401);
    expect((await t.http.delete(`/rest/api/content/${page.id}`).set('Authorization', writer.auth)).status).toBe(204);
    for (const id of [page.id, child.id, comment.id]) {
      expect((await t.http.get(`/rest/api/content/${id}`).set('Authorization', writer.auth)).status, id).toBe(404);
    }
    const statuses = await t.services.db.knex('contents').whereIn('id', [page.id, comment.id].map(Number)).pluck('status');
    expect(statuses).toEqual(['trashed', 'trashed']);
    expect((await t.http.delete(`/rest/api/content/${page.id}`).set('Authorization', writer.auth)).status).toBe(404);
  });
});
