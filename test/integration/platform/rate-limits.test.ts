// Issue 30, the rate limits (src/platform/limits/rate-limiter.ts): a step of the request pipeline, so a cached
// download answered by the fast path is limited like any other request; 429 in each API's own error format with
// Retry-After; X-RateLimit-* on every answer the step passed; buckets per credential (the user for Basic and
// sessions, the token for Bearer) and family, and per client address (behind TRUST_PROXY: the client it names).
// The fixtures write through the test app (RATE_LIMITS=off in the test configuration); each test sends its
// requests to a server of its own on the same services, with a limiter of the settings it tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createRequestListener, type App } from '../../../src/app.ts';
import { createHttpServer } from '../../../src/server.ts';
import { RateLimiter, type RateLimitSettings } from '../../../src/platform/limits/rate-limiter.ts';
import { TrustedProxies } from '../../../src/platform/http/client-address.ts';
import { basic, uniq, useTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { addOptions, createField, grant, listValues, paths } from '../../helpers/tracker-fixtures.ts';
import { codeboxMacro, createContent, createSpace, keyOf } from '../../helpers/wiki-fixtures.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request from a loopback address of our choice (127.0.0.0/8 is all loopback on Linux). */
function from(port: number, localAddress: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const all = text === undefined ? headers : { 'Content-Type': 'application/json', ...headers };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: all, localAddress, agent: false }, (res) => {
      let out = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (out += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: out }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

interface Limited {
  port: number;
  app: App;
  limiter: RateLimiter;
}

/**
 * A server (fast paths on) on `t`'s services whose pipeline has a limiter of `settings`; closed after the file.
 * `now` is the limiter's clock (a test that lets time pass moves its own instead of waiting).
 */
function useLimitedServer(t: TestApp, settings: () => RateLimitSettings, trustProxy: string[] = [], now: () => number = Date.now) {
  const servers: http.Server[] = [];
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });
  return async (): Promise<Limited> => {
    const limiter = new RateLimiter(settings(), undefined, now);
    const services = { ...t.services, rateLimiter: limiter, trustedProxies: trustProxy.length > 0 ? new TrustedProxies(trustProxy) : undefined };
    const app = createApp(services);
    const server = createHttpServer(createRequestListener(services, app, true));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return { port: (server.address() as AddressInfo).port, app, limiter };
  };
}

/**
 * Verifies the user's Basic credential through the test app, so that the limited server finds it in the shared
 * credential cache: its next request is a read or a write, not a login (a Basic cache miss counts as a login).
 */
const warm = async (t: TestApp, user: TestUser) => {
  await t.http.get('/rest/api/2/myself').set('Authorization', user.auth).expect(200);
};

const headersOf = (a: Answer) => ({
  limit: a.headers['x-ratelimit-limit'],
  remaining: a.headers['x-ratelimit-remaining'],
  reset: Number(a.headers['x-ratelimit-reset']),
});

/** A Unix time in seconds no earlier than now and within `seconds` of it. */
const expectResetWithin = (reset: number, seconds: number) => {
  const now = Date.now() / 1000;
  expect(reset).toBeGreaterThanOrEqual(Math.floor(now) - 1);
  expect(reset).toBeLessThanOrEqual(Math.ceil(now + seconds) + 1);
};

/** The app of the describes that need no settings of their own (each makes its own users and servers). */
const onDefaults = useTestApp();

describe('rate limits on downloads, field-editor reads and writes', () => {
  const t = onDefaults;
  // Sustained rates so low that no token comes back during a test: only the burst counts.
  const limited = useLimitedServer(t, () => ({
    downloads: { perSecond: 0.001, burst: 3 },
    reads: { perSecond: 0.001, burst: 2 },
    writes: { perSecond: 0.001, burst: 1 },
    perAddress: { perSecond: 1000, burst: 1000 },
  }));
  let reader: TestUser;
  let e1: string;
  let list: string;

  beforeAll(async () => {
    reader = await t.createUser(uniq('limited-reader'), { groups: ['limit-team'] });
    await createSpace(t, 'RLIM', { groups: ['limit-team'] }, {}, 'Limits', { keepCreatorGrants: true });
    const macro = randomUUID();
    const page = (await createContent(t, t.adminAuth, { space: 'RLIM', title: 'Limited', body: codeboxMacro('advanced-single-codeblock-macro', 'ls\n', {}, macro) })).id;
    e1 = `/rest/advancedcodeblocks/1/download_code/plain_text?key=${encodeURIComponent(keyOf('raw'))}&macroId=${macro}&contentId=${page}`;
    const field = await createField(t);
    await grant(t, field.id, { user: reader.name });
    list = paths(field.id, 'default').options;
    await addOptions(t, reader.auth, list, ['One', 'Two']);
  });

  it('limits E1 answered from the cache by the fast path: the headers on each answer, then 429 in plain text with Retry-After', async () => {
    const { port, app } = await limited();
    await warm(t, reader);
    const first = await from(port, '127.0.0.1', 'GET', e1, { Authorization: reader.auth });
    expect(first.status).toBe(200);
    expect(headersOf(first)).toMatchObject({ limit: '3', remaining: '2' });
    const before = app.fastPaths.get('codeblocks')!.answered;
    const cached = await from(port, '127.0.0.1', 'GET', e1, { Authorization: reader.auth });
    expect(app.fastPaths.get('codeblocks')!.answered).toBe(before + 1);
    expect(cached.status).toBe(200);
    expect(headersOf(cached)).toMatchObject({ limit: '3', remaining: '1' });
    expectResetWithin(headersOf(cached).reset, 2 / 0.001);
    expect((await from(port, '127.0.0.1', 'GET', e1, { Authorization: reader.auth })).headers['x-ratelimit-remaining']).toBe('0');

    const refused = await from(port, '127.0.0.1', 'GET', e1, { Authorization: reader.auth });
    expect(refused.status).toBe(429);
    expect(app.fastPaths.get('codeblocks')!.answered).toBe(before + 2);
    expect(refused.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
    expect(refused.body).toMatch(/^Too many requests \(downloads\) from this credential\. Try again in \d+ seconds?\.\n$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(headersOf(refused)).toMatchObject({ limit: '3', remaining: '0' });
    // The download lists answer their XML and JSON bodies with the key of the generation (CODEBLOCKS_COMPAT=5).
    const xml = await from(port, '127.0.0.1', 'GET', e1.replace('download_code/plain_text', 'download_list/xml'), { Authorization: reader.auth });
    expect(xml.status).toBe(429);
    expect(xml.body).toContain('<error>429_TOO_MANY_REQUESTS</error>');
    const json = await from(port, '127.0.0.1', 'GET', e1.replace('download_code/plain_text', 'download_list/json'), { Authorization: reader.auth });
    expect(json.status).toBe(429);
    expect(JSON.parse(json.body)).toEqual({ error: '429_TOO_MANY_REQUESTS', message: expect.stringMatching(/^Too many requests \(downloads\)/) });
  });

  it("gives each credential its own budget: the same user's token, and another user, still download", async () => {
    const { port } = await limited();
    await warm(t, reader);
    for (let i = 0; i < 3; i++) expect((await from(port, '127.0.0.1', 'GET', e1, { Authorization: reader.auth })).status).toBe(200);
    expect((await from(port, '127.0.0.1', 'GET', e1, { Authorization: reader.auth })).status).toBe(429);
    const token = await t.tokenFor(reader.name);
    const viaToken = await from(port, '127.0.0.1', 'GET', e1, { Authorization: token });
    expect(viaToken.status).toBe(200);
    expect(viaToken.headers['x-ratelimit-remaining']).toBe('2');
    expect((await from(port, '127.0.0.1', 'GET', e1, { Authorization: t.adminAuth })).status).toBe(200);
  });

  it('limits a field-editor read with a token: 429 with subCode 429000 and the headers', async () => {
    const { port } = await limited();
    const token = await t.tokenFor(reader.name);
    for (const remaining of ['1', '0']) {
      const ok = await from(port, '127.0.0.1', 'GET', list, { Authorization: token });
      expect(ok.status).toBe(200);
      expect(headersOf(ok)).toMatchObject({ limit: '2', remaining });
    }
    const refused = await from(port, '127.0.0.1', 'GET', list, { Authorization: token });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(headersOf(refused)).toMatchObject({ limit: '2', remaining: '0' });
    expect(JSON.parse(refused.body)).toEqual({ statusCode: 429, subCode: 429000, message: expect.stringMatching(/^Too many requests \(reads\) from this credential/) });
    // Another token of the same user is another credential.
    expect((await from(port, '127.0.0.1', 'GET', list, { Authorization: await t.tokenFor(reader.name) })).status).toBe(200);
  });

  it('limits reads in the wiki and host shapes too', async () => {
    const { port } = await limited();
    const user = await t.createUser(uniq('wiki-reader'));
    await warm(t, user);
    await from(port, '127.0.0.1', 'GET', '/rest/api/space', { Authorization: user.auth });
    await from(port, '127.0.0.1', 'GET', '/rest/api/space', { Authorization: user.auth });
    const wiki = await from(port, '127.0.0.1', 'GET', '/rest/api/space', { Authorization: user.auth });
    expect(wiki.status).toBe(429);
    expect(JSON.parse(wiki.body)).toMatchObject({ statusCode: 429, reason: 'Too Many Requests', message: expect.stringMatching(/^Too many requests \(reads\)/) });
    const host = await from(port, '127.0.0.1', 'GET', '/rest/api/2/myself', { Authorization: user.auth });
    expect(host.status).toBe(429);
    expect(JSON.parse(host.body)).toEqual({ errorMessages: [expect.stringMatching(/^Too many requests \(reads\)/)], errors: {} });
  });

  it('refuses a write over its limit with 429 before anything is written', async () => {
    const { port } = await limited();
    const writer = await t.createUser(uniq('limited-writer'));
    const field = await createField(t);
    await grant(t, field.id, { user: writer.name });
    await warm(t, writer);
    const own = paths(field.id, 'default').options;
    const first = await from(port, '127.0.0.1', 'POST', own, { Authorization: writer.auth }, { optionvalue: 'Kept' });
    expect(first.status).toBe(200);
    expect(headersOf(first)).toMatchObject({ limit: '1', remaining: '0' });
    const refused = await from(port, '127.0.0.1', 'POST', own, { Authorization: writer.auth }, { optionvalue: 'Refused' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(refused.body)).toMatchObject({ statusCode: 429, subCode: 429000, message: expect.stringMatching(/^Too many requests \(writes\)/) });
    expect(await listValues(t, writer.auth, own)).toEqual(['Kept']);
    // Reads are another family: the writer still reads.
    expect((await from(port, '127.0.0.1', 'GET', own, { Authorization: writer.auth })).status).toBe(200);
  });

  it('switches a family off: no limit, no headers', async () => {
    const { port } = await limited();
    const user = await t.createUser(uniq('no-logins-limit'));
    // No login limit is set here: the Basic cache miss (a login) passes without a credential bucket, and its
    // answer shows the address's.
    const miss = await from(port, '127.0.0.9', 'GET', '/rest/api/2/myself', { Authorization: user.auth });
    expect(miss.status).toBe(200);
    expect(headersOf(miss)).toMatchObject({ limit: '1000', remaining: '999' });
  });
});

describe('Retry-After honoured', () => {
  const t = onDefaults;
  // The limiter's clock, moved by the test: the Retry-After seconds pass for the limiter without a wait.
  let clock = Date.now();
  const limited = useLimitedServer(t, () => ({ reads: { perSecond: 1, burst: 1 } }), [], () => clock);

  it('the request sent after the Retry-After seconds succeeds', async () => {
    const { port } = await limited();
    const user = await t.createUser(uniq('patient'));
    await warm(t, user);
    expect((await from(port, '127.0.0.1', 'GET', '/rest/api/2/myself', { Authorization: user.auth })).status).toBe(200);
    const refused = await from(port, '127.0.0.1', 'GET', '/rest/api/2/myself', { Authorization: user.auth });
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBe(1);
    clock += wait * 1000 + 20;
    const after = await from(port, '127.0.0.1', 'GET', '/rest/api/2/myself', { Authorization: user.auth });
    expect(after.status).toBe(200);
  });
});

describe('rate limits on logins and per client address', () => {
  const t = useTestApp({ MAX_AUTH_ATTEMPTS: '1000' });
  const limited = useLimitedServer(t, () => ({
    logins: { perSecond: 0.001, burst: 2 },
    reads: { perSecond: 1000, burst: 1000 },
    perAddress: { perSecond: 0.001, burst: 6 },
  }));

  it('limits sign-ins per address (the form names no credential yet): a sprayer is slowed, another address signs in normally', async () => {
    const { port } = await limited();
    const victims = await Promise.all([1, 2, 3].map((i) => t.createUser(uniq(`form-sprayed${i}`))));
    const sprayer = '127.0.0.2';
    for (const v of victims.slice(0, 2)) {
      const wrong = await from(port, sprayer, 'POST', '/rest/auth/1/session', {}, { username: v.name, password: 'Winter2025!' });
      expect(wrong.status).toBe(401);
      expect(wrong.headers['x-ratelimit-limit']).toBe('2');
    }
    const slowed = await from(port, sprayer, 'POST', '/rest/auth/1/session', {}, { username: victims[2]!.name, password: 'Winter2025!' });
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(headersOf(slowed)).toMatchObject({ limit: '2', remaining: '0' });
    expect(JSON.parse(slowed.body)).toEqual({ errorMessages: [expect.stringMatching(/^Too many requests \(logins\) from this address/)], errors: {} });
    // Nothing was checked or counted for the name it tried.
    expect(await t.services.db.knex('auth_failures').where({ name_key: victims[2]!.name.toLowerCase() }).first()).toBeUndefined();
    // The right password from another address: signed in (an even trailing slash and other case are the same path).
    const other = await from(port, '127.0.0.3', 'POST', '/rest/Auth/1/session/', {}, { username: victims[2]!.name, password: victims[2]!.password });
    expect(other.status).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe('1');
  });

  it("counts a Basic header the credential cache did not know as the user's login, and its cached uses as reads", async () => {
    const { port } = await limited();
    const user = await t.createUser(uniq('basic-login'));
    const miss = await from(port, '127.0.0.4', 'GET', '/rest/api/2/myself', { Authorization: user.auth });
    expect(miss.status).toBe(200);
    expect(headersOf(miss)).toMatchObject({ limit: '2', remaining: '1' });
    const hit = await from(port, '127.0.0.4', 'GET', '/rest/api/2/myself', { Authorization: user.auth });
    expect(headersOf(hit)).toMatchObject({ limit: '1000', remaining: '999' });
    // A wrong password is refused by authentication (401, counted by the lockout and the failed-login limit), before this step.
    const wrong = await from(port, '127.0.0.4', 'GET', '/rest/api/2/myself', { Authorization: basic(user.name, 'nope') });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('limits an address across credentials and anonymous requests; another address is not slowed', async () => {
    const { port } = await limited();
    const users = await Promise.all([1, 2, 3].map((i) => t.createUser(uniq(`busy-host${i}`))));
    const tokens = await Promise.all(users.map((u) => t.tokenFor(u.name)));
    const host = '127.0.0.5';
    for (let i = 0; i < 6; i++) {
      const res = await from(port, host, 'GET', '/rest/api/2/myself', i % 2 === 0 ? { Authorization: tokens[i % 3]! } : {});
      expect(res.status).toBe(i % 2 === 0 ? 200 : 401);
    }
    const anonymous = await from(port, host, 'GET', '/rest/api/space');
    expect(anonymous.status).toBe(429);
    expect(headersOf(anonymous)).toMatchObject({ limit: '6', remaining: '0' });
    expect(JSON.parse(anonymous.body)).toMatchObject({ statusCode: 429, message: expect.stringMatching(/^Too many requests \(reads\) from this address/) });
    expect((await from(port, host, 'GET', '/rest/api/2/myself', { Authorization: tokens[0]! })).status).toBe(429);
    expect((await from(port, '127.0.0.6', 'GET', '/rest/api/2/myself', { Authorization: tokens[0]! })).status).toBe(200);
  });
});

describe('the client address behind TRUST_PROXY', () => {
  const t = useTestApp({ LOGIN_FAILURES_PER_ADDRESS: '2:10', MAX_AUTH_ATTEMPTS: '1000' });
  const limited = useLimitedServer(t, () => ({ perAddress: { perSecond: 0.001, burst: 2 } }), ['127.0.0.1', '127.0.0.0/30']);

  it("counts the client that a trusted proxy names, and a stranger's X-Forwarded-For not at all", async () => {
    const { port } = await limited();
    const user = await t.createUser(uniq('proxied'));
    const via = (peer: string, forwarded: string) => from(port, peer, 'GET', '/rest/api/2/myself', { Authorization: user.auth, 'X-Forwarded-For': forwarded });
    // Through the proxy 127.0.0.1: two clients, each with its own budget; what the client wrote left of them is ignored.
    expect((await via('127.0.0.1', '198.51.100.7')).status).toBe(200);
    expect((await via('127.0.0.1', '10.9.9.9, 198.51.100.7')).status).toBe(200);
    expect((await via('127.0.0.1', '198.51.100.7')).status).toBe(429);
    expect((await via('127.0.0.1', '198.51.100.7, 127.0.0.2')).status).toBe(429);
    expect((await via('127.0.0.1', '203.0.113.9')).status).toBe(200);
    // From 127.0.0.8, which is not a trusted proxy, X-Forwarded-For is not read: its own address is counted.
    expect((await via('127.0.0.8', '192.0.2.1')).status).toBe(200);
    expect((await via('127.0.0.8', '192.0.2.2')).status).toBe(200);
    expect((await via('127.0.0.8', '192.0.2.3')).status).toBe(429);
  });

  it('gives the per-address limit of failed logins the same client address', async () => {
    const { port } = await limited();
    const users = await Promise.all([1, 2, 3].map((i) => t.createUser(uniq(`proxied-spray${i}`))));
    const guess = (u: TestUser, client: string) => from(port, '127.0.0.1', 'GET', '/rest/api/2/myself', { Authorization: basic(u.name, 'Spring2025!'), 'X-Forwarded-For': client });
    expect((await guess(users[0]!, '198.51.100.50')).status).toBe(401);
    expect((await guess(users[1]!, '198.51.100.50')).status).toBe(401);
    const slowed = await guess(users[2]!, '198.51.100.50');
    expect(slowed.status).toBe(429);
    expect(JSON.parse(slowed.body).errorMessages[0]).toContain('Too many failed logins from this address');
    // Another client behind the same proxy is an ordinary wrong password.
    expect((await guess(users[2]!, '198.51.100.51')).status).toBe(401);
  });
});

describe('rate limits from the configuration', () => {
  const t = useTestApp({ RATE_LIMITS: 'on', RATE_LIMIT_READS: '0.001:2', RATE_LIMIT_PER_ADDRESS: '0', METRICS_TOKEN: 'rate-limit-metrics-token-0123' });

  it('applies RATE_LIMIT_READS to the app and counts the refused request in the metrics by family and reason', async () => {
    const user = await t.createUser(uniq('configured'));
    // The first request verifies the password: a login (RATE_LIMIT_LOGINS, default 5:20).
    const login = await t.http.get('/rest/api/2/myself').set('Authorization', user.auth).expect(200);
    expect(login.headers['x-ratelimit-limit']).toBe('20');
    expect(login.headers['x-ratelimit-remaining']).toBe('19');
    expect((await t.http.get('/rest/api/2/myself').set('Authorization', user.auth).expect(200)).headers['x-ratelimit-remaining']).toBe('1');
    const second = await t.http.get('/rest/api/2/myself').set('Authorization', user.auth).expect(200);
    expect(second.headers['x-ratelimit-limit']).toBe('2');
    expect(second.headers['x-ratelimit-remaining']).toBe('0');
    const refused = await t.http.get('/rest/api/2/myself').set('Authorization', user.auth).expect(429);
    expect(refused.headers['retry-after']).toBeDefined();
    const { body } = await t.services.metrics!.scrape();
    expect(body).toMatch(/^addon_pair_rate_limited_total\{family="reads",reason="credential"\} 1$/m);
    expect(body).toMatch(/^addon_pair_cluster_nodes 1$/m);
  });
});
