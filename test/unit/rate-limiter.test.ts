// The rate limiter's buckets and decisions without HTTP (src/platform/limits/rate-limiter.ts, token-buckets.ts),
// on a clock of the test's own: refill, burst, the family of a request, a node's share of a cluster's limit, the
// headers, and TRUST_PROXY's reading of X-Forwarded-For (src/platform/http/client-address.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { AppError } from '../../src/platform/http/app-error.ts';
import { TrustedProxies } from '../../src/platform/http/client-address.ts';
import type { ApiInfo } from '../../src/platform/http/pipeline.ts';
import { RateLimiter, type RateLimitSettings } from '../../src/platform/limits/rate-limiter.ts';
import { BucketTable } from '../../src/platform/limits/token-buckets.ts';
import { createCodeblocksErrorRenderer } from '../../src/codeblocks/error-render.ts';
import { generationOf } from '../../src/codeblocks/generation.ts';
import type { Request, Response } from 'express';

const API: ApiInfo = { paths: ['/rest/api/2'], bodyLimit: 1024, refuseNonJsonBodies: true };
const DOWNLOADS: ApiInfo = { ...API, paths: ['/rest/advancedcodeblocks/1'], family: 'downloads' };
const SESSIONS: ApiInfo = { ...API, paths: ['/rest/auth/1'], loginPaths: ['/rest/auth/1/session'] };

interface Fake {
  req: IncomingMessage;
  res: ServerResponse & { headers: Record<string, unknown> };
}

function request(opts: { method?: string; url?: string; user?: { id: number; tokenId?: number }; address?: string; verified?: boolean } = {}): Fake {
  const req = {
    method: opts.method ?? 'GET',
    url: opts.url ?? '/rest/api/2/myself',
    headers: {},
    socket: { remoteAddress: opts.address ?? '192.0.2.1' },
    user: opts.user,
    passwordVerified: opts.verified,
  } as unknown as IncomingMessage;
  const headers: Record<string, unknown> = {};
  const res = { headers, setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = value) } as unknown as Fake['res'];
  return { req, res };
}

/** Runs the step once: undefined when it let the request through, else its error. */
function run(limiter: RateLimiter, fake: Fake, api: ApiInfo = API): AppError | undefined {
  let outcome: unknown = 'not called';
  limiter.step.run(fake.req, fake.res, (err) => (outcome = err), api);
  expect(outcome).not.toBe('not called');
  return outcome as AppError | undefined;
}

function limiterOf(settings: RateLimitSettings, nodes = 1) {
  let now = 1_700_000_000_000;
  const limiter = new RateLimiter(settings, () => nodes, () => now);
  return { limiter, advance: (ms: number) => (now += ms), now: () => now };
}

describe('token buckets', () => {
  it('start full, take one per request, refill at the rate up to the burst', () => {
    const table = new BucketTable<string>();
    const b = table.refill('k', 0, 0.001, 3);
    expect(b.tokens).toBe(3);
    b.tokens -= 3;
    expect(table.refill('k', 500, 0.001, 3).tokens).toBeCloseTo(0.5);
    expect(table.refill('k', 1_000_000, 0.001, 3).tokens).toBe(3);
  });

  it('forget full buckets first, then the oldest, when they hold too many keys', () => {
    const table = new BucketTable<number>(8);
    for (let k = 0; k < 8; k++) table.refill(k, 0, 0.001, 1).tokens = 0;
    table.refill(8, 0, 0.001, 1);
    expect(table.size).toBeLessThanOrEqual(7);
    // After a while every bucket is full again: all are forgotten, none carries state.
    for (let k = 9; k < 17; k++) table.refill(k, 10_000, 0.001, 1);
    expect(table.size).toBeLessThanOrEqual(8);
  });
});

describe('the rate limiter', () => {
  it('lets the burst through, refuses the next with Retry-After, and lets one more through once a token came back', () => {
    const { limiter, advance } = limiterOf({ reads: { perSecond: 2, burst: 3 } });
    const user = { id: 7 };
    for (let i = 0; i < 3; i++) expect(run(limiter, request({ user }))).toBeUndefined();
    const refused = request({ user });
    const err = run(limiter, refused);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED', headers: { 'Retry-After': '1' }, extra: { family: 'reads', reason: 'credential' } });
    expect(refused.res.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': 0 });
    advance(500);
    const again = request({ user });
    expect(run(limiter, again)).toBeUndefined();
    expect(again.res.headers['x-ratelimit-remaining']).toBe(0);
  });

  it('tells the time when the bucket is full again, in Unix seconds', () => {
    const { limiter, now } = limiterOf({ reads: { perSecond: 1, burst: 10 } });
    const fake = request({ user: { id: 1 } });
    run(limiter, fake);
    expect(fake.res.headers['x-ratelimit-reset']).toBe(Math.ceil((now() + 1000) / 1000));
  });

  it('keeps a bucket per token for Bearer and per user otherwise, per family', () => {
    const { limiter } = limiterOf({ reads: { perSecond: 0.001, burst: 1 }, writes: { perSecond: 0.001, burst: 1 } });
    expect(run(limiter, request({ user: { id: 1 } }))).toBeUndefined();
    expect(run(limiter, request({ user: { id: 1 } }))?.status).toBe(429);
    expect(run(limiter, request({ user: { id: 1, tokenId: 5 } }))).toBeUndefined();
    expect(run(limiter, request({ user: { id: 1, tokenId: 6 } }))).toBeUndefined();
    expect(run(limiter, request({ user: { id: 1, tokenId: 5 } }))?.status).toBe(429);
    expect(run(limiter, request({ user: { id: 1 }, method: 'PUT' }))).toBeUndefined();
  });

  it('tells the families apart: downloads by the mount, logins by the mark or the sign-in path, then the method', () => {
    const { limiter } = limiterOf({
      downloads: { perSecond: 1, burst: 11 },
      reads: { perSecond: 1, burst: 12 },
      writes: { perSecond: 1, burst: 13 },
      logins: { perSecond: 1, burst: 14 },
    });
    const limitOf = (fake: Fake, api: ApiInfo) => {
      run(limiter, fake, api);
      return fake.res.headers['x-ratelimit-limit'];
    };
    expect(limitOf(request({ user: { id: 1 } }), DOWNLOADS)).toBe('11');
    expect(limitOf(request({ user: { id: 1 }, method: 'HEAD' }), API)).toBe('12');
    expect(limitOf(request({ user: { id: 1 }, method: 'DELETE' }), API)).toBe('13');
    expect(limitOf(request({ user: { id: 1 }, verified: true }), DOWNLOADS)).toBe('14');
    expect(limitOf(request({ method: 'POST', url: '/rest/auth/1/session' }), SESSIONS)).toBe('14');
    expect(limitOf(request({ method: 'POST', url: '/REST/auth/1/Session/?x=1' }), SESSIONS)).toBe('14');
    expect(limitOf(request({ user: { id: 1 }, method: 'DELETE', url: '/rest/auth/1/session' }), SESSIONS)).toBe('13');
    // An anonymous read has no credential bucket, and there is no address limit here: nothing to show.
    expect(limitOf(request({}), API)).toBeUndefined();
  });

  it('counts an address over every request from it, and refuses without taking a token from the credential', () => {
    const { limiter } = limiterOf({ reads: { perSecond: 0.001, burst: 5 }, perAddress: { perSecond: 0.001, burst: 2 } });
    expect(run(limiter, request({ user: { id: 1 }, address: '198.51.100.1' }))).toBeUndefined();
    expect(run(limiter, request({ address: '198.51.100.1' }))).toBeUndefined();
    const refused = request({ user: { id: 1 }, address: '198.51.100.1' });
    expect(run(limiter, refused)).toMatchObject({ status: 429, extra: { reason: 'address' } });
    expect(refused.res.headers['x-ratelimit-limit']).toBe('2');
    const elsewhere = request({ user: { id: 1 }, address: '198.51.100.2' });
    expect(run(limiter, elsewhere)).toBeUndefined();
    // The refused request took nothing: 5 - 2 used.
    expect(elsewhere.res.headers['x-ratelimit-remaining']).toBe(3);
  });

  it('gives each of N nodes 1/N of the rate and of the burst, and shows the cluster-wide figures', () => {
    const { limiter, advance } = limiterOf({ reads: { perSecond: 4, burst: 10 } }, 2);
    const user = { id: 3 };
    const first = request({ user });
    run(limiter, first);
    expect(first.res.headers).toMatchObject({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': 8 });
    for (let i = 0; i < 4; i++) expect(run(limiter, request({ user }))).toBeUndefined();
    expect(run(limiter, request({ user }))?.status).toBe(429);
    // 2 a second on this node: one more after half a second.
    advance(500);
    expect(run(limiter, request({ user }))).toBeUndefined();
    expect(run(limiter, request({ user }))?.status).toBe(429);
  });

  it('passes everything, with no headers, when every limit is off', () => {
    const { limiter } = limiterOf({});
    const fake = request({ user: { id: 1 } });
    expect(run(limiter, fake)).toBeUndefined();
    expect(fake.res.headers).toEqual({});
  });
});

describe('TRUST_PROXY', () => {
  const proxies = new TrustedProxies(['10.0.0.0/8', '::1', '192.0.2.10']);

  it('reads X-Forwarded-For only from a trusted peer, from the right, up to the first address it does not trust', () => {
    expect(proxies.clientOf('203.0.113.5', '198.51.100.1')).toBe('203.0.113.5');
    expect(proxies.clientOf('10.1.2.3', '198.51.100.1')).toBe('198.51.100.1');
    expect(proxies.clientOf('::ffff:10.1.2.3', 'spoofed, 198.51.100.1, 10.9.9.9')).toBe('198.51.100.1');
    expect(proxies.clientOf('::1', ['198.51.100.1', '192.0.2.10'])).toBe('198.51.100.1');
    expect(proxies.clientOf('10.1.2.3', '10.2.2.2, 10.3.3.3')).toBe('10.2.2.2');
    expect(proxies.clientOf('10.1.2.3', undefined)).toBe('10.1.2.3');
    // A malformed hop ends the walk where it is: what lies left of it is the client's word.
    expect(proxies.clientOf('10.1.2.3', '198.51.100.1, not-an-address')).toBe('10.1.2.3');
  });

  it('is read by the configuration, which refuses what is not an address or a block', () => {
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, ::1 ' }).trustProxy).toEqual(['10.0.0.0/8', '::1']);
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY/);
  });
});

describe('RATE_LIMIT_* and RATE_LIMITS', () => {
  it('have the documented defaults', () => {
    expect(loadConfig({}).rateLimits).toEqual({
      downloads: { perSecond: 500, burst: 5000 },
      reads: { perSecond: 100, burst: 500 },
      writes: { perSecond: 50, burst: 200 },
      logins: { perSecond: 5, burst: 20 },
      perAddress: { perSecond: 1000, burst: 5000 },
    });
  });

  it('read <per second>:<burst> with a decimal rate; 0 switches one off, RATE_LIMITS=off all', () => {
    const c = loadConfig({ RATE_LIMIT_READS: '0.5:10', RATE_LIMIT_WRITES: '0', RATE_LIMIT_PER_ADDRESS: 'off' });
    expect(c.rateLimits).toMatchObject({ reads: { perSecond: 0.5, burst: 10 }, writes: undefined, perAddress: undefined });
    expect(loadConfig({ RATE_LIMITS: 'off' }).rateLimits).toBeUndefined();
    expect(loadConfig({ RATE_LIMITS: '0' }).rateLimits).toBeUndefined();
    for (const bad of ['10', '10:0', '0:10', 'x:1', '-1:5', '1:5:6']) {
      expect(() => loadConfig({ RATE_LIMIT_DOWNLOADS: bad }), bad).toThrow(/RATE_LIMIT_DOWNLOADS must be <per second>:<burst>/);
    }
  });
});

describe("the code-block API's 429 and 503", () => {
  const render = (gen: '5' | '4' | '3.4', status: number, path: string) => {
    const sent: { body?: string; headers: Record<string, string> } = { headers: {} };
    const res = { setHeader: (n: string, v: string) => (sent.headers[n] = v), send: (b: string) => (sent.body = b) } as unknown as Response;
    createCodeblocksErrorRenderer(generationOf(gen))(new AppError(status, 'X', 'Come back in 2 seconds.'), { path } as Request, res);
    return sent;
  };

  it('answer the message in text, and the generation key with the message in XML and JSON', () => {
    expect(render('5', 429, '/download_code/plain_text').body).toBe('Come back in 2 seconds.\n');
    expect(render('4', 429, '/download_list/json').body).toBe('{"error":"429_TOO_MANY_REQUESTS","message":"Come back in 2 seconds."}');
    expect(render('3.4', 429, '/download_list/json').body).toBe('{"error":"429 TOO MANY REQUESTS","message":"Come back in 2 seconds."}');
    expect(render('5', 503, '/download_list/xml').body).toContain('<error>503_SERVICE_UNAVAILABLE</error><message>Come back in 2 seconds.</message>');
  });
});
