import { beforeAll, describe, expect, it } from 'vitest';
import { basic, useTestApp, type TestUser } from '../../helpers/test-app.ts';

describe('directory REST', () => {
  const t = useTestApp();
  let user: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    user = await t.createUser('plain');
    admin = await t.createUser('helper-admin', { admin: true });
  });

  describe('POST /rest/api/2/user', () => {
    it('creates a user in the users group', async () => {
      const res = await t.http
        .post('/rest/api/2/user')
        .set('Authorization', t.adminAuth)
        .send({ name: 'Newbie', password: 'pw', displayName: 'New Bie', emailAddress: 'n@example.com' })
        .expect(201);
      expect(res.body).toMatchObject({ name: 'Newbie', displayName: 'New Bie', emailAddress: 'n@example.com', active: true });
      expect(res.body.groups.items).toEqual([expect.objectContaining({ name: 'users' })]);
      await t.http.get('/rest/api/2/myself').set('Authorization', basic('Newbie', 'pw')).expect(200);
    });

    it('lets an ordinary administrator create users', async () => {
      await t.http.post('/rest/api/2/user').set('Authorization', admin.auth).send({ name: 'by-admin', password: 'pw' }).expect(201);
    });

    it('refuses a taken name without regard to case', async () => {
      const res = await t.http.post('/rest/api/2/user').set('Authorization', t.adminAuth).send({ name: 'NEWBIE', password: 'pw' }).expect(400);
      expect(res.body.errors.username).toMatch(/already exists/);
    });

    it.each([
      [{ password: 'pw' }, 'name'],
      [{ name: 'a:b', password: 'pw' }, 'name'],
      [{ name: ' lead', password: 'pw' }, 'name'],
      [{ name: 'ok', password: '' }, 'password'],
      [{ name: 'ok', password: 5 }, 'password'],
      [{ name: 'ok', password: 'pw', emailAddress: 'nope' }, 'emailAddress'],
    ])('answers 400 naming the bad property for %j', async (body, name) => {
      const res = await t.http.post('/rest/api/2/user').set('Authorization', t.adminAuth).send(body).expect(400);
      expect(Object.keys(res.body.errors)).toContain(name);
    });

    it('answers 403 to non-administrators and 401 to anonymous callers', async () => {
      await t.http.post('/rest/api/2/user').set('Authorization', user.auth).send({ name: 'x', password: 'pw' }).expect(403);
      await t.http.post('/rest/api/2/user').send({ name: 'x', password: 'pw' }).expect(401);
    });

    it('answers 400 for a body that is not JSON', async () => {
      const res = await t.http.post('/rest/api/2/user').set('Authorization', t.adminAuth).set('Content-Type', 'application/json').send('{bad');
      expect(res.status).toBe(400);
      expect(res.body.errorMessages[0]).toMatch(/JSON/);
    });
  });

  describe('GET/PUT/DELETE /rest/api/2/user', () => {
    it('reads a user (admin only), 404 for an unknown one', async () => {
      const res = await t.http.get('/rest/api/2/user?username=PLAIN').set('Authorization', t.adminAuth).expect(200);
      expect(res.body.name).toBe('plain');
      await t.http.get('/rest/api/2/user?username=nobody').set('Authorization', t.adminAuth).expect(404);
      await t.http.get('/rest/api/2/user?username=plain').set('Authorization', user.auth).expect(403);
      await t.http.get('/rest/api/2/user?username=plain').expect(401);
      await t.http.get('/rest/api/2/user').set('Authorization', t.adminAuth).expect(400);
      await t.http.get('/rest/api/2/user?username=a&username=b').set('Authorization', t.adminAuth).expect(400);
    });

    it('changes a password (admin only)', async () => {
      const u = await t.createUser('pwchange');
      await t.http.put('/rest/api/2/user/password?username=pwchange').set('Authorization', user.auth).send({ password: 'x' }).expect(403);
      await t.http.put('/rest/api/2/user/password?username=pwchange').set('Authorization', t.adminAuth).send({}).expect(400);
      await t.http.put('/rest/api/2/user/password?username=nobody').set('Authorization', t.adminAuth).send({ password: 'x' }).expect(404);
      await t.http.put('/rest/api/2/user/password?username=pwchange').set('Authorization', t.adminAuth).send({ password: 'x' }).expect(204);
      await t.http.get('/rest/api/2/myself').set('Authorization', u.auth).expect(401);
    });

    it('deletes a user with its memberships and tokens (administrators only)', async () => {
      await t.createUser('leaver', { groups: ['leavers'] });
      await t.tokenFor('leaver');
      await t.http.delete('/rest/api/2/user?username=leaver').set('Authorization', user.auth).expect(403);
      await t.http.delete('/rest/api/2/user?username=leaver').set('Authorization', t.adminAuth).expect(204);
      expect(await t.services.db.knex('access_tokens').join('users', 'users.id', 'access_tokens.user_id').where('users.name', 'leaver')).toEqual([]);
      await t.http.delete('/rest/api/2/user?username=leaver').set('Authorization', t.adminAuth).expect(404);
    });

    it('refuses to delete the last system administrator', async () => {
      // Even the system administrator itself cannot (an ordinary administrator gets 403 before: issue 44).
      const res = await t.http.delete('/rest/api/2/user?username=admin').set('Authorization', t.adminAuth).expect(400);
      expect(res.body.errorMessages[0]).toMatch(/last system administrator/);
      await t.http.delete('/rest/api/2/group/user?groupname=system-administrators&username=admin').set('Authorization', t.adminAuth).expect(400);
      await t.http.delete('/rest/api/2/user?username=admin').set('Authorization', admin.auth).expect(403);
    });
  });

  describe('GET /rest/api/2/user/search', () => {
    it('finds users by name or display name, paged, for any user', async () => {
      await t.createUser('searchable-one');
      await t.createUser('searchable-two');
      const res = await t.http.get('/rest/api/2/user/search?username=SEARCHABLE').set('Authorization', user.auth).expect(200);
      expect(res.body.map((u: { name: string }) => u.name)).toEqual(['searchable-one', 'searchable-two']);
      const page = await t.http.get('/rest/api/2/user/search?username=searchable&startAt=1&maxResults=1').set('Authorization', user.auth).expect(200);
      expect(page.body.map((u: { name: string }) => u.name)).toEqual(['searchable-two']);
      await t.http.get('/rest/api/2/user/search?username=x&startAt=-1').set('Authorization', user.auth).expect(400);
      await t.http.get('/rest/api/2/user/search?username=x').expect(401);
    });

    it('treats % and _ as plain text', async () => {
      const res = await t.http.get('/rest/api/2/user/search?username=%25').set('Authorization', user.auth).expect(200);
      expect(res.body).toEqual([]);
    });
  });

  describe('groups', () => {
    it('creates, fills, empties and deletes a group', async () => {
      await t.http.post('/rest/api/2/group').set('Authorization', user.auth).send({ name: 'team' }).expect(403);
      const created = await t.http.post('/rest/api/2/group').set('Authorization', t.adminAuth).send({ name: 'team' }).expect(201);
      expect(created.body.name).toBe('team');
      await t.http.post('/rest/api/2/group').set('Authorization', t.adminAuth).send({ name: 'TEAM' }).expect(400);
      await t.http.post('/rest/api/2/group/user?groupname=team').set('Authorization', t.adminAuth).send({ name: 'plain' }).expect(201);
      await t.http.post('/rest/api/2/group/user?groupname=team').set('Authorization', t.adminAuth).send({ name: 'nobody' }).expect(404);
      await t.http.post('/rest/api/2/group/user?groupname=nogroup').set('Authorization', t.adminAuth).send({ name: 'plain' }).expect(404);
      const me = await t.http.get('/rest/api/2/myself').set('Authorization', user.auth).expect(200);
      expect(me.body.groups.items.map((g: { name: string }) => g.name)).toContain('team');
      await t.http.delete('/rest/api/2/group/user?groupname=team&username=plain').set('Authorization', t.adminAuth).expect(200);
      await t.http.delete('/rest/api/2/group/user?groupname=team&username=plain').set('Authorization', t.adminAuth).expect(404);
      await t.http.delete('/rest/api/2/group?groupname=team').set('Authorization', t.adminAuth).expect(200);
      await t.http.delete('/rest/api/2/group?groupname=team').set('Authorization', t.adminAuth).expect(404);
    });

    it('keeps the built-in groups', async () => {
      await t.http.delete('/rest/api/2/group?groupname=users').set('Authorization', t.adminAuth).expect(400);
    });

    it('makes a member of administrators an administrator at once', async () => {
      const u = await t.createUser('promoted');
      await t.http.get('/rest/api/2/user?username=plain').set('Authorization', u.auth).expect(403);
      await t.http.post('/rest/api/2/group/user?groupname=administrators').set('Authorization', t.adminAuth).send({ name: 'promoted' }).expect(201);
      await t.http.get('/rest/api/2/user?username=plain').set('Authorization', u.auth).expect(200);
    });

    it('offers a group picker to any user', async () => {
      const res = await t.http.get('/rest/api/2/groups/picker?query=ADMIN').set('Authorization', user.auth).expect(200);
      expect(res.body.total).toBe(2);
      expect(res.body.groups.map((g: { name: string }) => g.name)).toEqual(['administrators', 'system-administrators']);
      await t.http.get('/rest/api/2/groups/picker?query=a').expect(401);
    });

    it('escapes the group name in the picker html, the highlighted part too', async () => {
      const name = `<img src=x onerror=alert(1)>&"'-ops`;
      await t.http.post('/rest/api/2/group').set('Authorization', t.adminAuth).send({ name }).expect(201);
      const find = (query: string) =>
        t.http.get(`/rest/api/2/groups/picker?query=${encodeURIComponent(query)}`).set('Authorization', user.auth).expect(200);
      // The match inside the markup-like part: it is highlighted, and every part is text, not markup.
      const inside = await find('ONERROR=alert(1)>&');
      expect(inside.body.groups).toEqual([
        { name, html: '&lt;img src=x <b>onerror=alert(1)&gt;&amp;</b>&quot;&#39;-ops' },
      ]);
      const plain = await find('ops');
      expect(plain.body.groups.find((g: { name: string }) => g.name === name)).toEqual({ name, html: '&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&#39;-<b>ops</b>' });
      await t.http.delete(`/rest/api/2/group?groupname=${encodeURIComponent(name)}`).set('Authorization', t.adminAuth).expect(200);
    });
  });

  it('answers unknown paths under /rest/api/2 with a JSON 404', async () => {
    const res = await t.http.get('/rest/api/2/nothing-here').set('Authorization', user.auth).expect(404);
    expect(res.body.errorMessages).toHaveLength(1);
  });
});
