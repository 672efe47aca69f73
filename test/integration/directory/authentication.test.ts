import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { basic, useTestApp, type TestUser } from '../../helpers/test-app.ts';

const MYSELF = '/rest/api/2/myself';

describe('authentication', () => {
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '3' });
  let bob: TestUser;
  beforeAll(async () => {
    bob = await t.createUser('bob', { password: 'pw:with:colons' });
  });

  it('accepts Basic credentials whose password contains colons', async () => {
    const res = await t.http.get(MYSELF).set('Authorization', bob.auth).expect(200);
    expect(res.body.name).toBe('bob');
  });

  it('hashes a Basic header once per request: on a cache miss, a hit and a refusal', async () => {
    const carl = await t.createUser('carl-once');
    const keyOf = vi.spyOn(t.services.authenticator.cache, 'basicKey');
    try {
      for (const [auth, status] of [
        [carl.auth, 200], // not cached yet: the middleware's lookup misses, the strategy reuses its key
        [carl.auth, 200], // cached
        [basic('carl-once', 'wrong'), 401], // refused after the slow check
      ] as const) {
        keyOf.mockClear();
        await t.http.get(MYSELF).set('Authorization', auth).expect(status);
        expect(keyOf, `${status} ${auth}`).toHaveBeenCalledTimes(1);
      }
    } finally {
      keyOf.mockRestore();
    }
  });

  it('accepts a personal access token created with Basic auth, as Bearer', async () => {
    const created = await t.http.post('/rest/pat/latest/tokens').set('Authorization', bob.auth).send({ name: 'ci' }).expect(201);
    expect(created.body.rawToken).toMatch(/^[A-Za-z0-9_-]{44}$/);
    const res = await t.http.get(MYSELF).set('Authorization', `Bearer ${created.body.rawToken}`).expect(200);
    expect(res.body.name).toBe('bob');
  });

  it('stops a revoked token at once', async () => {
    const { body } = await t.http.post('/rest/pat/latest/tokens').set('Authorization', bob.auth).send({ name: 'short' }).expect(201);
    const auth = `Bearer ${body.rawToken}`;
    await t.http.get(MYSELF).set('Authorization', auth).expect(200);
    await t.http.delete(`/rest/pat/latest/tokens/${body.id}`).set('Authorization', bob.auth).expect(204);
    const res = await t.http.get(MYSELF).set('Authorization', auth).expect(401);
    expect(res.headers['x-seraph-loginreason']).toBe('AUTHENTICATED_FAILED');
  });

  it('refuses an expired token', async () => {
    const { body } = await t.http
      .post('/rest/pat/latest/tokens')
      .set('Authorization', bob.auth)
      .send({ name: 'old', expirationDuration: 1 })
      .expect(201);
    expect(new Date(body.expiringAt).getTime()).toBeGreaterThan(Date.now());
    await t.http.get(MYSELF).set('Authorization', `Bearer ${body.rawToken}`).expect(200);
    // Two days later (only the clock is faked): refused, although the token was just cached as valid.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 86_400_000 });
    try {
      await t.http.get(MYSELF).set('Authorization', `Bearer ${body.rawToken}`).expect(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses tokens in the query string, even valid ones', async () => {
    const token = (await t.tokenFor('bob')).slice('Bearer '.length);
    const res = await t.http.get(`${MYSELF}?access_token=${token}`).expect(401);
    expect(res.body.errorMessages[0]).toMatch(/Authorization header/);
  });

  it.each([
    ['empty', ''],
    ['scheme only', 'Basic'],
    ['no colon', `Basic ${Buffer.from('bobpassword').toString('base64')}`],
    ['bad Base64', 'Basic %%%not-base64%%%'],
    ['unknown scheme', 'Negotiate abcdef'],
    ['three parts', 'Basic abc def'],
    ['bearer with garbage', 'Bearer a"b<c>'],
    ['huge', `Basic ${'QUFB'.repeat(5000)}`],
  ])('answers a malformed Authorization header (%s) with 401 and a body', async (_label, header) => {
    const res = await t.http.get(MYSELF).set('Authorization', header);
    expect(res.status).toBe(401);
    expect(res.body.errorMessages).toHaveLength(1);
    expect(res.headers['www-authenticate']).toBeDefined();
  });

  it('answers a wrong username exactly like a wrong password', async () => {
    const strip = (r: { status: number; headers: Record<string, string>; text: string }) => ({
      status: r.status,
      reason: r.headers['x-seraph-loginreason'],
      auth: r.headers['www-authenticate'],
      body: r.text,
    });
    const wrongUser = await t.http.get(MYSELF).set('Authorization', basic('nobody-here', 'x'));
    const wrongPassword = await t.http.get(MYSELF).set('Authorization', basic('admin', 'x'));
    expect(strip(wrongUser)).toEqual(strip(wrongPassword));
    expect(wrongUser.status).toBe(401);
    await t.http.delete('/rest/api/2/user/lockout?username=admin').set('Authorization', t.adminAuth).expect(204);
  });

  it('answers anonymous requests to protected resources with 401', async () => {
    const res = await t.http.get(MYSELF).expect(401);
    expect(res.headers['x-seraph-loginreason']).toBeUndefined();
  });

  it('stops an old password at once after a change, despite the credential cache', async () => {
    const carol = await t.createUser('carol');
    await t.http.get(MYSELF).set('Authorization', carol.auth).expect(200);
    await t.http.put('/rest/api/2/user/password?username=carol').set('Authorization', t.adminAuth).send({ password: 'new-pw' }).expect(204);
    await t.http.get(MYSELF).set('Authorization', carol.auth).expect(401);
    await t.http.get(MYSELF).set('Authorization', basic('carol', 'new-pw')).expect(200);
  });

  it('stops a deleted user at once, with Basic and with tokens', async () => {
    const dave = await t.createUser('dave');
    const token = await t.tokenFor('dave');
    await t.http.get(MYSELF).set('Authorization', dave.auth).expect(200);
    await t.http.delete('/rest/api/2/user?username=dave').set('Authorization', t.adminAuth).expect(204);
    await t.http.get(MYSELF).set('Authorization', dave.auth).expect(401);
    await t.http.get(MYSELF).set('Authorization', token).expect(401);
  });
});

describe('lockout after failed Basic logins', () => {
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '3', LOCKOUT_MINUTES: '0' });

  it('locks after MAX_AUTH_ATTEMPTS failures, refuses even the right password, until an admin resets it', async () => {
    const erin = await t.createUser('erin');
    const token = await t.tokenFor('erin');
    for (let i = 0; i < 3; i++) {
      const res = await t.http.get(MYSELF).set('Authorization', basic('erin', 'wrong')).expect(401);
      expect(res.headers['x-seraph-loginreason']).toBe('AUTHENTICATED_FAILED');
    }
    const locked = await t.http.get(MYSELF).set('Authorization', erin.auth).expect(401);
    expect(locked.headers['x-seraph-loginreason']).toBe('AUTHENTICATION_DENIED');
    expect(locked.body.errorMessages).toHaveLength(1);
    // Tokens are not subject to the lock.
    await t.http.get(MYSELF).set('Authorization', token).expect(200);
    // Only administrators may reset it.
    const frank = await t.createUser('frank');
    await t.http.delete('/rest/api/2/user/lockout?username=erin').set('Authorization', frank.auth).expect(403);
    await t.http.delete('/rest/api/2/user/lockout?username=erin').set('Authorization', t.adminAuth).expect(204);
    await t.http.get(MYSELF).set('Authorization', erin.auth).expect(200);
  });

  it('a success resets the count of failures in a row', async () => {
    const gina = await t.createUser('gina');
    for (let round = 0; round < 2; round++) {
      await t.http.get(MYSELF).set('Authorization', basic('gina', 'wrong')).expect(401);
      await t.http.get(MYSELF).set('Authorization', basic('gina', 'wrong')).expect(401);
      await t.http.get(MYSELF).set('Authorization', gina.auth).expect(200);
    }
  });

  it('locks unknown names the same way, so a lock reveals nothing', async () => {
    for (let i = 0; i < 3; i++) await t.http.get(MYSELF).set('Authorization', basic('ghost', 'x')).expect(401);
    const res = await t.http.get(MYSELF).set('Authorization', basic('ghost', 'x')).expect(401);
    expect(res.headers['x-seraph-loginreason']).toBe('AUTHENTICATION_DENIED');
  });

  it('keeps a lock after its period when LOCKOUT_MINUTES is 0', async () => {
    const hank = await t.createUser('hank');
    for (let i = 0; i < 3; i++) await t.http.get(MYSELF).set('Authorization', basic('hank', 'wrong'));
    // Written directly: a lock a day old cannot be made without waiting a day.
    await t.services.db.knex('auth_address_failures').where({ name_key: 'hank' }).update({ locked_at: new Date(Date.now() - 86_400_000) });
    await t.http.get(MYSELF).set('Authorization', hank.auth).expect(401);
  });
});

describe('lockout with LOCKOUT_MINUTES', () => {
  const timed = useTestApp({ MAX_AUTH_ATTEMPTS: '3', LOCKOUT_MINUTES: '10' });

  it('lifts a lock once its period has passed', async () => {
    const ivy = await timed.createUser('ivy');
    for (let i = 0; i < 3; i++) await timed.http.get(MYSELF).set('Authorization', basic('ivy', 'wrong'));
    await timed.http.get(MYSELF).set('Authorization', ivy.auth).expect(401);
    // Written directly: a lock older than its period cannot be made without waiting for it.
    await timed.services.db.knex('auth_address_failures').where({ name_key: 'ivy' }).update({ locked_at: new Date(Date.now() - 11 * 60_000) });
    await timed.http.get(MYSELF).set('Authorization', ivy.auth).expect(200);
  });
});

describe('the default lock period', () => {
  // No LOCKOUT_MINUTES: the default of 15 minutes applies.
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '3' });
  afterEach(() => void vi.useRealTimers());

  it('ends a lock by itself after 15 minutes (faked clock), and the answer names every way out', async () => {
    const kim = await t.createUser('kim');
    for (let i = 0; i < 3; i++) await t.http.get(MYSELF).set('Authorization', basic('kim', 'wrong')).expect(401);
    const locked = await t.http.get(MYSELF).set('Authorization', kim.auth).expect(401);
    expect(locked.headers['x-seraph-loginreason']).toBe('AUTHENTICATION_DENIED');
    const [message] = locked.body.errorMessages as string[];
    expect(message).toContain('unlocks by itself 15 minutes after it was locked');
    expect(message).toContain('DELETE /rest/api/2/user/lockout?username=NAME');
    expect(message).toContain('addon-pair user unlock NAME');
    expect(message).toContain('addon-pair user passwd NAME');

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 14 * 60_000 });
    await t.http.get(MYSELF).set('Authorization', kim.auth).expect(401);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    await t.http.get(MYSELF).set('Authorization', kim.auth).expect(200);
    vi.useRealTimers();
  });
});
