import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { createContent, createSpace } from '../../helpers/wiki-fixtures.ts';

const t = useTestApp();
let owner: TestUser; // read + create
let insider: TestUser; // read, member of rs-inner
let outsider: TestUser; // read only
let stranger: TestUser; // nothing on the space

beforeAll(async () => {
  owner = await t.createUser('rs-owner', { groups: ['rs-all', 'rs-inner'] });
  insider = await t.createUser('rs-insider', { groups: ['rs-all', 'rs-inner'] });
  outsider = await t.createUser('rs-outsider', { groups: ['rs-all'] });
  stranger = await t.createUser('rs-stranger');
  await createSpace(t, 'RS', { groups: ['rs-all'] }, { users: ['rs-owner'] });
}, 60_000);

const restrict = (id: string, auth: string, users: string[], groups: string[]) =>
  t.http
    .put(`/rest/api/content/${id}/restriction`)
    .set('Authorization', auth)
    .send([
      {
        operation: 'read',
        restrictions: { user: users.map((username) => ({ type: 'known', username })), group: groups.map((name) => ({ type: 'group', name })) },
      },
    ]);
const view = (id: string, auth: string) => t.http.get(`/rest/api/content/${id}`).set('Authorization', auth);

describe('read restrictions', () => {
  it('PUT replaces the restriction and GET byOperation/read shows it', async () => {
    const page = await createContent(t, owner.auth, { title: 'Restricted', space: 'RS' });
    const put = await restrict(page.id, owner.auth, ['rs-owner'], ['rs-inner']);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.results[0].restrictions.group.results).toEqual([{ type: 'group', name: 'rs-inner' }]);
    const get = await t.http.get(`/rest/api/content/${page.id}/restriction/byOperation/read`).set('Authorization', insider.auth);
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({
      operation: 'read',
      restrictions: {
        user: { results: [{ type: 'known', username: 'rs-owner' }], size: 1 },
        group: { results: [{ type: 'group', name: 'rs-inner' }], size: 1 },
      },
    });
    // The GET shape can be sent back as is.
    const roundTrip = await t.http.put(`/rest/api/content/${page.id}/restriction`).set('Authorization', owner.auth).send([get.body]);
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body.results[0].restrictions.user.size).toBe(1);
  });

  it('a restriction on an ancestor hides every descendant and their comments', async () => {
    const top = await createContent(t, owner.auth, { title: 'Top', space: 'RS' });
    const mid = await createContent(t, owner.auth, { title: 'Mid', space: 'RS', parent: top.id });
    const leaf = await createContent(t, owner.auth, { title: 'Leaf', space: 'RS', parent: mid.id });
    const comment = await createContent(t, owner.auth, { type: 'comment', space: 'RS', container: leaf.id });
    for (const id of [top.id, mid.id, leaf.id, comment.id]) expect((await view(id, outsider.auth)).status).toBe(200);
    expect((await restrict(top.id, owner.auth, [], ['rs-inner'])).status).toBe(200);
    for (const id of [top.id, mid.id, leaf.id, comment.id]) {
      expect((await view(id, outsider.auth)).status, id).toBe(404);
      expect((await view(id, insider.auth)).status, id).toBe(200);
    }
    // Both levels must be satisfied: a restriction on the leaf for the outsider alone hides it from everyone else.
    expect((await restrict(leaf.id, owner.auth, ['rs-outsider'], [])).status).toBe(200);
    expect((await view(leaf.id, insider.auth)).status).toBe(404);
    expect((await view(leaf.id, outsider.auth)).status).toBe(404);
    expect((await view(comment.id, insider.auth)).status).toBe(404);
    // Lifting the top restriction leaves the leaf to the outsider only.
    expect((await restrict(top.id, owner.auth, [], [])).status).toBe(200);
    expect((await view(leaf.id, outsider.auth)).status).toBe(200);
    expect((await view(mid.id, outsider.auth)).status).toBe(200);
    expect((await view(comment.id, outsider.auth)).status).toBe(200);
    expect((await t.http.put(`/rest/api/content/${top.id}/restriction`).set('Authorization', owner.auth).send([])).status).toBe(200);
  });

  it('a restricted blog post hides its comments; a restriction does not give view without space read', async () => {
    const blog = await createContent(t, owner.auth, { type: 'blogpost', title: 'Diary', space: 'RS' });
    const comment = await createContent(t, owner.auth, { type: 'comment', space: 'RS', container: blog.id });
    expect((await restrict(blog.id, owner.auth, ['rs-owner', 'rs-stranger'], [])).status).toBe(200);
    expect((await view(blog.id, outsider.auth)).status).toBe(404);
    expect((await view(comment.id, outsider.auth)).status).toBe(404);
    expect((await view(comment.id, owner.auth)).status).toBe(200);
    expect((await view(blog.id, stranger.auth)).status).toBe(404);
  });

  it('400 for unknown users or groups (nothing changes), for comments and for other operations', async () => {
    const page = await createContent(t, owner.auth, { title: 'Validated', space: 'RS' });
    const res = await restrict(page.id, owner.auth, ['nobody'], ['no-group']);
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toHaveLength(2);
    expect(await t.services.db.knex('content_read_restrictions').where({ content_id: Number(page.id) })).toEqual([]);
    const comment = await createContent(t, owner.auth, { type: 'comment', space: 'RS', container: page.id });
    expect((await restrict(comment.id, owner.auth, ['rs-owner'], [])).status).toBe(400);
    const update = await t.http.put(`/rest/api/content/${page.id}/restriction`).set('Authorization', owner.auth).send([{ operation: 'update', restrictions: {} }]);
    expect(update.status).toBe(400);
    const notArray = await t.http.put(`/rest/api/content/${page.id}/restriction`).set('Authorization', owner.auth).send({ operation: 'read' });
    expect(notArray.status).toBe(400);
  });

  it('guards: PUT needs create (403 for readers), hidden content is 404, anonymous 401, administrators need view', async () => {
    const page = await createContent(t, owner.auth, { title: 'Guarded', space: 'RS' });
    expect((await restrict(page.id, outsider.auth, [], ['rs-inner'])).status).toBe(403);
    expect((await restrict(page.id, stranger.auth, [], ['rs-inner'])).status).toBe(404);
    expect((await restrict('99999999', t.adminAuth, [], ['rs-inner'])).status).toBe(404);
    expect((await t.http.put(`/rest/api/content/${page.id}/restriction`).send([])).status).toBe(401);
    const read = `/rest/api/content/${page.id}/restriction/byOperation/read`;
    expect((await t.http.get(read).set('Authorization', await t.tokenFor(outsider.name))).status).toBe(200);
    expect((await t.http.get(read).set('Authorization', stranger.auth)).status).toBe(404);
    expect((await t.http.get(read)).status).toBe(401);
    expect((await t.http.get('/rest/api/content/abc/restriction/byOperation/read').set('Authorization', outsider.auth)).status).toBe(400);
  });
});

describe('deleting restricted users and groups', () => {
  it('keeps the page restricted when its only allowed user or group is deleted', async () => {
    await t.createUser('rs-temp', { groups: ['rs-all', 'rs-temp-group'] });
    const temp = (await import('../../helpers/test-app.ts')).basic('rs-temp', 'rs-temp-pw');
    const byUser = await createContent(t, owner.auth, { title: 'Only temp', space: 'RS' });
    const byGroup = await createContent(t, owner.auth, { title: 'Only temp group', space: 'RS' });
    expect((await restrict(byUser.id, owner.auth, ['rs-temp'], [])).status).toBe(200);
    expect((await restrict(byGroup.id, owner.auth, [], ['rs-temp-group'])).status).toBe(200);
    expect((await view(byUser.id, temp)).status).toBe(200);
    expect((await view(byUser.id, outsider.auth)).status).toBe(404);

    await t.services.directory.deleteUser('rs-temp');
    await t.services.directory.deleteGroup('rs-temp-group');
    // The rows cascaded away, but the restriction stays in force: nobody left may view.
    for (const id of [byUser.id, byGroup.id]) {
      expect((await view(id, outsider.auth)).status, id).toBe(404);
      expect((await view(id, owner.auth)).status, id).toBe(404);
      // The owner cannot lift it any more (it cannot view the page); an administrator can.
      expect((await restrict(id, owner.auth, [], [])).status, id).toBe(404);
    }
    expect((await restrict(byUser.id, t.adminAuth, ['rs-owner'], [])).status).toBe(200);
    expect((await view(byUser.id, owner.auth)).status).toBe(200);
    expect((await view(byUser.id, outsider.auth)).status).toBe(404);
    expect((await restrict(byGroup.id, t.adminAuth, [], [])).status).toBe(200);
    expect((await view(byGroup.id, outsider.auth)).status).toBe(200);
  });
});
