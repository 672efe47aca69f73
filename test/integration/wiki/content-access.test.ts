import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { decideView } from '../../../src/wiki/content-access.ts';
import type { AuthUser } from '../../../src/platform/auth/auth-user.ts';

// decideView straight against the tables: every edge case of rule 4 without going through REST.
let t: TestApp;
const ids: Record<string, number> = {};
const users: Record<string, AuthUser> = {};

async function userFor(name: string, groups: string[] = [], admin = false): Promise<AuthUser> {
  await t.createUser(name, { groups, admin });
  const row = await t.services.directory.getUser(name);
  return { id: row.id, name, displayName: name, email: '', active: true, groups: row.groups, isAdmin: admin, isSystemAdmin: false, via: 'basic' };
}

async function insertContent(key: string, c: { type: string; title: string; parent?: string; container?: string; status?: string }) {
  const k = t.services.db.knex;
  const space = (await k('spaces').where({ key: 'CA' }).first()) as { id: number };
  const [row] = await k('contents')
    .insert({
      type: c.type,
      title: c.title,
      space_id: space.id,
      parent_id: c.parent ? ids[c.parent] : null,
      container_id: c.container ? ids[c.container] : null,
      status: c.status ?? 'current',
      body: '<p/>',
    })
    .returning('id');
  ids[key] = (row as { id: number }).id;
}

beforeAll(async () => {
  t = await createTestApp();
  const k = t.services.db.knex;
  users.reader = await userFor('ca-reader', ['ca-readers']);
  users.member = await userFor('ca-member', ['ca-readers', 'ca-team']);
  users.direct = await userFor('ca-direct');
  users.outsider = await userFor('ca-outsider');
  users.admin = await userFor('ca-admin', [], true);
  const [space] = await k('spaces').insert({ key: 'CA', name: 'Content access' }).returning('id');
  const spaceId = (space as { id: number }).id;
  const grp = (await k('groups').where({ name_key: 'ca-readers' }).first()) as { id: number };
  await k('space_permissions').insert([
    { space_id: spaceId, group_id: grp.id, operation: 'read', target: 'space' },
    { space_id: spaceId, user_id: users.direct!.id, operation: 'read', target: 'space' },
    { space_id: spaceId, user_id: users.outsider!.id, operation: 'create', target: 'space' },
  ]);
  await insertContent('root', { type: 'page', title: 'Root' });
  await insertContent('secret', { type: 'page', title: 'Secret', parent: 'root' });
  await insertContent('child', { type: 'page', title: 'Child', parent: 'secret' });
  await insertContent('grandchild', { type: 'page', title: 'Grandchild', parent: 'child' });
  await insertContent('comment', { type: 'comment', title: 'Re: Grandchild', container: 'grandchild' });
  await insertContent('blog', { type: 'blogpost', title: 'Blog' });
  await insertContent('blogComment', { type: 'comment', title: 'Re: Blog', container: 'blog' });
  await insertContent('gone', { type: 'page', title: 'Gone', parent: 'root', status: 'trashed' });
  await insertContent('underGone', { type: 'page', title: 'Under gone', parent: 'gone' });
  await insertContent('commentOfGone', { type: 'comment', title: 'Re: Gone', container: 'gone' });
  const team = (await k('groups').where({ name_key: 'ca-team' }).first()) as { id: number };
  await k('content_read_restrictions').insert([
    { content_id: ids.secret, group_id: team.id },
    { content_id: ids.secret, user_id: users.admin!.id },
    { content_id: ids.blog, user_id: users.direct!.id },
  ]);
}, 60_000);

afterAll(async () => {
  await t.close();
});

describe('decideView', () => {
  it('allows a group reader on an unrestricted page and describes the content', async () => {
    const d = await decideView(t.services.db.knex, users.reader, ids.root!);
    expect(d).toEqual({
      state: 'allowed',
      content: { id: ids.root, type: 'page', title: 'Root', spaceKey: 'CA', spaceName: 'Content access' },
    });
  });

  it('allows a reader named directly on the space', async () => {
    expect((await decideView(t.services.db.knex, users.direct, ids.root!)).state).toBe('allowed');
  });

  it('denies users without read on the space (create alone is not read), admins included', async () => {
    expect((await decideView(t.services.db.knex, users.outsider, ids.root!)).state).toBe('denied');
    expect((await decideView(t.services.db.knex, users.admin, ids.root!)).state).toBe('denied');
  });

  it('denies anonymous callers and reports missing content', async () => {
    expect((await decideView(t.services.db.knex, undefined, ids.root!)).state).toBe('denied');
    expect((await decideView(t.services.db.knex, users.reader, 999999)).state).toBe('missing');
    expect((await decideView(t.services.db.knex, users.reader, -1)).state).toBe('missing');
  });

  it('a restriction on an ancestor hides every descendant and their comments', async () => {
    for (const key of ['secret', 'child', 'grandchild', 'comment']) {
      expect((await decideView(t.services.db.knex, users.reader, ids[key]!)).state, key).toBe('denied');
      expect((await decideView(t.services.db.knex, users.member, ids[key]!)).state, key).toBe('allowed');
    }
  });

  it('restriction membership alone does not grant view without space read', async () => {
    expect((await decideView(t.services.db.knex, users.admin, ids.secret!)).state).toBe('denied');
  });

  it('a blog post follows the space permission and its own restriction; its comment follows it', async () => {
    expect((await decideView(t.services.db.knex, users.direct, ids.blog!)).state).toBe('allowed');
    expect((await decideView(t.services.db.knex, users.direct, ids.blogComment!)).state).toBe('allowed');
    expect((await decideView(t.services.db.knex, users.member, ids.blog!)).state).toBe('denied');
    expect((await decideView(t.services.db.knex, users.member, ids.blogComment!)).state).toBe('denied');
  });

  it('trashed content, its descendants and its comments are trashed for everybody', async () => {
    for (const key of ['gone', 'underGone', 'commentOfGone']) {
      expect((await decideView(t.services.db.knex, users.reader, ids[key]!)).state, key).toBe('trashed');
    }
  });
});
