// Issue 44 (finding 4 and 7): a stranger cannot lock a name for its owner. Failed logins lock a name per client
// address (behind TRUST_PROXY: the client the proxy names), IPv6 clients by /64 and by canonical text; a name
// guessed from many addresses makes each further check wait longer (the right password still gets in); the
// administrators see locks and delays in the event log. PGlite and PostgreSQL (the counters are the database's).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { basic, uniq, useTestApp } from '../../helpers/test-app.ts';
import { sample } from '../../helpers/metrics-sample.ts';

const MYSELF = '/rest/api/2/myself';
const REASON = 'x-seraph-loginreason';

describe('the lock per name and client address', () => {
  // The test's connections come from loopback, named a proxy: X-Forwarded-For says which client each request is.
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '3', TRUST_PROXY: '127.0.0.1,::1', LOGIN_DELAY_AFTER_FAILURES: '0' });
  const get = (auth: string, from: string) => t.http.get(MYSELF).set('Authorization', auth).set('X-Forwarded-For', from);
  afterEach(() => void vi.restoreAllMocks());

  it("a stranger's three wrong guesses from X stop neither the owner's login from Y nor its remembered credential there; X stays locked", async () => {
    const owner = await t.createUser(uniq('owner'));
    const [X, Y, Z] = ['198.51.100.7', '203.0.113.9', '192.0.2.44'];
    // The owner's script on Y and a session of the owner on X verified their credential before the attack.
    await get(owner.auth, Y).expect(200);
    await get(owner.auth, X).expect(200);
    for (let i = 0; i < 3; i++) {
      const res = await get(basic(owner.name, `guess-${i}`), X).expect(401);
      expect(res.headers[REASON]).toBe('AUTHENTICATED_FAILED');
    }
    const verify = vi.spyOn(t.services.hasher, 'verify');
    // Y: the remembered credential goes on without a new hash.
    await get(owner.auth, Y).expect(200);
    expect(verify).not.toHaveBeenCalled();
    // Z: a first login of the owner is checked and succeeds.
    await get(owner.auth, Z).expect(200);
    expect(verify).toHaveBeenCalledTimes(1);
    verify.mockClear();
    // X: locked for this name, the remembered credential included; the password is not even checked.
    for (let i = 0; i < 2; i++) {
      const denied = await get(owner.auth, X).expect(401);
      expect(denied.headers[REASON]).toBe('AUTHENTICATION_DENIED');
      expect(denied.body.errorMessages[0]).toContain('locked for logins from this address');
    }
    await t.http.post('/rest/auth/1/session').set('X-Forwarded-For', X).send({ username: owner.name, password: owner.password }).expect(401);
    expect(verify).not.toHaveBeenCalled();
    // Other names from X are not locked.
    const other = await t.createUser(uniq('other'));
    await get(other.auth, X).expect(200);
    // The database holds one locked row: this name from X.
    const rows = await t.services.db.knex('auth_address_failures').where({ name_key: owner.name.toLowerCase() });
    expect(rows).toEqual([expect.objectContaining({ address_key: X, failures: 3, locked_at: expect.any(Date) })]);
    // The administrator's reset lifts it.
    await t.http.delete(`/rest/api/2/user/lockout?username=${owner.name}`).set('Authorization', t.adminAuth).expect(204);
    await get(owner.auth, X).expect(200);
  });

  it('counts one IPv6 address written four ways as one client', async () => {
    const owner = await t.createUser(uniq('v6owner'));
    for (const spelling of ['2001:db8:9::1', '2001:DB8:9::1', '2001:0db8:9:0::1']) {
      await get(basic(owner.name, 'wrong'), spelling).expect(401);
    }
    const denied = await get(owner.auth, '2001:db8:9:0:0:0:0:1').expect(401);
    expect(denied.headers[REASON]).toBe('AUTHENTICATION_DENIED');
    await get(owner.auth, '2001:db8:10::1').expect(200);
  });

  it('counts the addresses of one IPv6 /64 as one client', async () => {
    const owner = await t.createUser(uniq('rotated'));
    for (const address of ['2001:db8:77:5::1', '2001:db8:77:5:a:b:c:d', '2001:db8:77:5:ffff:1:2:3']) await get(basic(owner.name, 'wrong'), address).expect(401);
    expect((await get(owner.auth, '2001:db8:77:5:dead:beef:0:1').expect(401)).headers[REASON]).toBe('AUTHENTICATION_DENIED');
    // The next /64 is another client.
    await get(owner.auth, '2001:db8:77:6::1').expect(200);
    const [row] = await t.services.db.knex('auth_address_failures').where({ name_key: owner.name.toLowerCase() });
    expect(row.address_key).toBe('2001:db8:77:5::/64');
  });

  it('writes a lock to the event log with the address, once', async () => {
    const owner = await t.createUser(uniq('audited'));
    for (let i = 0; i < 4; i++) await get(basic(owner.name, 'wrong'), '198.51.100.99');
    const entries = await t.services.db.knex('event_log').where({ kind: 'user.login_locked' }).whereRaw("target->>'name' = ?", [owner.name]);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: 'anonymous', after: { address: '198.51.100.99', failedLogins: 3 } });
  });
});

describe('the growing delay of a name guessed from many addresses, as administrators see it', () => {
  const TOKEN = 'login-delay-metrics-token-0123456789';
  // Delays begin after two failures of a name from all addresses, and are one second each (the least there is):
  // the test waits that second once, for the one check it makes wait.
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '3', TRUST_PROXY: '127.0.0.1,::1', LOGIN_DELAY_AFTER_FAILURES: '2', LOGIN_DELAY_MAX_SECONDS: '1', METRICS_TOKEN: TOKEN });
  const get = (auth: string, from: string) => t.http.get(MYSELF).set('Authorization', auth).set('X-Forwarded-For', from);
  const delayed = async () => sample((await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text, 'addon_pair_auth_delayed_logins_total');
  const slowedEntries = (name: string) => t.services.db.knex('event_log').where({ kind: 'user.login_slowed' }).whereRaw("target->>'name' = ?", [name]);

  it('writes one user.login_slowed entry when the delays begin, and counts each delayed check in the metric', async () => {
    const owner = await t.createUser(uniq('slowed'));
    const start = await delayed();
    expect(start).toBe(0);
    // Three wrong guesses, each from another address (none is locked): the third begins the name's delays.
    for (let i = 1; i <= 3; i++) await get(basic(owner.name, 'wrong'), `198.51.100.${i}`).expect(401);
    const entries = await slowedEntries(owner.name);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: 'anonymous', after: { failedLogins: 3, delaySeconds: 1 } });
    expect(await delayed()).toBe(start);
    // The next check waits its second, and the metric counts it; the series keeps its one entry.
    await get(basic(owner.name, 'wrong'), '198.51.100.4').expect(401);
    expect(await delayed()).toBe(start! + 1);
    expect(await slowedEntries(owner.name)).toHaveLength(1);
  });
});

describe('the per-address limit of failed logins keys IPv6 clients by /64 and canonical text', () => {
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '100', LOGIN_FAILURES_PER_ADDRESS: '5:10', TRUST_PROXY: '127.0.0.1,::1', LOGIN_DELAY_AFTER_FAILURES: '0' });
  const get = (auth: string, from: string) => t.http.get(MYSELF).set('Authorization', auth).set('X-Forwarded-For', from);

  it('refuses a /64 that rotated through forty addresses after five failures (429), and not the next /64', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 40; i++) statuses.push((await get(basic(uniq('sprayed'), 'Summer2025!'), `2001:db8:40:1::${i.toString(16)}`)).status);
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(401));
    expect(statuses.slice(5)).toEqual(Array(35).fill(429));
    await get(basic(uniq('sprayed'), 'x'), '2001:db8:40:2::1').expect(401);
  });

  it('counts four spellings of one address as one', async () => {
    const spellings = ['2001:db8:41::1', '2001:DB8:41::1', '2001:0db8:41:0::1', '2001:0DB8:0041:0000:0000:0000:0000:0001'];
    for (const s of [...spellings, spellings[0]!]) await get(basic(uniq('sprayed'), 'x'), s).expect(401);
    await get(basic(uniq('sprayed'), 'x'), spellings[2]!).expect(429);
  });
});

describe('CLIENT_IPV6_PREFIX', () => {
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '3', TRUST_PROXY: '127.0.0.1,::1', CLIENT_IPV6_PREFIX: '128', LOGIN_DELAY_AFTER_FAILURES: '0' });

  it('at 128 counts each IPv6 address on its own', async () => {
    const owner = await t.createUser(uniq('own128'));
    const from = (address: string) => t.http.get(MYSELF).set('X-Forwarded-For', address);
    // One failure from each of three addresses of one /64: none of them is locked (at /64 all three would be one).
    for (let i = 1; i <= 3; i++) await from(`2001:db8:50::${i}`).set('Authorization', basic(owner.name, 'wrong')).expect(401);
    await from('2001:db8:50::3').set('Authorization', owner.auth).expect(200);
    // Three from one address still lock it.
    for (let i = 1; i <= 3; i++) await from('2001:db8:50::9').set('Authorization', basic(owner.name, 'wrong')).expect(401);
    expect((await from('2001:db8:50::9').set('Authorization', owner.auth).expect(401)).headers[REASON]).toBe('AUTHENTICATION_DENIED');
  });
});
