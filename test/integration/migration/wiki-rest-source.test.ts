// The live wiki source (src/migration/wiki-rest) against a second wiki of ours served on a real port: the
// bundles it yields are what was seeded there (spaces, the page tree, blog post, comments, versions, the view
// restriction with its users and group members, bodies); wrong credentials, an unreachable URL and an HTML
// answer are one-line errors without the credentials. Also the wiki's group-member read it relies on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceAuth } from '../../../src/migration/source-http.ts';
import { openWikiRest } from '../../../src/migration/wiki-rest/wiki-rest-source.ts';
import type { SourceSpaceBundle, WikiSource } from '../../../src/migration/wiki/space-model.ts';
import { ADMIN, useTestApp } from '../../helpers/test-app.ts';
import { htmlServer, listenOn, seedSourceWiki, type SeededWiki } from '../../helpers/wiki-rest-seed.ts';

const src = useTestApp();
let server: { url: string; close(): Promise<void> };
let seed: SeededWiki;
const progress: string[] = [];

beforeAll(async () => {
  server = await listenOn(src);
  seed = await seedSourceWiki(src);
});
afterAll(async () => server?.close());

const open = (auth: SourceAuth = { user: ADMIN.name, password: ADMIN.password }) => openWikiRest({ url: server.url, auth, progress: (m) => progress.push(m) });

async function all(source: WikiSource, keys?: string[]): Promise<SourceSpaceBundle[]> {
  const out: SourceSpaceBundle[] = [];
  for await (const b of source.spaces(keys)) out.push(b);
  return out;
}

const stored = async (id: number) =>
  (await src.http.get(`/rest/api/content/${id}?expand=body.storage`).set('Authorization', src.adminAuth).expect(200)).body.body.storage.value as string;

describe('openWikiRest', () => {
  it('yields the seeded space: its content in writer order, versions, restriction, users, group members and bodies', async () => {
    const source = await open();
    expect(source.label).toBe(`wiki ${server.url}`);
    const [bundle, ...rest] = await all(source, [seed.keys.main]);
    expect(rest).toEqual([]);
    const { ids } = seed;
    expect(bundle!.space).toEqual({ id: expect.any(Number), key: seed.keys.main, name: 'Live source', description: 'Seeded for the live source' });
    const shape = bundle!.content.map((c) => [c.id, c.type, c.title, c.parentId, c.containerId, c.version]);
    expect(shape).toEqual([
      [ids.root, 'page', 'Root', undefined, undefined, 2],
      [ids.child, 'page', 'Child', ids.root, undefined, 1],
      [ids.grandchild, 'page', 'Grandchild', ids.child, undefined, 1],
      [ids.blog, 'blogpost', 'News', undefined, undefined, 1],
      [ids.rootComment, 'comment', expect.any(String), undefined, ids.root, 1],
      [ids.blogComment, 'comment', expect.any(String), undefined, ids.blog, 1],
    ]);
    const byId = new Map(bundle!.content.map((c) => [c.id, c]));
    const child = byId.get(ids.child)!;
    expect({ users: [...child.viewRestrictions!.users].sort(), groups: child.viewRestrictions!.groups }).toEqual({
      users: ['admin', seed.users.only].sort(),
      groups: [seed.team],
    });
    expect(byId.get(ids.root)!.viewRestrictions).toBeUndefined();
    // The creator and dates are the wiki's (expand=history), also for a page edited since.
    expect(child.creator).toBe('admin');
    expect(byId.get(ids.root)!.creator).toBe('admin');
    expect(byId.get(ids.root)!.createdAt!.getTime()).toBeLessThanOrEqual(byId.get(ids.root)!.updatedAt!.getTime());
    expect(child.createdAt).toBeInstanceOf(Date);
    expect(byId.get(ids.root)!.updatedAt).toBeInstanceOf(Date);
    expect(bundle!.groups).toEqual([{ name: seed.team, members: [seed.users.member, seed.users.reader].sort() }]);
    expect(bundle!.users.map((u) => u.name).sort()).toEqual(['admin', seed.users.member, seed.users.only, seed.users.reader].sort());
    expect(bundle!.notImported).toEqual({ 'historical versions': 1 });
    for (const id of Object.values(ids).filter((i) => i !== ids.otherPage)) expect(await bundle!.body(id)).toBe(await stored(id));
    expect(await bundle!.body(ids.root)).toContain('Root page, edited');
    // A body the lists did not keep is read on demand.
    expect(await bundle!.body(ids.otherPage)).toBe(await stored(ids.otherPage));
    await source.close();
  });

  it('reads every space the user may read when no key is given, and skips a key the wiki does not hold', async () => {
    const source = await open();
    const keys = (await all(source)).map((b) => b.space.key);
    expect(keys).toEqual(expect.arrayContaining([seed.keys.main, seed.keys.other]));
    const picked = await all(source, ['NOSUCHSPACE', seed.keys.other]);
    expect(picked.map((b) => [b.space.key, b.content.map((c) => c.id)])).toEqual([[seed.keys.other, [seed.ids.otherPage]]]);
    expect(progress).toContain(`space NOSUCHSPACE: not found on wiki ${server.url}`);
  });

  it('leaves out what its user may not view, as the wiki does', async () => {
    const source = await open({ user: seed.users.member, password: `${seed.users.member}-pw` });
    const [bundle] = await all(source, [seed.keys.main]);
    // The member is in the restriction's group, so it sees the child; the group's members are for administrators.
    expect(bundle!.content.map((c) => c.id)).toContain(seed.ids.child);
    expect(bundle!.groups).toEqual([{ name: seed.team, members: [] }]);
    expect(bundle!.notImported['group members (the source did not let them be read)']).toBe(1);
    const outsider = await open({ user: seed.users.only, password: `${seed.users.only}-pw` });
    expect(await all(outsider, [seed.keys.main])).toEqual([]);
  });

  it('answers a refused password, an unreachable URL and an HTML page with one line that holds no credential', async () => {
    const secret = 'not-the-password-4711';
    const refused = await open({ user: 'admin', password: secret }).then(() => undefined, (e: Error) => e);
    expect(refused?.message).toMatch(/refused the credentials \(401\)/);
    const unreachable = await openWikiRest({ url: 'http://127.0.0.1:1', auth: { token: secret }, progress: () => undefined }).then(() => undefined, (e: Error) => e);
    expect(unreachable?.message).toMatch(/^could not reach http:\/\/127\.0\.0\.1:1/);
    const html = await htmlServer();
    try {
      const wrong = await openWikiRest({ url: html.url, auth: { token: secret }, progress: () => undefined }).then(() => undefined, (e: Error) => e);
      expect(wrong?.message).toMatch(/answered an HTML page where JSON was expected/);
      for (const e of [refused, unreachable, wrong]) {
        expect(e?.message).not.toContain('\n');
        expect(e?.message).not.toContain(secret);
      }
    } finally {
      await html.close();
    }
  });
});

describe('GET /rest/api/group/{groupName}/member', () => {
  it('pages the members for administrators; 403 for others, 404 for an unknown group, 401 anonymous', async () => {
    const first = await src.http.get(`/rest/api/group/${seed.team}/member?limit=1`).set('Authorization', src.adminAuth).expect(200);
    expect(first.body).toMatchObject({ start: 0, limit: 1, size: 1, results: [{ type: 'known', username: [seed.users.member, seed.users.reader].sort()[0] }] });
    expect(first.body._links.next).toBe(`/rest/api/group/${seed.team}/member?limit=1&start=1`);
    const second = await src.http.get(first.body._links.next as string).set('Authorization', src.adminAuth).expect(200);
    expect(second.body.results).toHaveLength(1);
    expect(second.body._links.next).toBeUndefined();
    const member = `Basic ${Buffer.from(`${seed.users.member}:${seed.users.member}-pw`).toString('base64')}`;
    await src.http.get(`/rest/api/group/${seed.team}/member`).set('Authorization', member).expect(403);
    await src.http.get('/rest/api/group/no-such-group/member').set('Authorization', src.adminAuth).expect(404);
    await src.http.get(`/rest/api/group/${seed.team}/member`).expect(401);
  });
});
