import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../helpers/test-app.ts';
import { decideView } from '../../../src/wiki/content-access.ts';
import type { AuthUser } from '../../../src/platform/auth/auth-user.ts';
import { authUserOf } from '../../helpers/directory-fixtures.ts';
import { WikiFixtures } from '../../helpers/wiki-fixtures.ts';

// decideView against a wiki built through the REST surface: every edge case of rule 4, asked of the function itself.
const t = useTestApp();
const ids: Record<string, number> = {};
const users: Record<string, AuthUser> = {};

async function userFor(name: string, groups: string[] = [], admin = false): Promise<AuthUser> {
  await t.createUser(name, { groups, admin });
  return authUserOf(t.services, name);
}

beforeAll(async () => {
  users.reader = await userFor('ca-reader', ['ca-readers']);
  users.member = await userFor('ca-member', ['ca-readers', 'ca-team']);
  users.direct = await userFor('ca-direct');
  users.outsider = await userFor('ca-outsider');
  users.admin = await userFor('ca-admin', [], true);
  const fx = new WikiFixtures(t);
  const space = await fx.space('CA', { groups: ['ca-readers'], users: ['ca-direct'] }, { users: ['ca-outsider'] }, 'Content access');
  const content = async (key: string, c: { type?: 'page' | 'blogpost' | 'comment'; title?: string; parent?: string; container?: string }) => {
    ids[key] = await fx.content({
      space,
      type: c.type,
      title: c.title,
      parentId: c.parent === undefined ? undefined : ids[c.parent],
      containerId: c.container === undefined ? undefined : ids[c.container],
    });
  };
  await content('root', { title: 'Root' });
  await content('secret', { title: 'Secret', parent: 'root' });
  await content('child', { title: 'Child', parent: 'secret' });
  await content('grandchild', { title: 'Grandchild', parent: 'child' });
  await content('comment', { type: 'comment', container: 'grandchild' });
  await content('blog', { type: 'blogpost', title: 'Blog' });
  await content('blogComment', { type: 'comment', container: 'blog' });
  await content('gone', { title: 'Gone', parent: 'root' });
  await content('underGone', { title: 'Under gone', parent: 'gone' });
  await content('commentOfUnderGone', { type: 'comment', container: 'underGone' });
  await content('commentOfGone', { type: 'comment', container: 'gone' });
  // Restrictions and the trash last: the fixtures' author must view what it writes.
  await fx.restrict(ids.secret!, { groups: ['ca-team'], users: ['ca-admin'] });
  await fx.restrict(ids.blog!, { users: ['ca-direct'] });
  await fx.trash(ids.gone!);
}, 60_000);

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
    // Trashing gone left underGone and its comment current: the walk up the chain decides for them.
    expect(await t.services.db.knex('contents').whereIn('id', [ids.underGone!, ids.commentOfUnderGone!]).pluck('status')).toEqual(['current', 'current']);
    for (const key of ['gone', 'underGone', 'commentOfUnderGone', 'commentOfGone']) {
      expect((await decideView(t.services.db.knex, users.reader, ids[key]!)).state, key).toBe('trashed');
    }
  });
});
