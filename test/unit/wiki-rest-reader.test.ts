// The live wiki source's reader against answers shaped as the original wiki writes them (a stand-in fetch):
// members our wiki does not write (home page, sibling position, history of a page edited by someone else,
// comment replies), a wiki that caps `limit` below what was asked, ids above 2^32 as strings, and a group whose
// members the user may not read. Also: reads that fail for a passing cause are tried again, refusals are not.
import { describe, expect, it } from 'vitest';
import { SourceClient } from '../../src/migration/source-http.ts';
import { SpaceReader, wikiList } from '../../src/migration/wiki-rest/wiki-rest-reader.ts';
import { retryingReads } from '../../src/migration/wiki-rest/retrying-reads.ts';
import { restSpace } from '../../src/migration/wiki-rest/wiki-rest.schemas.ts';
import { openWikiRest } from '../../src/migration/wiki-rest/wiki-rest-source.ts';
import { z } from 'zod';

const BASE = 'https://wiki.example.test/wiki';
const BIG = 2 ** 32 + 100;

/** Lists answer at most 2 items a page, whatever `limit` asks, with `_links.next` while more remain. */
function paged(items: unknown[], url: URL) {
  const start = Number(url.searchParams.get('start') ?? 0);
  const results = items.slice(start, start + 2);
  const more = start + 2 < items.length;
  return { results, start, limit: 2, size: results.length, _links: { base: BASE, ...(more ? { next: `${url.pathname}?start=${start + 2}` } : {}) } };
}

const content = (id: number, type: string, title: string, extra: Record<string, unknown> = {}) => ({
  id: String(id),
  type,
  status: 'current',
  title,
  version: { number: 1, when: '2024-03-01T10:00:00.000Z', by: { type: 'known', username: 'carol', displayName: 'Carol' } },
  body: { storage: { value: `<p>${title}</p>`, representation: 'storage' } },
  extensions: { position: 'none' },
  ...extra,
});

const pages = [
  content(BIG, 'page', 'Home', { extensions: { position: 0 } }),
  content(BIG + 2, 'page', 'Deep', {
    ancestors: [{ id: String(BIG) }, { id: String(BIG + 1) }],
    extensions: { position: 1 },
    version: { number: 3, when: '2024-05-01T10:00:00.000Z', by: { username: 'dave' } },
    history: { createdBy: { username: 'erin', displayName: 'Erin' }, createdDate: '2024-01-01T10:00:00.000Z' },
  }),
  content(BIG + 1, 'page', 'Middle', { ancestors: [{ id: String(BIG) }], extensions: { position: 0 } }),
];
const comments: Record<string, unknown[]> = {
  [String(BIG)]: [content(BIG + 10, 'comment', 'Re: Home'), content(BIG + 11, 'comment', 'Re: Home', { ancestors: [{ id: String(BIG + 10) }] })],
};

function fakeWiki(calls: string[]): typeof fetch {
  return (async (input: URL | string) => {
    const url = new URL(String(input));
    calls.push(`${url.pathname}${url.search}`);
    const p = url.pathname.replace('/wiki/', '/');
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (p === '/rest/api/content') return json(paged(url.searchParams.get('type') === 'page' ? pages : [], url));
    const child = /^\/rest\/api\/content\/(\d+)\/child\/comment$/.exec(p);
    if (child) return json(paged(comments[child[1]!] ?? [], url));
    if (/\/restriction\/byOperation\/read$/.test(p)) {
      const restricted = p.includes(String(BIG + 1));
      return json({ operation: 'read', restrictions: { user: { results: restricted ? [{ username: 'frank' }] : [] }, group: { results: restricted ? [{ name: 'ops' }] : [] } } });
    }
    if (p === '/rest/api/group/ops/member') return json({ statusCode: 403, message: 'Not permitted' }, 403);
    return json({ message: 'not found' }, 404);
  }) as typeof fetch;
}

describe('SpaceReader on the original wiki\'s answers', () => {
  it('reads pages parents first, positions, history, comments with replies, restrictions and an unreadable group', async () => {
    const calls: string[] = [];
    const client = new SourceClient({ url: BASE, auth: { token: 'tok-123456' }, fetchImpl: fakeWiki(calls) });
    const space = restSpace.parse({ id: 98304, key: 'OPS', name: 'Operations', description: { plain: { value: 'Runbooks', representation: 'plain' } }, homepage: { id: String(BIG) } });
    const progress: string[] = [];
    const bundle = await new SpaceReader(client, (m) => progress.push(m)).read(space);
    expect(bundle.space).toEqual({ id: 98304, key: 'OPS', name: 'Operations', description: 'Runbooks', homePageId: BIG });
    expect(bundle.content.map((c) => [c.id, c.type, c.parentId, c.containerId, c.position])).toEqual([
      [BIG, 'page', undefined, undefined, 0],
      [BIG + 1, 'page', BIG, undefined, 0],
      [BIG + 2, 'page', BIG + 1, undefined, 1],
      [BIG + 10, 'comment', undefined, BIG, undefined],
      [BIG + 11, 'comment', undefined, BIG, undefined],
    ]);
    const deep = bundle.content.find((c) => c.id === BIG + 2)!;
    expect(deep).toMatchObject({ version: 3, creator: 'erin', createdAt: new Date('2024-01-01T10:00:00.000Z'), updatedAt: new Date('2024-05-01T10:00:00.000Z') });
    expect(bundle.content.find((c) => c.id === BIG)!.creator).toBe('carol');
    expect(bundle.content.find((c) => c.id === BIG + 1)!.viewRestrictions).toEqual({ users: ['frank'], groups: ['ops'] });
    expect(bundle.groups).toEqual([{ name: 'ops', members: [] }]);
    expect(bundle.notImported).toEqual({ 'historical versions': 2, 'group members (the source did not let them be read)': 1 });
    expect(bundle.users.map((u) => u.name).sort()).toEqual(['carol', 'dave', 'erin', 'frank']);
    expect(await bundle.body(BIG + 2)).toBe('<p>Deep</p>');
    // Pages were asked 100 at a time and read whole at 2 a page; comments with depth=all under their container.
    expect(calls.filter((c) => c.startsWith('/wiki/rest/api/content?')).length).toBeGreaterThanOrEqual(3);
    expect(calls).toContain(`/wiki/rest/api/content/${BIG}/child/comment?expand=body.storage%2Cversion%2Cancestors%2Ccontainer%2Chistory&depth=all&start=0&limit=100`);
    expect(progress).toContain('space OPS: 3 pages read');
  });

  it('walks a list to the end whatever page size the wiki answers', async () => {
    const client = new SourceClient({ url: BASE, auth: { token: 'tok-123456' }, fetchImpl: fakeWiki([]) });
    const list = z.looseObject({ results: z.array(z.looseObject({ id: z.string() })), _links: z.looseObject({ next: z.string().optional() }) });
    const ids: string[] = [];
    for await (const item of wikiList(client, 'rest/api/content', { type: 'page' }, list)) ids.push(item.id);
    expect(ids).toEqual(pages.map((p) => p.id));
  });

  it('refuses an answer whose content id is not a number, in one line', async () => {
    const bad = (async () => new Response(JSON.stringify({ results: [content(1, 'page', 'x', { id: 'abc' })], _links: {} }), { headers: { 'Content-Type': 'application/json' } })) as unknown as typeof fetch;
    const client = new SourceClient({ url: BASE, auth: { token: 'tok-123456' }, fetchImpl: bad });
    const err = await new SpaceReader(client, () => undefined).read(restSpace.parse({ key: 'X', name: 'X' })).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/answered an unexpected shape at results\.0\.id: a content id must be digits/);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('retryingReads', () => {
  const statuses = (list: number[], calls: { n: number }) =>
    (async () => {
      const status = list[Math.min(calls.n++, list.length - 1)]!;
      return new Response(JSON.stringify(status === 200 ? { ok: true } : { message: 'busy' }), { status, headers: { 'Content-Type': 'application/json' } });
    }) as unknown as typeof fetch;

  it('tries a read again after a gateway or overload status, and gives up after the last pause', async () => {
    const calls = { n: 0 };
    const retries: string[] = [];
    const reads = retryingReads(new SourceClient({ url: BASE, auth: { token: 'tok-123456' }, fetchImpl: statuses([503, 502, 200], calls) }), [0, 0], (m) => retries.push(m));
    expect(await reads.getJson('rest/api/space')).toEqual({ ok: true });
    expect(calls.n).toBe(3);
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatch(/answered 503: busy; trying again in 0 s$/);
    const always = { n: 0 };
    const failing = retryingReads(new SourceClient({ url: BASE, auth: { token: 'tok-123456' }, fetchImpl: statuses([504], always) }), [0, 0]);
    await expect(failing.getJson('rest/api/space')).rejects.toThrow(/answered 504/);
    expect(always.n).toBe(3);
  });

  it('does not try a refusal or a plain error again', async () => {
    for (const status of [401, 403, 404, 500]) {
      const calls = { n: 0 };
      const reads = retryingReads(new SourceClient({ url: BASE, auth: { token: 'tok-123456' }, fetchImpl: statuses([status, 200], calls) }), [0, 0]);
      await expect(reads.getJson('rest/api/space'), String(status)).rejects.toThrow();
      expect(calls.n, String(status)).toBe(1);
    }
  });
});

describe('openWikiRest: a space that cannot be read whole', () => {
  it('is handed over as failed, with the one-line reason, and the next space is still read', async () => {
    const spaces = [
      { id: 1, key: 'BROKEN', name: 'Broken', description: { plain: { value: '', representation: 'plain' } } },
      { id: 2, key: 'FINE', name: 'Fine', description: { plain: { value: '', representation: 'plain' } } },
    ];
    const fake = (async (input: URL | string) => {
      const url = new URL(String(input));
      const p = url.pathname.replace('/wiki/', '/');
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (p === '/rest/api/space') return json({ results: spaces, start: 0, limit: 100, size: 2, _links: {} });
      const one = /^\/rest\/api\/space\/(\w+)$/.exec(p);
      if (one) return json(spaces.find((s) => s.key === one[1]));
      if (p === '/rest/api/content' && url.searchParams.get('spaceKey') === 'BROKEN') return json({ message: 'database on fire' }, 500);
      if (p === '/rest/api/content') return json({ results: url.searchParams.get('type') === 'page' ? [content(7, 'page', 'Only')] : [], start: 0, limit: 100, size: 1, _links: {} });
      if (/\/restriction\/byOperation\/read$/.test(p)) return json({ operation: 'read', restrictions: { user: { results: [] }, group: { results: [] } } });
      if (/\/child\/comment$/.test(p)) return json({ results: [], start: 0, limit: 100, size: 0, _links: {} });
      return json({ message: 'not found' }, 404);
    }) as typeof fetch;
    const source = await openWikiRest({ url: BASE, auth: { token: 'tok-123456' }, progress: () => undefined, fetchImpl: fake, retryPausesMs: [] });
    const got: { key: string; failure?: string; items: number }[] = [];
    for await (const b of source.spaces()) got.push({ key: b.space.key, ...(b.failure === undefined ? {} : { failure: b.failure }), items: b.content.length });
    expect(got).toEqual([
      { key: 'BROKEN', failure: expect.stringMatching(/answered 500: database on fire$/), items: 0 },
      { key: 'FINE', items: 1 },
    ]);
    expect(got[0]!.failure).not.toContain('tok-123456');
  });
});

describe('SpaceReader keeps what the live wiki restricts (issue 41)', () => {
  /** Page 2 is not listed (restricted to frank), page 4 neither, and the wiki will not say who may read it. */
  const listed = [
    content(1, 'page', 'Root'),
    content(3, 'page', 'Under hidden two', { ancestors: [{ id: '1' }, { id: '2' }] }),
    content(5, 'page', 'Under unknown four', { ancestors: [{ id: '1' }, { id: '4' }] }),
    content(6, 'page', 'Below five', { ancestors: [{ id: '1' }, { id: '4' }, { id: '5' }] }),
    content(7, 'page', 'Account ids only'),
  ];
  const wiki = (async (input: URL | string) => {
    const url = new URL(String(input));
    const p = url.pathname.replace('/wiki/', '/');
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (p === '/rest/api/content') return json(paged(url.searchParams.get('type') === 'page' ? listed : [], url));
    if (/\/child\/comment$/.test(p)) return json(paged([], url));
    const r = /^\/rest\/api\/content\/(\d+)\/restriction\/byOperation\/read$/.exec(p);
    const users = (list: unknown[]) => json({ operation: 'read', restrictions: { user: { results: list }, group: { results: [] } } });
    if (r?.[1] === '2') return users([{ username: 'frank' }]);
    if (r?.[1] === '4') return json({ message: 'not found' }, 404);
    if (r?.[1] === '7') return users([{ type: 'known', accountId: '5b10a2844c20165700ede21g' }]);
    if (r) return users([]);
    return json({ message: 'not found' }, 404);
  }) as typeof fetch;

  it('places a page under its nearest listed ancestor with the skipped ancestor\'s restriction, holds back what it cannot place, and keeps unnamed entries restricting', async () => {
    const client = new SourceClient({ url: BASE, auth: { token: 'tok-123456' }, fetchImpl: wiki });
    const bundle = await new SpaceReader(client, () => undefined).read(restSpace.parse({ key: 'LIVE', name: 'Live' }));
    expect(bundle.content.map((c) => c.id)).toEqual([1, 7, 3]);
    expect(bundle.content.find((c) => c.id === 3)).toMatchObject({ parentId: 1, inheritedRestrictions: [{ users: ['frank'], groups: [] }] });
    expect(bundle.content.find((c) => c.id === 7)!.viewRestrictions).toEqual({ users: [], groups: [] });
    expect(bundle.notImportedItems!.map((n) => [n.id, n.reason])).toEqual([
      [5, 'the source did not show who may read its ancestor page 4'],
      [6, 'its ancestor page 5 is held back'],
    ]);
  });
});
