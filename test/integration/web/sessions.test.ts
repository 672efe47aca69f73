import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { uniq } from '../../helpers/test-app.ts';

const SESSION = '/rest/auth/1/session';
const MYSELF = '/rest/api/2/myself';
const NO_CHECK = { 'X-Atlassian-Token': 'no-check' };

/** The `JSESSIONID=…` pair of a sign-in answer's Set-Cookie. */
function cookieOf(res: { headers: Record<string, unknown> }): string {
  const set = res.headers['set-cookie'] as string[] | undefined;
  const pair = set?.[0]?.split(';')[0];
  if (!pair) throw new Error('no Set-Cookie in the answer');
  return pair;
}

describe('web sessions over REST', () => {
  let t: TestApp;
  let bob: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ MAX_AUTH_ATTEMPTS: '3', SESSION_IDLE_MINUTES: '30', SESSION_MAX_HOURS: '2' });
    bob = await t.createUser('bob', { password: 'pw:with:colons' });
  });
  afterAll(() => t.close());

  async function signIn(name: string, password: string): Promise<string> {
    const res = await t.http.post(SESSION).send({ username: name, password }).expect(200);
    return cookieOf(res);
  }

  it('signs in with the tracker host answer and a strict, HttpOnly cookie on the context path', async () => {
    const res = await t.http.post(SESSION).send({ username: 'bob', password: bob.password }).expect(200);
    expect(res.body).toEqual({ session: { name: 'JSESSIONID', value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) }, loginInfo: { failedLoginCount: 0 } });
    const setCookie = (res.headers['set-cookie'] as unknown as string[])[0]!;
    expect(setCookie).toBe(`JSESSIONID=${res.body.session.value}; Path=/; HttpOnly; SameSite=Strict`);
    expect(res.headers['cache-control']).toBe('no-store');
    const me = await t.http.get(SESSION).set('Cookie', cookieOf(res)).expect(200);
    expect(me.body).toMatchObject({ name: 'bob', authenticatedBy: 'session', self: 'http://localhost:8080/rest/api/2/user?username=bob' });
    // The second sign-in reports the first as the previous one.
    const again = await t.http.post(SESSION).send({ username: 'BOB', password: bob.password }).expect(200);
    expect(again.body.loginInfo.previousLoginTime).toEqual(expect.any(String));
  });

  it('stores only a hash of the session id', async () => {
    const cookie = await signIn('bob', bob.password);
    const id = cookie.split('=')[1]!;
    const rows = await t.services.db.knex('web_sessions').select('id_hash');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.id_hash === id)).toBe(false);
  });

  it('accepts the session on every REST API as a third credential', async () => {
    const cookie = await signIn('bob', bob.password);
    expect((await t.http.get(MYSELF).set('Cookie', cookie).expect(200)).body.name).toBe('bob');
    await t.http.get('/rest/pat/latest/tokens').set('Cookie', cookie).expect(200);
    await t.http.get('/rest/trackercustomfieldeditorplugin/1/user/customfields').set('Cookie', cookie).expect(200);
  });

  it('lets Basic win over a cookie when both are sent', async () => {
    const cookie = await signIn('bob', bob.password);
    const res = await t.http.get(MYSELF).set('Cookie', cookie).set('Authorization', t.adminAuth).expect(200);
    expect(res.body.name).toBe('admin');
  });

  it('refuses a wrong password and an unknown user with the same answer, without a browser challenge', async () => {
    const wrong = await t.http.post(SESSION).send({ username: 'bob', password: 'nope' }).expect(401);
    const unknown = await t.http.post(SESSION).send({ username: uniq('ghost'), password: 'nope' }).expect(401);
    for (const res of [wrong, unknown]) {
      expect(res.headers['x-seraph-loginreason']).toBe('AUTHENTICATED_FAILED');
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual({ errorMessages: ['Login failed: the username or the password is not valid.'], errors: {} });
    await signIn('bob', bob.password); // a success resets the counter
  });

  it('locks the name after MAX_AUTH_ATTEMPTS failures, shared with Basic, until an administrator resets it', async () => {
    const carol = await t.createUser(uniq('carol'));
    await t.http.post(SESSION).send({ username: carol.name, password: 'x' }).expect(401);
    await t.http.get(MYSELF).set('Authorization', `Basic ${Buffer.from(`${carol.name}:y`).toString('base64')}`).expect(401);
    await t.http.post(SESSION).send({ username: carol.name, password: 'z' }).expect(401);
    const locked = await t.http.post(SESSION).send({ username: carol.name, password: carol.password }).expect(401);
    expect(locked.headers['x-seraph-loginreason']).toBe('AUTHENTICATION_DENIED');
    expect(locked.body.errorMessages[0]).toMatch(/locked/);
    await t.http.get(MYSELF).set('Authorization', carol.auth).expect(401);
    await t.http.delete(`/rest/api/2/user/lockout?username=${carol.name}`).set('Authorization', t.adminAuth).expect(204);
    const res = await t.http.post(SESSION).send({ username: carol.name, password: carol.password }).expect(200);
    expect(res.body.loginInfo.failedLoginCount).toBe(0);
  });

  it('reports the failures before a successful sign-in', async () => {
    const dan = await t.createUser(uniq('dan'));
    await t.http.post(SESSION).send({ username: dan.name, password: 'x' }).expect(401);
    const res = await t.http.post(SESSION).send({ username: dan.name, password: dan.password }).expect(200);
    expect(res.body.loginInfo.failedLoginCount).toBe(1);
  });

  it.each([
    ['no body', undefined, 'body'],
    ['no username', { password: 'x' }, 'username'],
    ['a number as password', { username: 'bob', password: 5 }, 'password'],
  ])('answers 400 for %s', async (_label, body, field) => {
    const res = await t.http.post(SESSION).send(body as object).expect(400);
    expect(Object.keys(res.body.errors)).toContain(field);
  });

  it('leaves out the Basic challenge on 401s to a page script (X-Requested-With), so browsers open no login dialog', async () => {
    for (const path of [MYSELF, SESSION, '/rest/trackercustomfieldeditorplugin/1/user/customfields', '/rest/api/space/DEMO']) {
      const plain = await t.http.get(path).expect(401);
      expect(plain.headers['www-authenticate']).toBeDefined();
      const script = await t.http.get(path).set('X-Requested-With', 'XMLHttpRequest').expect(401);
      expect(script.headers['www-authenticate']).toBeUndefined();
    }
  });

  it('answers 401 to GET and DELETE without a session', async () => {
    await t.http.get(SESSION).expect(401);
    await t.http.delete(SESSION).set(NO_CHECK).expect(401);
    await t.http.get(SESSION).set('Cookie', 'JSESSIONID=not-a-session').expect(401);
    await t.http.get(SESSION).set('Cookie', `JSESSIONID=${'a'.repeat(43)}`).expect(401);
    // Basic is not a session: nothing to sign out of.
    await t.http.delete(SESSION).set('Authorization', bob.auth).expect(401);
  });

  it('signs out: the cookie is cleared and the session refused from then on', async () => {
    const cookie = await signIn('bob', bob.password);
    const res = await t.http.delete(SESSION).set('Cookie', cookie).set(NO_CHECK).expect(204);
    expect((res.headers['set-cookie'] as unknown as string[])[0]).toBe('JSESSIONID=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
    await t.http.get(MYSELF).set('Cookie', cookie).expect(401);
  });

  describe('XSRF rule', () => {
    it('refuses a state-changing request signed in only by the cookie without X-Atlassian-Token, in each API shape', async () => {
      const cookie = await signIn('bob', bob.password);
      const pat = await t.http.post('/rest/pat/latest/tokens').set('Cookie', cookie).send({ name: 'x' }).expect(403);
      expect(pat.body.errorMessages[0]).toMatch(/XSRF check failed/);
      const fe = await t.http.put('/rest/trackercustomfieldeditorplugin/1/admin/settings').set('Cookie', cookie).send({}).expect(403);
      expect(fe.body).toMatchObject({ statusCode: 403, subCode: 403004, message: expect.stringMatching(/XSRF/) });
      const wiki = await t.http.post('/rest/api/content').set('Cookie', cookie).send({}).expect(403);
      expect(wiki.body).toMatchObject({ statusCode: 403, message: expect.stringMatching(/XSRF/) });
      await t.http.delete(SESSION).set('Cookie', cookie).expect(403);
      // Nothing was created, and the session still works.
      const list = await t.http.get('/rest/pat/latest/tokens').set('Cookie', cookie).expect(200);
      expect(list.body.filter((x: { name: string }) => x.name === 'x')).toEqual([]);
    });

    it('accepts it with X-Atlassian-Token: no-check, and never asks Basic or Bearer for it', async () => {
      const cookie = await signIn('bob', bob.password);
      const made = await t.http.post('/rest/pat/latest/tokens').set('Cookie', cookie).set(NO_CHECK).send({ name: 'web' }).expect(201);
      await t.http.delete(`/rest/pat/latest/tokens/${made.body.id}`).set('Cookie', cookie).set('X-Atlassian-Token', 'No-Check').expect(204);
      await t.http.post('/rest/pat/latest/tokens').set('Authorization', bob.auth).send({ name: 'basic' }).expect(201);
      await t.http.post('/rest/pat/latest/tokens').set('Authorization', await t.tokenFor('bob')).send({ name: 'bearer' }).expect(201);
    });

    it('lets GET through without the header', async () => {
      const cookie = await signIn('bob', bob.password);
      await t.http.get('/rest/pat/latest/tokens').set('Cookie', cookie).expect(200);
    });
  });

  describe('end of a session', () => {
    it('ends when the password changes', async () => {
      const eve = await t.createUser(uniq('eve'));
      const cookie = await signIn(eve.name, eve.password);
      await t.http.get(MYSELF).set('Cookie', cookie).expect(200);
      await t.http.put(`/rest/api/2/user/password?username=${eve.name}`).set('Authorization', t.adminAuth).send({ password: 'new-pw' }).expect(204);
      await t.http.get(MYSELF).set('Cookie', cookie).expect(401);
    });

    it('ends when the user is deleted', async () => {
      const fay = await t.createUser(uniq('fay'));
      const cookie = await signIn(fay.name, fay.password);
      await t.http.delete(`/rest/api/2/user?username=${fay.name}`).set('Authorization', t.adminAuth).expect(204);
      await t.http.get(MYSELF).set('Cookie', cookie).expect(401);
      const left = await t.services.db.knex('web_sessions').join('users', 'users.id', 'web_sessions.user_id').where('users.name', fay.name).count({ n: '*' });
      expect(Number(left[0]!.n)).toBe(0);
    });

    it('ends after the idle time', async () => {
      const cookie = await signIn('bob', bob.password);
      const idHash = (await import('../../../src/web/sessions/session-cookie.ts')).hashSessionId(cookie.split('=')[1]!);
      await t.services.db.knex('web_sessions').where({ id_hash: idHash }).update({ last_seen_at: t.services.db.knex.raw(`now() - interval '31 minutes'`) });
      await t.http.get(MYSELF).set('Cookie', cookie).expect(401);
    });

    it('stays alive while used within the idle time', async () => {
      const cookie = await signIn('bob', bob.password);
      const idHash = (await import('../../../src/web/sessions/session-cookie.ts')).hashSessionId(cookie.split('=')[1]!);
      await t.services.db.knex('web_sessions').where({ id_hash: idHash }).update({ last_seen_at: t.services.db.knex.raw(`now() - interval '29 minutes'`) });
      await t.http.get(MYSELF).set('Cookie', cookie).expect(200);
      await vi.waitFor(async () => {
        const row = await t.services.db.knex('web_sessions').where({ id_hash: idHash }).first();
        expect(Date.now() - new Date(row.last_seen_at).getTime()).toBeLessThan(60_000);
      });
    });

    it('ends after the absolute time, however busy', async () => {
      const cookie = await signIn('bob', bob.password);
      const idHash = (await import('../../../src/web/sessions/session-cookie.ts')).hashSessionId(cookie.split('=')[1]!);
      const row = await t.services.db.knex('web_sessions').where({ id_hash: idHash }).first();
      const hours = (new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()) / 3_600_000;
      expect(hours).toBeCloseTo(2, 1);
      await t.services.db.knex('web_sessions').where({ id_hash: idHash }).update({ expires_at: t.services.db.knex.raw(`now() - interval '1 second'`) });
      await t.http.get(MYSELF).set('Cookie', cookie).expect(401);
    });
  });
});

describe('web sessions under a context path and https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BASE_URL: 'https://tracker.example.com/jira' });
  });
  afterAll(() => t.close());

  it('limits the cookie to the context path and marks it Secure', async () => {
    const res = await t.http.post('/jira/rest/auth/1/session').send({ username: 'admin', password: 'admin-secret' }).expect(200);
    const setCookie = (res.headers['set-cookie'] as unknown as string[])[0]!;
    expect(setCookie).toMatch(/; Path=\/jira; HttpOnly; SameSite=Strict; Secure$/);
    await t.http.get('/jira/rest/api/2/myself').set('Cookie', cookieOf(res)).expect(200);
  });
});
