// Issue 30 over HTTP: concurrent guesses lock a name exactly as sequential ones (PGlite and PostgreSQL), a
// failed login leaves other users' cached verifications alone, and failed logins are limited per client
// address across user names (the spraying that the per-name lock does not slow).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRequestListener } from '../../../src/app.ts';
import { createHttpServer } from '../../../src/server.ts';
import { loginTopic } from '../../../src/platform/auth/auth-cache.ts';
import { basic, uniq, useTestApp } from '../../helpers/test-app.ts';

const MYSELF = '/rest/api/2/myself';
const REASON = 'x-seraph-loginreason';

describe('the lockout under concurrent guesses', () => {
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '3' });

  it('checks exactly MAX_AUTH_ATTEMPTS of ten concurrent wrong Basic guesses; the others and then the right password are refused as locked', async () => {
    const victim = await t.createUser(uniq('victim'));
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => t.http.get(MYSELF).set('Authorization', basic(victim.name, `guess-${i}`))));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(401));
    const reasons = answers.map((a) => a.headers[REASON]);
    expect(reasons.filter((r) => r === 'AUTHENTICATED_FAILED')).toHaveLength(3);
    expect(reasons.filter((r) => r === 'AUTHENTICATION_DENIED')).toHaveLength(7);
    const row = await t.services.db.knex('auth_failures').where({ name_key: victim.name.toLowerCase() }).first();
    expect(row.failures).toBe(3);
    const right = await t.http.get(MYSELF).set('Authorization', victim.auth).expect(401);
    expect(right.headers[REASON]).toBe('AUTHENTICATION_DENIED');
  });

  it('counts concurrent sign-in form guesses together with Basic ones', async () => {
    const victim = await t.createUser(uniq('form-victim'));
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => t.http.post('/rest/auth/1/session').send({ username: victim.name, password: `form-${i}` })),
      ...Array.from({ length: 4 }, (_, i) => t.http.get(MYSELF).set('Authorization', basic(victim.name, `basic-${i}`))),
    ]);
    const reasons = answers.map((a) => a.headers[REASON]);
    expect(reasons.filter((r) => r === 'AUTHENTICATED_FAILED')).toHaveLength(3);
    expect(reasons.filter((r) => r === 'AUTHENTICATION_DENIED')).toHaveLength(5);
    await t.http.post('/rest/auth/1/session').send({ username: victim.name, password: victim.password }).expect(401);
  });
});

describe('a failed login and the credential cache', () => {
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '3' });

  it('never costs another user a new hash: failed logins of other names leave its cached verification alone', async () => {
    const alice = await t.createUser(uniq('alice'));
    await t.http.get(MYSELF).set('Authorization', alice.auth).expect(200);
    let stranger = '';
    for (let i = 0; stranger === '' || loginTopic(stranger) === loginTopic(alice.name); i++) stranger = `stranger-${i}`;
    const verify = vi.spyOn(t.services.hasher, 'verify');
    try {
      for (let i = 0; i < 4; i++) await t.http.get(MYSELF).set('Authorization', basic(stranger, `x${i}`)).expect(401);
      expect(verify).toHaveBeenCalled();
      verify.mockClear();
      for (let i = 0; i < 3; i++) await t.http.get(MYSELF).set('Authorization', alice.auth).expect(200);
      expect(verify).not.toHaveBeenCalled();
    } finally {
      verify.mockRestore();
    }
  });

  it('refuses a cached credential at once when its own name is locked, and lets it in again after the unlock', async () => {
    const bea = await t.createUser(uniq('bea'));
    await t.http.get(MYSELF).set('Authorization', bea.auth).expect(200);
    for (let i = 0; i < 3; i++) await t.http.get(MYSELF).set('Authorization', basic(bea.name, `wrong-${i}`)).expect(401);
    const locked = await t.http.get(MYSELF).set('Authorization', bea.auth).expect(401);
    expect(locked.headers[REASON]).toBe('AUTHENTICATION_DENIED');
    await t.http.delete(`/rest/api/2/user/lockout?username=${bea.name}`).set('Authorization', t.adminAuth).expect(204);
    await t.http.get(MYSELF).set('Authorization', bea.auth).expect(200);
  });
});

/** One request from a loopback address of our choice (127.0.0.0/8 is all loopback on Linux). */
function from(port: number, localAddress: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, localAddress, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('failed logins per client address (LOGIN_FAILURES_PER_ADDRESS)', () => {
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '3', LOGIN_FAILURES_PER_ADDRESS: '3:10' });
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = createHttpServer(createRequestListener(t.services, t.app));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('slows one password tried against many names from one address (429 with Retry-After), while another address logs in normally', async () => {
    const users = await Promise.all([1, 2, 3, 4].map((i) => t.createUser(uniq(`sprayed${i}`))));
    const attacker = '127.0.0.2';
    // A credential the attacker's address verified before the spraying keeps working (it is no guess).
    const own = await t.createUser(uniq('attacker-own'));
    expect((await from(port, attacker, 'GET', MYSELF, { Authorization: own.auth })).status).toBe(200);
    for (const u of users.slice(0, 3)) {
      const res = await from(port, attacker, 'GET', MYSELF, { Authorization: basic(u.name, 'Summer2025!') });
      expect(res.status).toBe(401);
    }
    const slowed = await from(port, attacker, 'GET', MYSELF, { Authorization: basic(users[3]!.name, 'Summer2025!') });
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(slowed.headers['retry-after'])).toBeLessThanOrEqual(600);
    expect(JSON.parse(slowed.body)).toEqual({ errorMessages: [expect.stringContaining('Too many failed logins from this address')], errors: {} });
    // Nothing was checked or counted for the name it tried.
    expect(await t.services.db.knex('auth_failures').where({ name_key: users[3]!.name.toLowerCase() }).first()).toBeUndefined();
    // In the wiki API's own error shape, and on the sign-in form, too.
    const wiki = await from(port, attacker, 'GET', '/rest/api/space', { Authorization: basic(users[3]!.name, 'x') });
    expect(wiki.status).toBe(429);
    expect(JSON.parse(wiki.body)).toMatchObject({ statusCode: 429 });
    const form = await from(port, attacker, 'POST', '/rest/auth/1/session', { 'Content-Type': 'application/json' }, JSON.stringify({ username: users[3]!.name, password: 'x' }));
    expect(form.status).toBe(429);
    expect((await from(port, attacker, 'GET', MYSELF, { Authorization: own.auth })).status).toBe(200);
    // Another address: the right password of a sprayed name works, and a wrong one is an ordinary 401.
    expect((await from(port, '127.0.0.3', 'GET', MYSELF, { Authorization: users[3]!.auth })).status).toBe(200);
    expect((await from(port, '127.0.0.3', 'GET', MYSELF, { Authorization: basic(users[0]!.name, 'nope') })).status).toBe(401);
  });

  it('throttles wrong Bearer tokens per address like wrong passwords: 401, then 429 with Retry-After; a known token goes on', async () => {
    const guesser = '127.0.0.4';
    const owner = await t.createUser(uniq('token-owner'));
    const token = await t.tokenFor(owner.name);
    expect((await from(port, guesser, 'GET', MYSELF, { Authorization: token })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const wrong = await from(port, guesser, 'GET', MYSELF, { Authorization: `Bearer guess-${i}-${'x'.repeat(30)}` });
      expect(wrong.status).toBe(401);
    }
    const slowed = await from(port, guesser, 'GET', MYSELF, { Authorization: `Bearer guess-3-${'x'.repeat(30)}` });
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(slowed.body)).toEqual({ errorMessages: [expect.stringContaining('Too many failed logins from this address')], errors: {} });
    // The same count holds for passwords; the token verified before still works; another address is not slowed.
    expect((await from(port, guesser, 'GET', MYSELF, { Authorization: owner.auth })).status).toBe(429);
    expect((await from(port, guesser, 'GET', MYSELF, { Authorization: token })).status).toBe(200);
    expect((await from(port, '127.0.0.5', 'GET', MYSELF, { Authorization: `Bearer guess-4-${'x'.repeat(30)}` })).status).toBe(401);
  });
});

describe('busy password checks (503 LOGIN_BUSY) in each API\'s shape', () => {
  const t = useTestApp();

  it('answers a login that would wait too long for its check with 503 and Retry-After, in the host and field-editor shapes', async () => {
    const user = await t.createUser(uniq('busy'));
    // Past the 10 s a login with no failures behind it may wait for its check (LOGIN_QUEUE_SECONDS).
    const wait = vi.spyOn(t.services.hasher.pool, 'expectedWaitMs').mockReturnValue(14_500);
    try {
      const host = await t.http.get(MYSELF).set('Authorization', user.auth).expect(503);
      expect(host.headers['retry-after']).toBe('15');
      expect(host.body).toEqual({ errorMessages: ['Too many logins are being checked right now. Try again in 15 seconds.'], errors: {} });
      const fe = await t.http.get('/rest/trackercustomfieldeditorplugin/1/user/customfields/10000/contexts/default/options').set('Authorization', user.auth).expect(503);
      expect(fe.headers['retry-after']).toBe('15');
      expect(fe.body).toEqual({ statusCode: 503, subCode: 503001, message: 'Too many logins are being checked right now. Try again in 15 seconds.' });
      // Under the 1.1 base paths as under 1.2 and 1.
      const fe11 = await t.http.get('/rest/trackercustomfieldeditorplugin/1.1/user/customfieldoptions/10000').set('Authorization', user.auth).expect(503);
      expect(fe11.body).toMatchObject({ statusCode: 503, subCode: 503001 });
    } finally {
      wait.mockRestore();
    }
    await t.http.get(MYSELF).set('Authorization', user.auth).expect(200);
  });
});
