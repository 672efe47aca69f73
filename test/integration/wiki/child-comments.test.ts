// GET /rest/api/content/{id}/child/comment (the original wiki's way to list comments, which a live wiki import
// reads) and expand=history (who created content, and when).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { createContent, createSpace, grantSpace, restrictContent, trashContent } from '../../helpers/wiki-fixtures.ts';

const t = useTestApp();
let writer: TestUser;
let reader: TestUser;
let stranger: TestUser;
let page: number;
let comments: number[];

beforeAll(async () => {
  writer = await t.createUser('cc-writer');
  reader = await t.createUser('cc-reader');
  stranger = await t.createUser('cc-stranger');
  await createSpace(t, 'CC', { users: [writer.name, reader.name] }, { users: [writer.name] });
  page = Number((await createContent(t, writer.auth, { space: 'CC', title: 'Discussed' })).id);
  comments = [];
  for (const n of [1, 2, 3]) comments.push(Number((await createContent(t, writer.auth, { space: 'CC', type: 'comment', container: page, body: `<p>c${n}</p>` })).id));
});

const list = (id: number, query: string, user: TestUser = reader) => t.http.get(`/rest/api/content/${id}/child/comment?${query}`).set('Authorization', user.auth);

describe('GET /rest/api/content/{id}/child/comment', () => {
  it('pages the comments of a page by id, with the expansions asked for; depth=all is accepted', async () => {
    const first = await list(page, 'limit=2&expand=body.storage,container&depth=all').expect(200);
    expect(first.body.results.map((c: { id: string }) => Number(c.id))).toEqual(comments.slice(0, 2));
    expect(first.body.results[0]).toMatchObject({ type: 'comment', body: { storage: { value: '<p>c1</p>' } }, container: { id: String(page), type: 'page' } });
    expect(first.body._links.next).toBe(`/rest/api/content/${page}/child/comment?expand=body.storage%2Ccontainer&depth=all&limit=2&start=2`);
    const rest = await t.http.get(first.body._links.next as string).set('Authorization', reader.auth).expect(200);
    expect(rest.body.results.map((c: { id: string }) => Number(c.id))).toEqual([comments[2]]);
    expect(rest.body._links.next).toBeUndefined();
  });

  it('leaves out trashed comments; a comment has none', async () => {
    const extra = Number((await createContent(t, writer.auth, { space: 'CC', type: 'comment', container: page })).id);
    await trashContent(t, writer.auth, extra);
    expect((await list(page, '').expect(200)).body.results.map((c: { id: string }) => Number(c.id))).toEqual(comments);
    expect((await list(comments[0]!, '').expect(200)).body.results).toEqual([]);
  });

  it('404 to those who may not view the container (and for unknown ids), 400 for malformed ones, 401 anonymous', async () => {
    await list(page, '', stranger).expect(404);
    const hidden = Number((await createContent(t, writer.auth, { space: 'CC', title: 'Hidden talk' })).id);
    await createContent(t, writer.auth, { space: 'CC', type: 'comment', container: hidden });
    await restrictContent(t, writer.auth, hidden, { users: [writer.name] });
    await list(hidden, '').expect(404);
    expect((await list(hidden, '', writer).expect(200)).body.size).toBe(1);
    await list(987654321, '').expect(404);
    await list(page, 'limit=x').expect(400);
    await t.http.get(`/rest/api/content/${page}/child/comment`).expect(401);
  });
});

describe('expand=history', () => {
  it('names the creator and the creation date, also after another user saved a version', async () => {
    const before = Date.now() - 60_000;
    // Administrators write without a grant but must view what they change.
    await grantSpace(t, 'CC', { user: 'admin' }, 'read');
    const edited = await t.http
      .put(`/rest/api/content/${page}`)
      .set('Authorization', t.adminAuth)
      .send({ type: 'page', title: 'Discussed', version: { number: 2 }, body: { storage: { value: '<p>edited</p>', representation: 'storage' } } });
    expect(edited.status).toBe(200);
    const res = await t.http.get(`/rest/api/content/${page}?expand=history`).set('Authorization', reader.auth).expect(200);
    expect(res.body.version.by.username).toBe('admin');
    expect(res.body.history).toEqual({ latest: true, createdBy: { type: 'known', username: writer.name, displayName: expect.any(String) }, createdDate: expect.any(String) });
    expect(Date.parse(res.body.history.createdDate as string)).toBeGreaterThan(before);
    const plain = await t.http.get(`/rest/api/content/${page}`).set('Authorization', reader.auth).expect(200);
    expect(plain.body.history).toBeUndefined();
  });
});
