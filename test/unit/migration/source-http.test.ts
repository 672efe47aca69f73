// The live sources' HTTP client (issue 31): the credential as a header and never in a message, one-line
// errors per cause, paging in both dialects (tracker startAt/maxResults, wiki start/limit), redirects kept
// on the source's host, and the timeout. A stand-in fetch answers, so nothing listens on a port.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SourceClient, SourceHttpError, isNotFound, parseSourceUrl } from '../../../src/migration/source-http.ts';

type Answer = { status?: number; type?: string; body?: string; location?: string };
const json = (v: unknown, status = 200): Answer => ({ status, type: 'application/json', body: JSON.stringify(v) });

/** A client whose fetch answers from `route` and records each request's URL and Authorization header. */
function client(route: (url: URL) => Answer | Promise<Answer>, auth: ConstructorParameters<typeof SourceClient>[0]['auth'] = { token: 'tok-SECRET-123' }) {
  const seen: { url: string; auth: string | null }[] = [];
  const fetchImpl = (async (input: URL, init?: RequestInit) => {
    const url = new URL(input);
    seen.push({ url: url.href, auth: new Headers(init?.headers).get('authorization') });
    const a = await route(url);
    const headers: Record<string, string> = {};
    if (a.type) headers['content-type'] = a.type;
    if (a.location) headers.location = a.location;
    return new Response(a.body ?? null, { status: a.status ?? 200, headers });
  }) as typeof fetch;
  return { c: new SourceClient({ url: 'https://tracker.example/jira', auth, fetchImpl, timeoutMs: 200 }), seen };
}

async function failure(p: Promise<unknown>): Promise<SourceHttpError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(SourceHttpError);
  const e = err as SourceHttpError;
  expect(e.message).not.toMatch(/\n/);
  expect(e.message).not.toContain('SECRET');
  return e;
}

describe('SourceClient', () => {
  it('sends the token or Basic credential and resolves paths under the base URL (context path kept)', async () => {
    const { c, seen } = client(() => json({ ok: true }));
    expect(await c.getJson('/rest/api/2/field', { a: 1, b: undefined })).toEqual({ ok: true });
    expect(seen[0]).toEqual({ url: 'https://tracker.example/jira/rest/api/2/field?a=1', auth: 'Bearer tok-SECRET-123' });
    const basic = client(() => json([]), { user: 'admin', password: 'pw-SECRET' });
    await basic.c.getJson('x');
    expect(basic.seen[0]!.auth).toBe(`Basic ${Buffer.from('admin:pw-SECRET').toString('base64')}`);
  });

  it('names each cause in one line, without the credential', async () => {
    expect((await failure(client(() => ({ status: 401 })).c.getJson('x'))).message).toBe('https://tracker.example refused the credentials (401)');
    expect((await failure(client(() => ({ status: 403 })).c.getJson('x'))).kind).toBe('forbidden');
    const missing = await failure(client(() => ({ status: 404 })).c.getJson('x'));
    expect(isNotFound(missing)).toBe(true);
    const html = await failure(client(() => ({ type: 'text/html', body: '<html>login</html>' })).c.getJson('x'));
    expect(html.message).toBe("https://tracker.example/jira/x answered an HTML page where JSON was expected (is the URL the site's base URL?)");
    const garbled = await failure(client(() => ({ type: 'application/json', body: '{oops' })).c.getJson('x'));
    expect(garbled.kind).toBe('not-json');
    // An error body that echoes the credential still does not carry it out.
    const echoed = await failure(client(() => json({ errorMessages: ['bad token tok-SECRET-123'] }, 500)).c.getJson('x'));
    expect(echoed.message).toBe('https://tracker.example/jira/x answered 500: bad token ***');
    const shape = await failure(client(() => json({ id: 'x' })).c.getJson('x', undefined, z.object({ id: z.number() })));
    expect(shape.message).toMatch(/^https:\/\/tracker\.example\/jira\/x answered an unexpected shape at id: /);
  });

  it('reports an unreachable host and a timeout', async () => {
    const refused = client(() => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    });
    expect((await failure(refused.c.getJson('x'))).message).toBe('could not reach https://tracker.example: ECONNREFUSED');
    const blocked = new SourceClient({ url: 'http://127.0.0.1:9/', auth: { token: 'tok-SECRET-123' } });
    expect((await failure(blocked.getJson('x'))).message).toBe('could not reach http://127.0.0.1:9: port 9 is one that HTTP clients refuse to use');
    const fetchImpl = (async (_u: URL, init?: RequestInit) =>
      new Promise((_r, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))) as typeof fetch;
    const timed = new SourceClient({ url: 'https://tracker.example', auth: { token: 'tok-SECRET-123' }, fetchImpl, timeoutMs: 50 });
    expect((await failure(timed.getJson('x'))).kind).toBe('timeout');
  });

  it('sends a GET again when a kept-alive connection was dropped under it, but not when the host refuses', async () => {
    let calls = 0;
    const flaky = client(() => {
      calls += 1;
      if (calls === 1) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
      return json({ ok: calls });
    });
    expect(await flaky.c.getJson('x')).toEqual({ ok: 2 });
    let refusals = 0;
    const refused = client(() => {
      refusals += 1;
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    });
    await failure(refused.c.getJson('x'));
    expect(refusals).toBe(1);
    const dropped = client(() => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'UND_ERR_SOCKET' } });
    });
    expect((await failure(dropped.c.getJson('x'))).message).toBe('could not reach https://tracker.example: UND_ERR_SOCKET');
    expect(dropped.seen).toHaveLength(3);
  });

  it('follows a redirect on the same host, refuses one to another host or to a login page', async () => {
    const same = client((u) => (u.pathname.endsWith('/old') ? { status: 302, location: '/jira/new' } : json({ at: u.pathname })));
    expect(await same.c.getJson('old')).toEqual({ at: '/jira/new' });
    const away = client(() => ({ status: 302, location: 'https://elsewhere.example/x' }));
    expect((await failure(away.c.getJson('x'))).message).toMatch(/redirected to https:\/\/elsewhere\.example/);
    const login = client(() => ({ status: 302, location: '/jira/login.jsp?os_destination=x' }));
    expect((await failure(login.c.getJson('x'))).kind).toBe('unauthorized');
  });

  it('issue 44: a redirect to another port or scheme of the same host is refused; the credential never leaves its origin', async () => {
    for (const location of ['https://tracker.example:8443/jira/x', 'http://tracker.example/jira/x', 'https://TRACKER.example:444/x']) {
      const hop = client((u) => (u.origin === 'https://tracker.example' ? { status: 302, location } : json({ leaked: true })));
      expect((await failure(hop.c.getJson('x'))).message).toMatch(/redirected to/);
      expect(hop.seen.map((r) => new URL(r.url).origin)).toEqual(['https://tracker.example']);
    }
  });

  it('issue 44: an answer larger than the cap stops with too-large, whether announced or streamed', async () => {
    const big = 'x'.repeat(2048);
    const capped = (body: string) => {
      const fetchImpl = (async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
      return new SourceClient({ url: 'https://tracker.example/', auth: { token: 'tok-SECRET-123' }, fetchImpl, maxAnswerBytes: 1024 });
    };
    expect((await failure(capped(JSON.stringify(big)).getJson('x'))).kind).toBe('too-large');
    // A stream without a length: read until the cap, then stopped.
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new TextEncoder().encode(big));
      },
    });
    const fetchImpl = (async () => new Response(endless, { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
    const c = new SourceClient({ url: 'https://tracker.example/', auth: { token: 'tok-SECRET-123' }, fetchImpl, maxAnswerBytes: 64 * 1024 });
    expect((await failure(c.getJson('x'))).kind).toBe('too-large');
    expect(pulled).toBeLessThan(100);
    expect(await capped('{"small":true}').getJson('x')).toEqual({ small: true });
  });

  it('pages through tracker (isLast, total) and wiki (_links.next) collections, counting what came', async () => {
    const items = Array.from({ length: 7 }, (_, i) => ({ n: i }));
    // The source caps pages at 3, below the 5 asked for.
    const tracker = client((u) => {
      const start = Number(u.searchParams.get('startAt'));
      return json({ values: items.slice(start, start + 3), isLast: start + 3 >= items.length });
    });
    const got: number[] = [];
    for await (const i of tracker.c.paged<{ n: number }>('list', { pageSize: 5, items: (b) => (b as { values: { n: number }[] }).values })) got.push(i.n);
    expect(got).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(tracker.seen.map((s) => new URL(s.url).searchParams.get('startAt'))).toEqual(['0', '3', '6']);
    const wiki = client((u) => {
      const start = Number(u.searchParams.get('start'));
      const page = items.slice(start, start + 2);
      return json({ results: page, _links: start + 2 < items.length ? { next: '/more' } : {} });
    });
    const all: number[] = [];
    const opts = { startParam: 'start', limitParam: 'limit', pageSize: 2, items: (b: unknown) => (b as { results: { n: number }[] }).results };
    for await (const i of wiki.c.paged<{ n: number }>('content', opts)) all.push(i.n);
    expect(all).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('refuses a URL with credentials in it or of another scheme, without echoing them', () => {
    expect(() => parseSourceUrl('https://admin:pw-SECRET@tracker.example/')).toThrow('the source URL must not hold credentials: use --token or --user');
    expect(() => parseSourceUrl('ftp://tracker.example/')).toThrow(/http or https/);
    expect(() => parseSourceUrl('not a url')).toThrow(/^not a valid URL/);
    expect(parseSourceUrl('https://tracker.example/jira?x=1').href).toBe('https://tracker.example/jira/');
  });
});
