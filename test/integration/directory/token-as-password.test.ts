// Issue 42 (signing in) and issue 44 (a stolen token): a personal access token is also its user's Basic password
// (`curl -u alice:$TOKEN`) with the token's scope, counted as a token and never as a failed password; a Basic
// password shaped like a token that is none gets a hint in its 401; guesses of the current password through a token
// never lock the owner's password logins.
import { describe, expect, it } from 'vitest';
import { basic, uniq, useTestApp } from '../../helpers/test-app.ts';

const MYSELF = '/rest/api/2/myself';
const TOKENS = '/rest/pat/latest/tokens';
const REASON = 'x-seraph-loginreason';

describe('a personal access token as the Basic password', () => {
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '3', TRUST_PROXY: '127.0.0.1,::1' });
  const rawToken = async (auth: string, scope: 'read' | 'write') =>
    (await t.http.post(TOKENS).set('Authorization', auth).send({ name: uniq('t'), scope }).expect(201)).body.rawToken as string;

  it('logs in as the token: its scope holds, it never counts as a failed password, and a lock of the address does not stop it', async () => {
    const alice = await t.createUser(uniq('alice'));
    const write = await rawToken(alice.auth, 'write');
    const read = await rawToken(alice.auth, 'read');
    const me = await t.http.get(MYSELF).set('Authorization', basic(alice.name, write)).expect(200);
    expect(me.body.name).toBe(alice.name);
    // Counted as a token: the session endpoint tells how the caller authenticated.
    const how = await t.http.get('/rest/auth/1/session').set('Authorization', basic(alice.name, write)).expect(200);
    expect(how.body.authenticatedBy).toBe('bearer');
    // The read-only token stays read-only; the write token writes.
    await t.http.get(MYSELF).set('Authorization', basic(alice.name, read)).expect(200);
    const refused = await t.http.post(TOKENS).set('Authorization', basic(alice.name, read)).send({ name: 'x' }).expect(403);
    expect(refused.body.errorMessages[0]).toContain('read-only');
    await t.http.post(TOKENS).set('Authorization', basic(alice.name, write)).send({ name: uniq('w') }).expect(201);
    // No failed login anywhere (a row of 0 may stay from the password logins above: counted, then taken back).
    expect((await t.services.db.knex('auth_failures').where({ name_key: alice.name.toLowerCase() }).first())?.failures ?? 0).toBe(0);
    expect(await t.services.db.knex('auth_address_failures').where({ name_key: alice.name.toLowerCase() })).toEqual([]);
    // The name locked for this address: passwords from here are refused, the token is not a password.
    for (let i = 0; i < 3; i++) await t.http.get(MYSELF).set('Authorization', basic(alice.name, 'wrong')).set('X-Forwarded-For', '198.51.100.3');
    expect((await t.http.get(MYSELF).set('Authorization', alice.auth).set('X-Forwarded-For', '198.51.100.3').expect(401)).headers[REASON]).toBe('AUTHENTICATION_DENIED');
    await t.http.get(MYSELF).set('Authorization', basic(alice.name, write)).set('X-Forwarded-For', '198.51.100.3').expect(200);
  });

  it("refuses another user's token, a revoked one and a made-up one with the token hint, and a revoked one at once", async () => {
    const alice = await t.createUser(uniq('alice'));
    const bob = await t.createUser(uniq('bob'));
    const bobs = await rawToken(bob.auth, 'write');
    const mine = await rawToken(alice.auth, 'write');
    await t.http.get(MYSELF).set('Authorization', basic(alice.name, mine)).expect(200);
    const [listed] = (await t.http.get(TOKENS).set('Authorization', alice.auth).expect(200)).body as { id: number }[];
    await t.http.delete(`${TOKENS}/${listed!.id}`).set('Authorization', alice.auth).expect(204);
    const madeUp = 'A'.repeat(44);
    for (const password of [bobs, mine, madeUp]) {
      const res = await t.http.get(MYSELF).set('Authorization', basic(alice.name, password)).expect(401);
      expect(res.headers[REASON]).toBe('AUTHENTICATED_FAILED');
      expect(res.body.errorMessages[0]).toMatch(/^The credentials are not valid\. The password has the form of a personal access token/);
      expect(String(res.headers['www-authenticate'])).toContain('error="invalid_token"');
    }
    // A wrong password of another shape: the plain answer, without the hint.
    const plain = await t.http.get(MYSELF).set('Authorization', basic(bob.name, 'not a token')).expect(401);
    expect(plain.body).toEqual({ errorMessages: ['The credentials are not valid.'], errors: {} });
    expect(String(plain.headers['www-authenticate'])).not.toContain('invalid_token');
    // The same hint for a name that does not exist: it depends on the password's form only.
    const ghost = await t.http.get(MYSELF).set('Authorization', basic(uniq('ghost'), madeUp)).expect(401);
    expect(ghost.body.errorMessages[0]).toContain('personal access token');
  });
});

describe('guessing the current password through a stolen token (PUT /myself/password)', () => {
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '3', TRUST_PROXY: '127.0.0.1,::1' });
  const change = (auth: string, currentPassword: string, from = '203.0.113.5') =>
    t.http.put('/rest/api/2/myself/password').set('Authorization', auth).set('X-Forwarded-For', from).send({ currentPassword, password: 'Next-password-42' });

  it("gets MAX_AUTH_ATTEMPTS guesses for all the user's tokens together, and never locks the owner's password logins", async () => {
    const owner = await t.createUser(uniq('victim'));
    const stolen = await t.tokenFor(owner.name);
    for (let i = 0; i < 3; i++) expect((await change(stolen, `guess-${i}`).expect(403)).body.errorMessages).toEqual(['The current password is not correct.']);
    // Locked for tokens: even the right current password through a token is refused now, unchecked.
    expect((await change(stolen, owner.password).expect(403)).body.errorMessages[0]).toMatch(/locked/);
    // A new token made with the stolen one does not buy more guesses.
    const another = `Bearer ${(await t.http.post(TOKENS).set('Authorization', stolen).send({ name: uniq('more') }).expect(201)).body.rawToken}`;
    expect((await change(another, owner.password).expect(403)).body.errorMessages[0]).toMatch(/locked/);
    // The owner, from the very address the thief used, logs in and changes the password with it.
    await t.http.get(MYSELF).set('Authorization', owner.auth).set('X-Forwarded-For', '203.0.113.5').expect(200);
    await change(owner.auth, owner.password).expect(204);
    await t.http.get(MYSELF).set('Authorization', basic(owner.name, 'Next-password-42')).set('X-Forwarded-For', '203.0.113.5').expect(200);
  });
});
