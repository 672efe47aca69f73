import { beforeAll, describe, expect, it } from 'vitest';
import { basic, useTestApp, uniq, type TestApp, type TestUser } from '../../helpers/test-app.ts';

/** The administrators' user and group pages, user changes, the own password change, any user's tokens, the audit trail. */
describe('directory: user administration (issue 29)', () => {
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '3', LOCKOUT_MINUTES: '30' });
  let user: TestUser;
  beforeAll(async () => {
    user = await t.createUser('ua-plain');
  });
  const admin = (req: ReturnType<TestApp['http']['get']>) => req.set('Authorization', t.adminAuth);
  /** The event-log entries of one kind about one target name (the directory's audit trail). */
  const audit = async (kind: string, name: string) =>
    (await t.services.db.knex('event_log').where({ kind }).andWhereRaw("target->>'name' = ?", [name]).orderBy('id')).map((r) => ({
      actor: r.actor,
      target: typeof r.target === 'string' ? JSON.parse(r.target) : r.target,
      before: typeof r.before === 'string' ? JSON.parse(r.before) : r.before,
      after: typeof r.after === 'string' ? JSON.parse(r.after) : r.after,
    }));

  describe('GET /rest/api/2/users/search', () => {
    it('pages users by name with their failed-login state and lock expiry', async () => {
      const name = uniq('ua-list');
      await t.createUser(name, { password: 'right' });
      for (let i = 0; i < 3; i++) await t.http.get('/rest/api/2/myself').set('Authorization', basic(name, 'wrong')).expect(401);
      const res = await admin(t.http.get(`/rest/api/2/users/search?query=${name}`)).expect(200);
      expect(res.body).toMatchObject({ startAt: 0, maxResults: 50, total: 1, isLast: true });
      const [u] = res.body.values;
      expect(u).toMatchObject({ name, active: true, failedLogins: 3, locked: true });
      const until = Date.parse(u.lockedUntil);
      expect(until - Date.now()).toBeGreaterThan(29 * 60_000);
      expect(until - Date.now()).toBeLessThanOrEqual(30 * 60_000);
      const all = await admin(t.http.get('/rest/api/2/users/search?maxResults=1&startAt=1')).expect(200);
      expect(all.body.values).toHaveLength(1);
      expect(all.body.total).toBeGreaterThan(2);
      expect(all.body.isLast).toBe(false);
      // maxResults=0 asks for the total only.
      const none = await admin(t.http.get('/rest/api/2/users/search?maxResults=0')).expect(200);
      expect(none.body).toMatchObject({ maxResults: 0, total: all.body.total, values: [] });
    });

    it('finds users by e-mail; 400 for bad paging values, 403 and 401 below administrators', async () => {
      const name = uniq('ua-mail');
      await admin(t.http.post('/rest/api/2/user')).send({ name, password: 'pw', emailAddress: `${name}@example.org` }).expect(201);
      const res = await admin(t.http.get(`/rest/api/2/users/search?query=${name}%40EXAMPLE`)).expect(200);
      expect(res.body.values.map((u: { name: string }) => u.name)).toEqual([name]);
      expect(res.body.values[0]).toMatchObject({ failedLogins: 0, locked: false, lockedUntil: null });
      await admin(t.http.get('/rest/api/2/users/search?startAt=-1')).expect(400);
      await admin(t.http.get('/rest/api/2/users/search?maxResults=x')).expect(400);
      await t.http.get('/rest/api/2/users/search').set('Authorization', user.auth).expect(403);
      await t.http.get('/rest/api/2/users/search').expect(401);
    });
  });

  describe('PUT /rest/api/2/user', () => {
    it('changes display name and e-mail, audited with the changed members only', async () => {
      const name = uniq('ua-edit');
      await t.createUser(name);
      const res = await admin(t.http.put(`/rest/api/2/user?username=${name}`)).send({ displayName: 'Edith Edit', emailAddress: 'edith@example.org' }).expect(200);
      expect(res.body).toMatchObject({ name, displayName: 'Edith Edit', emailAddress: 'edith@example.org', active: true });
      expect(await audit('user.updated', name)).toEqual([
        {
          actor: 'admin',
          target: { type: 'user', name },
          before: { displayName: name, emailAddress: '' },
          after: { displayName: 'Edith Edit', emailAddress: 'edith@example.org' },
        },
      ]);
    });

    it('deactivates: Basic, token and session are refused, the sessions end; reactivation restores Basic but no session', async () => {
      const name = uniq('ua-deact');
      const u = await t.createUser(name, { password: 'pw' });
      const token = await t.tokenFor(name);
      const signIn = await t.http.post('/rest/auth/1/session').send({ username: name, password: 'pw' }).expect(200);
      const cookie = `JSESSIONID=${signIn.body.session.value}`;
      await t.http.get('/rest/auth/1/session').set('Cookie', cookie).expect(200);
      await admin(t.http.put(`/rest/api/2/user?username=${name}`)).send({ active: false }).expect(200);
      await t.http.get('/rest/api/2/myself').set('Authorization', u.auth).expect(401);
      await t.http.get('/rest/api/2/myself').set('Authorization', token).expect(401);
      await t.http.get('/rest/auth/1/session').set('Cookie', cookie).expect(401);
      await t.http.post('/rest/auth/1/session').send({ username: name, password: 'pw' }).expect(401);
      expect(await t.services.db.knex('web_sessions').join('users', 'users.id', 'web_sessions.user_id').where('users.name', name)).toEqual([]);
      await admin(t.http.put(`/rest/api/2/user?username=${name}`)).send({ active: true }).expect(200);
      await t.http.get('/rest/api/2/myself').set('Authorization', u.auth).expect(200);
      await t.http.get('/rest/auth/1/session').set('Cookie', cookie).expect(401);
      expect((await audit('user.updated', name)).map((e) => e.after)).toEqual([{ active: false }, { active: true }]);
    });

    it('keeps the last active system administrator active', async () => {
      const res = await admin(t.http.put('/rest/api/2/user?username=admin')).send({ active: false }).expect(400);
      expect(res.body.errorMessages[0]).toMatch(/last active system administrator/);
      await t.http.get('/rest/api/2/myself').set('Authorization', t.adminAuth).expect(200);
    });

    it.each([
      [{}, 'body'],
      [{ displayName: '' }, 'displayName'],
      [{ emailAddress: 'nope' }, 'emailAddress'],
      [{ active: 'no' }, 'active'],
      [{ name: 'renamed' }, 'body'],
    ])('answers 400 for %j', async (body, field) => {
      const res = await admin(t.http.put(`/rest/api/2/user?username=${user.name}`)).send(body).expect(400);
      expect(Object.keys(res.body.errors)).toContain(field);
    });

    it('answers 400 without a name, 404 for an unknown user, 403 and 401 below administrators', async () => {
      await admin(t.http.put('/rest/api/2/user')).send({ active: true }).expect(400);
      await admin(t.http.put('/rest/api/2/user?username=nobody-here')).send({ active: true }).expect(404);
      await t.http.put(`/rest/api/2/user?username=${user.name}`).set('Authorization', user.auth).send({ active: false }).expect(403);
      await t.http.put(`/rest/api/2/user?username=${user.name}`).send({ active: false }).expect(401);
    });
  });

  describe('PUT /rest/api/2/myself/password', () => {
    it('changes the own password with the current one; the old one stops working; audited without any password', async () => {
      const name = uniq('ua-self');
      await t.createUser(name, { password: 'old-pw' });
      await t.http.put('/rest/api/2/myself/password').set('Authorization', basic(name, 'old-pw')).send({ currentPassword: 'old-pw', password: 'new-pw' }).expect(204);
      await t.http.get('/rest/api/2/myself').set('Authorization', basic(name, 'old-pw')).expect(401);
      await t.http.get('/rest/api/2/myself').set('Authorization', basic(name, 'new-pw')).expect(200);
      const entries = await audit('user.password_changed', name);
      expect(entries).toEqual([{ actor: name, target: { type: 'user', name }, before: null, after: null }]);
      // Neither password (the random name itself may contain "pw": the passwords are looked for whole).
      expect(JSON.stringify(await t.services.db.knex('event_log').whereRaw("target->>'name' = ?", [name]))).not.toMatch(/old-pw|new-pw/);
    });

    it('a wrong current password is 403 and counts as a failed login (three through a token lock its tokens, not the owner)', async () => {
      const name = uniq('ua-guess');
      const token = `${await t.tokenFor((await t.createUser(name, { password: 'secret' })).name)}`;
      for (let i = 0; i < 2; i++) {
        const res = await t.http.put('/rest/api/2/myself/password').set('Authorization', token).send({ currentPassword: 'guess', password: 'x' }).expect(403);
        expect(res.body.errorMessages).toEqual(['The current password is not correct.']);
      }
      await t.http.put('/rest/api/2/myself/password').set('Authorization', token).send({ currentPassword: 'guess', password: 'x' }).expect(403);
      const locked = await t.http.put('/rest/api/2/myself/password').set('Authorization', token).send({ currentPassword: 'secret', password: 'x' }).expect(403);
      expect(locked.body.errorMessages[0]).toMatch(/locked/);
      // Issue 44: guesses through a token never lock the owner's password logins (token-as-password.test.ts).
      await t.http.get('/rest/api/2/myself').set('Authorization', basic(name, 'secret')).expect(200);
    });

    it('400 for a missing password or current password, 401 anonymous', async () => {
      await t.http.put('/rest/api/2/myself/password').set('Authorization', user.auth).send({ password: 'x' }).expect(400);
      await t.http.put('/rest/api/2/myself/password').set('Authorization', user.auth).send({ currentPassword: user.password }).expect(400);
      await t.http.put('/rest/api/2/myself/password').send({ currentPassword: 'a', password: 'b' }).expect(401);
    });
  });

  describe('groups and members', () => {
    it('GET /group/bulk pages groups with member counts; GET /group/member pages members', async () => {
      const group = uniq('ua-grp');
      await admin(t.http.post('/rest/api/2/group')).send({ name: group }).expect(201);
      const a = uniq('ua-m');
      await t.createUser(a);
      await admin(t.http.post(`/rest/api/2/group/user?groupname=${group}`)).send({ name: a }).expect(201);
      await admin(t.http.post(`/rest/api/2/group/user?groupname=${group}`)).send({ name: user.name }).expect(201);
      const list = await admin(t.http.get(`/rest/api/2/group/bulk?query=${group}`)).expect(200);
      expect(list.body).toMatchObject({ total: 1, isLast: true, values: [{ name: group, builtin: false, memberCount: 2 }] });
      const builtins = await admin(t.http.get('/rest/api/2/group/bulk?query=administrators')).expect(200);
      expect(builtins.body.values.map((g: { builtin: boolean }) => g.builtin)).toEqual([true, true]);
      const members = await admin(t.http.get(`/rest/api/2/group/member?groupname=${group}&maxResults=1`)).expect(200);
      expect(members.body).toMatchObject({ startAt: 0, maxResults: 1, total: 2, isLast: false });
      expect(members.body.values).toHaveLength(1);
      expect(await audit('group.created', group)).toEqual([{ actor: 'admin', target: { type: 'group', name: group }, before: null, after: null }]);
      expect((await audit('group.member_added', group)).map((e) => e.after)).toEqual([{ user: a }, { user: user.name }]);
      await admin(t.http.delete(`/rest/api/2/group/user?groupname=${group}&username=${a}`)).expect(200);
      expect((await audit('group.member_removed', group)).map((e) => [e.actor, e.before])).toEqual([['admin', { user: a }]]);
    });

    it('400, 404, 403 and 401 of the group pages', async () => {
      await admin(t.http.get('/rest/api/2/group/member')).expect(400);
      await admin(t.http.get('/rest/api/2/group/bulk?startAt=x')).expect(400);
      await admin(t.http.get('/rest/api/2/group/member?groupname=no-such-group')).expect(404);
      await t.http.get('/rest/api/2/group/bulk').set('Authorization', user.auth).expect(403);
      await t.http.get('/rest/api/2/group/member?groupname=users').set('Authorization', user.auth).expect(403);
      await t.http.get('/rest/api/2/group/bulk').expect(401);
      await t.http.get('/rest/api/2/group/member?groupname=users').expect(401);
    });
  });

  describe('audit of the existing changes', () => {
    it('creation, password reset, unlock and deletion name the administrator and no password', async () => {
      const name = uniq('ua-audit');
      await admin(t.http.post('/rest/api/2/user')).send({ name, password: 'first-pw', displayName: 'Audie' }).expect(201);
      await admin(t.http.put(`/rest/api/2/user/password?username=${name}`)).send({ password: 'second-pw' }).expect(204);
      for (let i = 0; i < 3; i++) await t.http.get('/rest/api/2/myself').set('Authorization', basic(name, 'wrong')).expect(401);
      await admin(t.http.delete(`/rest/api/2/user/lockout?username=${name}`)).expect(204);
      await admin(t.http.delete(`/rest/api/2/user/lockout?username=${name}`)).expect(204);
      await t.http.get('/rest/api/2/myself').set('Authorization', basic(name, 'second-pw')).expect(200);
      await admin(t.http.delete(`/rest/api/2/user?username=${name}`)).expect(204);
      expect(await audit('user.created', name)).toEqual([
        { actor: 'admin', target: { type: 'user', name }, before: null, after: { displayName: 'Audie', emailAddress: '', active: true, groups: ['users'] } },
      ]);
      expect(await audit('user.password_set', name)).toEqual([{ actor: 'admin', target: { type: 'user', name }, before: null, after: null }]);
      // The second unlock found nothing to forget: one entry.
      expect(await audit('user.unlocked', name)).toEqual([{ actor: 'admin', target: { type: 'user', name }, before: { failedLogins: 3, locked: true }, after: null }]);
      expect((await audit('user.deleted', name)).map((e) => e.actor)).toEqual(['admin']);
      expect(JSON.stringify(await t.services.db.knex('event_log').whereRaw("target->>'name' = ?", [name]))).not.toMatch(/first-pw|second-pw/);
    });
  });

  it('writes no change whose audit entry fails: the hook runs in the change’s transaction', async () => {
    let failing = true;
    t.services.directory.hooks.register({
      changed: async () => {
        if (failing) throw new Error('the audit trail is down');
      },
    });
    try {
      const name = uniq('ua-noaudit');
      await admin(t.http.post('/rest/api/2/user')).send({ name, password: 'pw' }).expect(500);
      await admin(t.http.get(`/rest/api/2/user?username=${name}`)).expect(404);
      await admin(t.http.put(`/rest/api/2/user?username=${user.name}`)).send({ displayName: 'Never saved' }).expect(500);
      expect((await admin(t.http.get(`/rest/api/2/user?username=${user.name}`)).expect(200)).body.displayName).not.toBe('Never saved');
    } finally {
      failing = false;
    }
  });

  describe('GET /rest/pat/latest/admin/tokens', () => {
    it("lists any user's tokens with last use; an administrator revokes one through the owner's path, audited", async () => {
      const name = uniq('ua-tok');
      await t.createUser(name);
      const token = await t.tokenFor(name);
      await t.http.get('/rest/api/2/myself').set('Authorization', token).expect(200);
      const res = await admin(t.http.get(`/rest/pat/latest/admin/tokens?username=${name}`)).expect(200);
      expect(res.body).toEqual([expect.objectContaining({ name: 'test', lastAccessedAt: expect.any(String) })]);
      expect(JSON.stringify(res.body)).not.toContain(token.slice('Bearer '.length));
      await admin(t.http.delete(`/rest/pat/latest/tokens/${res.body[0].id}`)).expect(204);
      await t.http.get('/rest/api/2/myself').set('Authorization', token).expect(401);
      const revoked = (await t.services.db.knex('event_log').where({ kind: 'token.revoked' }).andWhereRaw("target->>'owner' = ?", [name]))[0];
      expect(revoked.actor).toBe('admin');
      expect((await admin(t.http.get(`/rest/pat/latest/admin/tokens?username=${name}`)).expect(200)).body).toEqual([]);
    });

    it('400 without a name, 404 for an unknown user, 403 to users, 401 anonymous', async () => {
      await admin(t.http.get('/rest/pat/latest/admin/tokens')).expect(400);
      await admin(t.http.get('/rest/pat/latest/admin/tokens?username=nobody-here')).expect(404);
      await t.http.get(`/rest/pat/latest/admin/tokens?username=${user.name}`).set('Authorization', user.auth).expect(403);
      await t.http.get(`/rest/pat/latest/admin/tokens?username=${user.name}`).expect(401);
    });
  });
});
