import { beforeAll, describe, expect, it } from 'vitest';
import type { Test } from 'supertest';
import { useTestApp, uniq, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { directoryEndpoints } from '../../../src/directory/directory.endpoints.ts';
import { tokenEndpoints } from '../../../src/directory/tokens.endpoints.ts';

/**
 * Issue 44, finding 3: an administrator must not climb to system administrator nor take one over. Every user,
 * group and token endpoint the directory declares is listed below, either with the request an administrator
 * could aim at a system administrator (403 and nothing changed; a system administrator succeeds), or with why it
 * cannot touch one. A new endpoint that is in neither list fails the first test.
 */
describe('directory: administrators cannot touch system administrators (issue 44)', () => {
  const t = useTestApp();
  let admin: TestUser;
  let boss: TestUser;
  beforeAll(async () => {
    admin = await t.createUser(uniq('climber-'), { admin: true });
    boss = await t.createUser(uniq('boss-'), { sysadmin: true });
  });

  /** What one attack needs: the system administrator attacked, one of its tokens, and the user to promote. */
  interface Target {
    victim: string;
    tokenId: number;
    promoted: string;
  }
  type Attack = (http: TestApp['http'], x: Target) => Test;

  const protectedOnes: Record<string, Attack> = {
    'PUT /rest/api/2/user/password': (h, x) => h.put(`/rest/api/2/user/password?username=${x.victim}`).send({ password: 'a-new-long-passphrase' }),
    'DELETE /rest/api/2/user': (h, x) => h.delete(`/rest/api/2/user?username=${x.victim}`),
    'PUT /rest/api/2/user': (h, x) => h.put(`/rest/api/2/user?username=${x.victim}`).send({ active: false, displayName: 'Renamed' }),
    'POST /rest/api/2/group/user': (h, x) => h.post('/rest/api/2/group/user?groupname=system-administrators').send({ name: x.promoted }),
    'DELETE /rest/api/2/group/user': (h, x) => h.delete(`/rest/api/2/group/user?groupname=system-administrators&username=${x.victim}`),
    'GET /rest/pat/latest/admin/tokens': (h, x) => h.get(`/rest/pat/latest/admin/tokens?username=${x.victim}`),
    'DELETE /rest/pat/latest/tokens/{id}': (h, x) => h.delete(`/rest/pat/latest/tokens/${x.tokenId}`),
  };
  const harmless: Record<string, string> = {
    'GET /rest/api/2/myself': 'the caller itself',
    'GET /rest/api/2/user/search': 'a read of public user data',
    'GET /rest/api/2/groups/picker': 'a read of group names',
    'POST /rest/api/2/user': 'a new user joins `users` only (the body has no groups)',
    'GET /rest/api/2/user': 'a read',
    'DELETE /rest/api/2/user/lockout': 'unlocking only gives a name its logins back',
    'POST /rest/api/2/group': 'a new group carries no role',
    'DELETE /rest/api/2/group': 'built-in groups cannot be deleted',
    'GET /rest/api/2/users/search': 'a read',
    'PUT /rest/api/2/myself/password': "the caller's own password",
    'GET /rest/api/2/group/bulk': 'a read',
    'GET /rest/api/2/group/member': 'a read',
    'POST /rest/pat/latest/tokens': "the caller's own token",
    'GET /rest/pat/latest/tokens': "the caller's own tokens",
  };

  it('classifies every declared user, group and token endpoint', () => {
    const declared = [...directoryEndpoints, ...tokenEndpoints].map((e) => `${e.method.toUpperCase()} ${e.path}`).sort();
    expect(declared).toEqual([...Object.keys(protectedOnes), ...Object.keys(harmless)].sort());
  });

  /** A fresh system administrator with a token, and a fresh plain user to promote. */
  async function target(): Promise<Target> {
    const victim = await t.createUser(uniq('victim-'), { sysadmin: true });
    const svc = t.services;
    const user = await svc.directory.getUser(victim.name);
    const { row } = await svc.tokens.create(user.id, 'victim-token');
    const promoted = (await t.createUser(uniq('promoted-'))).name;
    return { victim: victim.name, tokenId: row.id, promoted };
  }

  /** Everything an attack could change: the victim's row, memberships and tokens, and who the system administrators are. */
  async function state(x: Target) {
    const knex = t.services.db.knex;
    const victim = await knex('users').where({ name: x.victim }).first('id', 'display_name', 'email', 'active', 'password_hash');
    const sysadmins = await knex('group_members as m').join('groups as g', 'g.id', 'm.group_id').where('g.name_key', 'system-administrators').orderBy('m.user_id').pluck('m.user_id');
    const tokens = victim ? await knex('access_tokens').where({ user_id: victim.id }).orderBy('id').pluck('id') : [];
    return { victim, sysadmins, tokens };
  }

  for (const [name, attack] of Object.entries(protectedOnes)) {
    it(`${name}: an administrator gets 403 with the host's body and nothing changes`, async () => {
      const x = await target();
      const before = await state(x);
      // The administrator aims the membership change at itself: the climb the tester made.
      const res = await attack(t.http, { ...x, promoted: admin.name }).set('Authorization', admin.auth);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ errorMessages: [expect.stringMatching(/system administrator/)], errors: {} });
      expect(await state(x)).toEqual(before);
      // The same with a personal access token of the administrator.
      const viaToken = await attack(t.http, { ...x, promoted: admin.name }).set('Authorization', await t.tokenFor(admin.name));
      expect(viaToken.status).toBe(403);
      expect(await state(x)).toEqual(before);
    });

    it(`${name}: a system administrator succeeds`, async () => {
      const x = await target();
      const res = await attack(t.http, x).set('Authorization', boss.auth);
      expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(200);
      expect(res.status).toBeLessThan(300);
    });
  }

  it('an administrator still manages ordinary users and its own account', async () => {
    const plain = await t.createUser(uniq('plain-'));
    await t.http.put(`/rest/api/2/user/password?username=${plain.name}`).set('Authorization', admin.auth).send({ password: 'another-long-passphrase' }).expect(204);
    await t.http.put(`/rest/api/2/user?username=${plain.name}`).set('Authorization', admin.auth).send({ active: false }).expect(200);
    await t.http.post('/rest/api/2/group/user?groupname=administrators').set('Authorization', admin.auth).send({ name: plain.name }).expect(201);
    await t.http.delete(`/rest/api/2/user?username=${plain.name}`).set('Authorization', admin.auth).expect(204);
  });

  it('a demoted system administrator loses the right at once (decided from the database, not the login cache)', async () => {
    const former = await t.createUser(uniq('former-'), { sysadmin: true, admin: true });
    const x = await target();
    // Warm the credential cache with the user as a system administrator.
    await t.http.get('/rest/api/2/myself').set('Authorization', former.auth).expect(200);
    await t.http.delete(`/rest/api/2/group/user?groupname=system-administrators&username=${former.name}`).set('Authorization', boss.auth).expect(200);
    await t.http.put(`/rest/api/2/user/password?username=${x.victim}`).set('Authorization', former.auth).send({ password: 'a-new-long-passphrase' }).expect(403);
  });
});
