// A second wiki of ours as the live source of the wiki-rest tests (issue 31): the test app served on a real
// port (the source reads it with fetch), and a seeded state made through its REST as a client would: two
// spaces, a page tree with a code box and an edit, a blog post, comments, a view restriction naming users and
// a group with members. `seedSourceWiki` answers what it made, for the tests to compare the bundles with.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestListener } from '../../src/app.ts';
import { createHttpServer } from '../../src/server.ts';
import { uniq, type TestApp } from './test-app.ts';
import { codeboxMacro, createContent, createSpace, grantSpace, restrictContent } from './wiki-fixtures.ts';

/** Serves the app on 127.0.0.1 (an ephemeral port); answers its base URL and a close. */
export async function listenOn(t: TestApp): Promise<{ url: string; close(): Promise<void> }> {
  const server = createHttpServer(createRequestListener(t.services, t.app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A server that answers every request with an HTML page (a login page, a proxy's error page). */
export async function htmlServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html><body>Log in</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export const SEED_MACRO = '6f1d2c3b-1111-4a2b-9c3d-5e6f7a8b9c0d';

export interface SeededWiki {
  keys: { main: string; other: string };
  team: string;
  users: { reader: string; member: string; only: string };
  ids: { root: number; child: number; grandchild: number; blog: number; rootComment: number; blogComment: number; otherPage: number };
}

/** Builds the source wiki's state as the administrator (who keeps read and create in its spaces). */
export async function seedSourceWiki(t: TestApp): Promise<SeededWiki> {
  const team = uniq('ws-team');
  const users = { reader: uniq('ws-reader'), member: uniq('ws-member'), only: uniq('ws-only') };
  await t.createUser(users.reader, { groups: [team] });
  await t.createUser(users.member, { groups: [team] });
  await t.createUser(users.only);
  const keys = { main: `WRS${Date.now().toString(36).toUpperCase()}`, other: `WRO${Date.now().toString(36).toUpperCase()}` };
  const a = t.adminAuth;
  const made = await t.http.post('/rest/api/space').set('Authorization', a).send({ key: keys.main, name: 'Live source', description: 'Seeded for the live source' });
  if (made.status !== 200) throw new Error(JSON.stringify(made.body));
  await grantSpace(t, keys.main, { group: team }, 'read');
  await createSpace(t, keys.other, { groups: [team] }, {}, 'Other space', { keepCreatorGrants: true });

  const box = codeboxMacro('advanced-codeblock-macro', '[dev]\nh = dev.local\n[content]\nhost ${h}\n', { globaltitle: 'Hosts' }, SEED_MACRO);
  const id = async (c: Parameters<typeof createContent>[2]) => Number((await createContent(t, a, c)).id);
  const root = await id({ space: keys.main, title: 'Root', body: `<p>Root page</p>${box}` });
  const edit = await t.http
    .put(`/rest/api/content/${root}`)
    .set('Authorization', a)
    .send({ type: 'page', title: 'Root', version: { number: 2 }, body: { storage: { value: `<p>Root page, edited</p>${box}`, representation: 'storage' } } });
  if (edit.status !== 200) throw new Error(JSON.stringify(edit.body));
  const child = await id({ space: keys.main, title: 'Child', parent: root, body: '<p>Child</p>' });
  const grandchild = await id({ space: keys.main, title: 'Grandchild', parent: child, body: '<p>Grandchild</p>' });
  const blog = await id({ space: keys.main, type: 'blogpost', title: 'News', body: '<p>News</p>' });
  const rootComment = await id({ space: keys.main, type: 'comment', container: root, body: '<p>On the root</p>' });
  const blogComment = await id({ space: keys.main, type: 'comment', container: blog, body: '<p>On the news</p>' });
  const otherPage = await id({ space: keys.other, title: 'Elsewhere', body: '<p>Other</p>' });
  await restrictContent(t, a, child, { users: ['admin', users.only], groups: [team] });
  return { keys, team, users, ids: { root, child, grandchild, blog, rootComment, blogComment, otherPage } };
}
