// Issue 10, points 3 and 5: the space creator's rights, the host lists (spaces, content) with their
// permission filtering and paging, deleting a space, and the user search beyond its first page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { decideView } from '../../../src/wiki/content-access.ts';
import { createContent, createSpace } from '../../helpers/wiki-fixtures.ts';

let t: TestApp;
let reader: TestUser;
let insider: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  reader = await t.createUser('ls-reader', { groups: ['ls-readers'] });
  insider = await t.createUser('ls-insider', { groups: ['ls-readers', 'ls-writers'] });
  stranger = await t.createUser('ls-stranger');
  await createSpace(t, 'LA', { groups: ['ls-readers'] }, { groups: ['ls-writers'] });
  await createSpace(t, 'LB', { groups: ['ls-readers'] }, { groups: ['ls-writers'] });
  await createSpace(t, 'LC', { users: ['ls-insider'] }, { groups: ['ls-writers'] });
}, 60_000);

afterAll(async () => {
  await t.close();
});

const get = (path: string, auth: string) => t.http.get(path).set('Authorization', auth);
const wikiError = (status: number) => ({ statusCode: status, data: expect.objectContaining({ successful: false }), message: expect.any(String) });

describe('the creator of a space', () => {
  it('holds read, create and administer in it, listed and usable at once', async () => {
    const created = await t.http.post('/rest/api/space').set('Authorization', t.adminAuth).send({ key: 'OWN', name: 'Own' });
    expect(created.status).toBe(200);
    const perms = await get('/rest/api/space/OWN/permission', t.adminAuth);
    expect(perms.status).toBe(200);
    expect(perms.body.results.map((p: { subject: unknown; operation: unknown }) => [p.subject, p.operation])).toEqual([
      [{ type: 'user', identifier: 'admin' }, { key: 'read', target: 'space' }],
      [{ type: 'user', identifier: 'admin' }, { key: 'create', target: 'space' }],
      [{ type: 'user', identifier: 'admin' }, { key: 'administer', target: 'space' }],
    ]);
    expect((await get('/rest/api/space/OWN', t.adminAuth)).status).toBe(200);
    const page = await createContent(t, t.adminAuth, { title: 'Mine', space: 'OWN' });
    const child = await createContent(t, t.adminAuth, { title: 'Child', space: 'OWN', parent: page.id });
    expect((await get(`/rest/api/content/${child.id}`, t.adminAuth)).status).toBe(200);

    // Removable like any other: without read, the administrator sees nothing again (no implicit view).
    const read = perms.body.results.find((p: { operation: { key: string } }) => p.operation.key === 'read');
    expect((await t.http.delete(`/rest/api/space/OWN/permission/${read.id}`).set('Authorization', t.adminAuth)).status).toBe(204);
    expect((await get(`/rest/api/content/${page.id}`, t.adminAuth)).status).toBe(404);
    expect((await get('/rest/api/space/OWN', t.adminAuth)).status).toBe(404);
  });

  it('administer lets a non-administrator manage the permissions of that space only', async () => {
    await t.http.post('/rest/api/space').set('Authorization', t.adminAuth).send({ key: 'DELEG', name: 'Delegated' }).expect(200);
    const grant = (key: string, auth: string, body: object) => t.http.post(`/rest/api/space/${key}/permission`).set('Authorization', auth).send(body);
    const asAdminOf = { subject: { type: 'user', identifier: 'ls-reader' }, operation: { key: 'administer', target: 'space' } };
    expect((await grant('DELEG', t.adminAuth, asAdminOf)).status).toBe(200);
    const readers = { subject: { type: 'group', identifier: 'ls-readers' }, operation: { key: 'read', target: 'space' } };
    expect((await grant('DELEG', reader.auth, readers)).status).toBe(200);
    expect((await get('/rest/api/space/DELEG/permission', reader.auth)).status).toBe(200);
    // Not in another space: 403 where it can read, 404 where it cannot.
    const other = await grant('LA', reader.auth, readers);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject(wikiError(403));
    expect((await grant('LC', reader.auth, readers)).status).toBe(404);
    expect((await get('/rest/api/space/LA/permission', reader.auth)).status).toBe(403);
    expect((await t.http.delete('/rest/api/space/LA').set('Authorization', reader.auth)).status).toBe(403);
    // administer targets the space only.
    const bad = await grant('DELEG', t.adminAuth, { subject: { type: 'user', identifier: 'ls-reader' }, operation: { key: 'administer', target: 'page' } });
    expect(bad.status).toBe(400);
  });

  it('answers 401 without credentials on the permission list', async () => {
    expect((await t.http.get('/rest/api/space/LA/permission')).status).toBe(401);
  });
});

describe('GET /rest/api/space', () => {
  it('lists only the spaces the caller may read, by key, with host paging', async () => {
    const all = await get('/rest/api/space?limit=100', insider.auth);
    expect(all.status).toBe(200);
    const keys = all.body.results.map((s: { key: string }) => s.key);
    expect(keys).toEqual(expect.arrayContaining(['LA', 'LB', 'LC']));
    expect(keys).toEqual([...keys].sort());
    expect((await get('/rest/api/space?limit=100', reader.auth)).body.results.map((s: { key: string }) => s.key)).not.toContain('LC');
    expect((await get('/rest/api/space', stranger.auth)).body).toMatchObject({ results: [], start: 0, limit: 25, size: 0 });

    const first = await get('/rest/api/space?limit=2', insider.auth);
    expect(first.body).toMatchObject({ start: 0, limit: 2, size: 2, _links: { base: 'http://localhost:8080', context: '' } });
    expect(first.body.results[0]).toMatchObject({ key: expect.any(String), name: expect.any(String), type: 'global', _links: expect.any(Object) });
    expect(first.body._links.next).toBe('/rest/api/space?limit=2&start=2');
    const second = await get(first.body._links.next, insider.auth);
    expect(second.body.start).toBe(2);
    const seen = [...first.body.results, ...second.body.results].map((s: { key: string }) => s.key);
    expect(new Set(seen).size).toBe(seen.length);
    if (second.body.size < 2) expect(second.body._links.next).toBeUndefined();
  });

  it('validates paging (400) and needs a user (401)', async () => {
    const bad = await get('/rest/api/space?start=-1', reader.auth);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject(wikiError(400));
    expect((await get('/rest/api/space?limit=x', reader.auth)).status).toBe(400);
    expect((await t.http.get('/rest/api/space')).status).toBe(401);
    expect((await get('/rest/api/space?limit=100000', reader.auth)).body.limit).toBe(200);
  });
});

describe('GET /rest/api/content', () => {
  it('lists only content the caller may view: restricted, trashed and unreadable spaces are left out', async () => {
    const open = await createContent(t, insider.auth, { title: 'Open', space: 'LA' });
    const restricted = await createContent(t, insider.auth, { title: 'Restricted', space: 'LA' });
    const belowRestricted = await createContent(t, insider.auth, { title: 'Below', space: 'LA', parent: restricted.id });
    const trashed = await createContent(t, insider.auth, { title: 'Trashed', space: 'LA' });
    const belowTrashed = await createContent(t, insider.auth, { title: 'BelowTrashed', space: 'LA', parent: trashed.id });
    await t.http
      .put(`/rest/api/content/${restricted.id}/restriction`)
      .set('Authorization', insider.auth)
      .send([{ operation: 'read', restrictions: { user: [{ username: 'ls-insider' }] } }])
      .expect(200);
    await t.http.delete(`/rest/api/content/${trashed.id}`).set('Authorization', insider.auth).expect(204);
    const secret = await createContent(t, insider.auth, { title: 'Secret', space: 'LC' });

    const ids = async (user: TestUser, query: string) =>
      ((await get(`/rest/api/content?${query}&limit=200`, user.auth)).body.results as { id: string }[]).map((c) => c.id);
    const forReader = await ids(reader, 'spaceKey=LA');
    expect(forReader).toContain(open.id);
    expect(forReader).not.toContain(restricted.id);
    expect(forReader).not.toContain(belowRestricted.id);
    expect(forReader).not.toContain(trashed.id);
    expect(forReader).not.toContain(belowTrashed.id);
    expect(await ids(insider, 'spaceKey=LA')).toEqual(expect.arrayContaining([open.id, restricted.id, belowRestricted.id]));
    expect(await ids(reader, 'type=page')).not.toContain(secret.id);
    expect(await ids(insider, 'type=page')).toContain(secret.id);
    expect(await ids(stranger, 'type=page')).toEqual([]);
    // The administrator removed its creator grants (fixture): no implicit view in lists either.
    expect(await ids({ name: 'admin', password: '', auth: t.adminAuth }, 'type=page')).toEqual([]);

    // The list and the one view rule agree on every content of the space, for each user.
    const knex = t.services.db.knex;
    const all = (await knex('contents').select('id')).map((r: { id: number }) => r.id);
    for (const user of [reader, insider, stranger]) {
      const me = await t.services.directory.getUser(user.name);
      const authUser = { id: me.id, name: user.name, displayName: user.name, email: '', active: true, groups: me.groups, isAdmin: false, isSystemAdmin: false, via: 'basic' as const, readOnly: false };
      const listed = new Set([...(await ids(user, 'type=page')), ...(await ids(user, 'type=blogpost')), ...(await ids(user, 'type=comment'))]);
      for (const id of all) {
        const viewable = (await decideView(knex, authUser, id)).state === 'allowed';
        expect(listed.has(String(id)), `${user.name} ${id}`).toBe(viewable);
      }
    }
  });

  it('filters by type and exact title, pages with start/limit and _links.next, and expands', async () => {
    for (let i = 0; i < 5; i++) await createContent(t, insider.auth, { title: `Paged ${i}`, space: 'LB' });
    await createContent(t, insider.auth, { type: 'blogpost', title: 'Paged 0', space: 'LB' });
    const first = await get('/rest/api/content?spaceKey=LB&limit=2&expand=body.storage,ancestors', reader.auth);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ start: 0, limit: 2, size: 2 });
    expect(first.body.results[0]).toMatchObject({ type: 'page', status: 'current', space: { key: 'LB' }, body: { storage: { value: expect.any(String) } }, ancestors: [] });
    expect(first.body._links.next).toBe('/rest/api/content?spaceKey=LB&expand=body.storage%2Cancestors&limit=2&start=2');
    const pages: string[] = [];
    let next: string | undefined = '/rest/api/content?spaceKey=LB&limit=2';
    while (next) {
      const res = await get(next, reader.auth);
      pages.push(...res.body.results.map((c: { title: string }) => c.title));
      next = res.body._links.next;
    }
    expect(pages).toEqual(['Paged 0', 'Paged 1', 'Paged 2', 'Paged 3', 'Paged 4']);
    const blog = await get('/rest/api/content?spaceKey=LB&type=blogpost&title=Paged%200', reader.auth);
    expect(blog.body.results.map((c: { type: string }) => c.type)).toEqual(['blogpost']);
    expect((await get('/rest/api/content?spaceKey=LB&title=Paged%203', reader.auth)).body.size).toBe(1);
  });

  it('validates its parameters (400) and needs a user (401)', async () => {
    for (const q of ['type=folder', 'spaceKey=a-b', 'start=x', 'limit=-2', 'spaceKey=LA&spaceKey=LB']) {
      const res = await get(`/rest/api/content?${q}`, reader.auth);
      expect(res.status, q).toBe(400);
      expect(res.body).toMatchObject(wikiError(400));
    }
    expect((await t.http.get('/rest/api/content')).status).toBe(401);
  });
});

describe('DELETE /rest/api/space/{key}', () => {
  it('trashes the space with its content; the key is free again; non-administrators get 403/404', async () => {
    await createSpace(t, 'GONE', { groups: ['ls-readers'] }, { groups: ['ls-writers'] });
    const page = await createContent(t, insider.auth, { title: 'Doomed', space: 'GONE' });
    const del = (auth?: string) => {
      const r = t.http.delete('/rest/api/space/GONE');
      return auth ? r.set('Authorization', auth) : r;
    };
    expect((await del()).status).toBe(401);
    const forbidden = await del(reader.auth);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject(wikiError(403));
    expect((await del(stranger.auth)).status).toBe(404);
    expect((await get(`/rest/api/content/${page.id}`, reader.auth)).status).toBe(200);

    expect((await del(t.adminAuth)).status).toBe(204);
    expect((await get(`/rest/api/content/${page.id}`, reader.auth)).status).toBe(404);
    expect((await get('/rest/api/space/GONE', reader.auth)).status).toBe(404);
    expect((await get('/rest/api/space?limit=200', reader.auth)).body.results.map((s: { key: string }) => s.key)).not.toContain('GONE');
    expect((await get('/rest/api/content?spaceKey=GONE', reader.auth)).body.size).toBe(0);
    const row = await t.services.db.knex('contents').where({ id: Number(page.id) }).first('status');
    expect(row.status).toBe('trashed');
    expect((await del(t.adminAuth)).status).toBe(404);
    expect((await t.http.post('/rest/api/space').set('Authorization', t.adminAuth).send({ key: 'gone', name: 'Again' })).status).toBe(200);
  });
});

describe('GET /rest/api/2/user/search beyond the first page', () => {
  it('pages through more than 50 users with startAt and maxResults', async () => {
    // Sixty accounts in one statement (no endpoint creates users in bulk; sixty slow hashes would only cost time).
    const names = Array.from({ length: 60 }, (_, i) => `pager-${String(i).padStart(2, '0')}`);
    await t.services.db
      .knex('users')
      .insert(names.map((name) => ({ name, name_key: name, display_name: name, password_hash: 'scrypt$1$1$1$AA==$AA==' })));
    const first = await get('/rest/api/2/user/search?username=pager-', reader.auth);
    expect(first.body).toHaveLength(50);
    const second = await get('/rest/api/2/user/search?username=pager-&startAt=50', reader.auth);
    expect(second.body.map((u: { name: string }) => u.name)).toEqual(Array.from({ length: 10 }, (_, i) => `pager-${50 + i}`));
    const window = await get('/rest/api/2/user/search?username=pager-&startAt=45&maxResults=10', reader.auth);
    expect(window.body.map((u: { name: string }) => u.name)).toEqual(Array.from({ length: 10 }, (_, i) => `pager-${45 + i}`));
  });
});
