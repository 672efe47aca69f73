import { describe, expect, it } from 'vitest';
import { basic, useTestApp, uniq } from '../../helpers/test-app.ts';
import { runUserCommand, userCommandServices } from '../../../src/cli/user-commands.ts';
import { PasswordPolicy } from '../../../src/directory/password-policy.ts';

/**
 * Issue 44, low finding: any password was accepted (`a`, the user name). Wherever a person chooses one (an
 * administrator's create and set, the own change, the command line), the policy refuses with 400 naming the
 * password and a reason the web screens show; nothing is written.
 */
describe('directory: the password policy (issue 44)', () => {
  const t = useTestApp({ PASSWORD_MIN_LENGTH: '12' });
  const admin = (req: ReturnType<typeof t.http.post>) => req.set('Authorization', t.adminAuth);
  const hashOf = async (name: string) => (await t.services.db.knex('users').where({ name_key: name.toLowerCase() }).first('password_hash'))?.password_hash;

  it('the rule: at least 12 characters besides the user name, never the name itself', () => {
    const p = new PasswordPolicy(12);
    expect(p.problem('alice', 'a')).toMatch(/at least 12 characters/);
    expect(p.problem('alice', 'ALICE')).toMatch(/not be the username/);
    expect(p.problem('alicealicealice', 'AliceAliceAlice')).toMatch(/not be the username/);
    expect(p.problem('alice', 'alice2024!!!')).toMatch(/besides it/);
    expect(p.problem('alice', 'alice-correct-horse')).toBeUndefined();
    expect(p.problem('alice', 'correct-horse-battery')).toBeUndefined();
    // Characters, not UTF-16 units: twelve emoji are twelve characters.
    expect(p.problem('bob', '🙂'.repeat(11))).toMatch(/at least 12/);
    expect(p.problem('bob', '🙂'.repeat(12))).toBeUndefined();
  });

  it('POST /rest/api/2/user: a short password or the name answers 400 naming the password; no user is made', async () => {
    for (const [name, password] of [[uniq('short-'), 'a'], [uniq('same-'), ''], [uniq('built-'), '']] as const) {
      const pw = password || (name.startsWith('same-') ? name.toUpperCase() : `${name}123`);
      const res = await admin(t.http.post('/rest/api/2/user')).send({ name, password: pw }).expect(400);
      expect(res.body).toEqual({ errorMessages: [], errors: { password: expect.stringMatching(/password/i) } });
      await admin(t.http.get(`/rest/api/2/user?username=${name}`)).expect(404);
    }
    await admin(t.http.post('/rest/api/2/user')).send({ name: uniq('fine-'), password: 'a-long-enough-passphrase' }).expect(201);
  });

  it("PUT /rest/api/2/user/password: refused below the policy, the old password keeps working", async () => {
    const u = await t.createUser(uniq('set-'), { password: 'the-first-passphrase' });
    const before = await hashOf(u.name);
    const res = await admin(t.http.put(`/rest/api/2/user/password?username=${u.name}`)).send({ password: u.name }).expect(400);
    expect(res.body.errors.password).toMatch(/not be the username/);
    await admin(t.http.put(`/rest/api/2/user/password?username=${u.name}`)).send({ password: 'short' }).expect(400);
    expect(await hashOf(u.name)).toBe(before);
    await t.http.get('/rest/api/2/myself').set('Authorization', u.auth).expect(200);
  });

  it('PUT /rest/api/2/myself/password: refused below the policy, nothing changes until a good one is given', async () => {
    const u = await t.createUser(uniq('own-'), { password: 'the-first-passphrase' });
    const before = await hashOf(u.name);
    for (let i = 0; i < 4; i++) {
      const res = await t.http.put('/rest/api/2/myself/password').set('Authorization', u.auth).send({ currentPassword: u.password, password: 'x' }).expect(400);
      expect(res.body.errors.password).toMatch(/at least 12/);
    }
    expect(await hashOf(u.name)).toBe(before);
    await t.http.put('/rest/api/2/myself/password').set('Authorization', u.auth).send({ currentPassword: u.password, password: 'the-second-passphrase' }).expect(204);
    await t.http.get('/rest/api/2/myself').set('Authorization', basic(u.name, 'the-second-passphrase')).expect(200);
  });

  it('the command line: user add and user passwd refuse a weak password with the same reason', async () => {
    const services = userCommandServices(t.services);
    const name = uniq('cli-');
    await expect(runUserCommand(services, { command: 'user add', name, password: 'abc' })).rejects.toMatchObject({ status: 400, details: [{ name: 'password' }] });
    await admin(t.http.get(`/rest/api/2/user?username=${name}`)).expect(404);
    await runUserCommand(services, { command: 'user add', name, password: 'cli-made-passphrase' });
    const before = await hashOf(name);
    await expect(runUserCommand(services, { command: 'user passwd', name, password: `${name}!` })).rejects.toMatchObject({ status: 400 });
    expect(await hashOf(name)).toBe(before);
  });
});
