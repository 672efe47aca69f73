// The list of content that holds code boxes (`/content_list/json`, this server's own): only content the caller
// may view, narrowed by the wiki's one view rule; restricted, trashed and unreadable content never shows.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { WikiFixtures } from '../../helpers/wiki-fixtures.ts';

const LIST = '/rest/advancedcodeblocks/1/content_list/json';
const BOX = '[a]\nx = 1\n[content]\n${x}\n';

interface Listed {
  results: { contentId: number; contentTitle: string; contentType: string; codeBoxes: number; container?: { contentId: number; contentTitle: string; contentType: string } }[];
  start: number;
  limit: number;
  size: number;
  isLastPage: boolean;
}

describe('content that holds code boxes', () => {
  const t = useTestApp();
  let fx: WikiFixtures;
  let reader: TestUser, insider: TestUser, outsider: TestUser;
  let plain: number, boxed: number, twice: number, secret: number, secretChild: number, comment: number, secretComment: number, trashed: number;

  beforeAll(async () => {
    fx = new WikiFixtures(t);
    reader = await t.createUser('cl-reader', { groups: ['cl-team'] });
    insider = await t.createUser('cl-insider', { groups: ['cl-team'] });
    outsider = await t.createUser('cl-outsider');
    await fx.space('CL', { groups: ['cl-team'] }, { users: ['cl-insider'] });
    plain = await fx.content({ space: 'CL', title: 'No boxes' });
    boxed = await fx.content({ space: 'CL', title: 'One box' });
    await fx.codebox(boxed, 'advanced-codeblock-macro', BOX);
    twice = await fx.content({ space: 'CL', title: 'Two boxes' });
    await fx.codebox(twice, 'advanced-single-codeblock-macro', 'echo 1\n');
    await fx.codebox(twice, 'advanced-codeblock-macro', BOX);
    secret = await fx.content({ space: 'CL', title: 'Secret box' });
    await fx.codebox(secret, 'advanced-codeblock-macro', BOX);
    // A child page of a restricted page is restricted by its parent (no restriction of its own).
    secretChild = await fx.content({ space: 'CL', title: 'Secret child', parentId: secret });
    await fx.codebox(secretChild, 'advanced-codeblock-macro', BOX);
    comment = await fx.content({ space: 'CL', type: 'comment', containerId: boxed });
    await fx.codebox(comment, 'advanced-codeblock-macro', BOX);
    await fx.content({ space: 'CL', type: 'comment', containerId: plain });
    secretComment = await fx.content({ space: 'CL', type: 'comment', containerId: secret });
    await fx.codebox(secretComment, 'advanced-codeblock-macro', BOX);
    await fx.restrict(secret, { users: ['cl-insider'] });
    trashed = await fx.content({ space: 'CL', title: 'Trashed box' });
    await fx.codebox(trashed, 'advanced-codeblock-macro', BOX);
    await fx.trash(trashed);
  });

  const list = async (user: TestUser, query: Record<string, string>) =>
    (await t.http.get(LIST).query(query).set('Authorization', user.auth).expect(200).expect('content-type', 'application/json; charset=utf-8')).body as Listed;
  const ids = (l: Listed) => l.results.map((r) => r.contentId);

  it('lists the pages that hold boxes, by id, with their number of boxes', async () => {
    const l = await list(reader, { spaceKey: 'CL' });
    expect(l.results).toEqual([
      { contentId: boxed, contentTitle: 'One box', contentType: 'page', codeBoxes: 1 },
      { contentId: twice, contentTitle: 'Two boxes', contentType: 'page', codeBoxes: 2 },
    ]);
    expect(l).toMatchObject({ start: 0, limit: 25, size: 2, isLastPage: true });
  });

  it('lists the comments that hold boxes with their page', async () => {
    const l = await list(reader, { spaceKey: 'CL', type: 'comment' });
    expect(l.results).toEqual([
      { contentId: comment, contentTitle: 'Re: One box', contentType: 'comment', codeBoxes: 1, container: { contentId: boxed, contentTitle: 'One box', contentType: 'page' } },
    ]);
  });

  it("never reveals a restricted page's boxes (nor its child's and comment's) to a user who may not read it", async () => {
    expect(ids(await list(reader, { spaceKey: 'CL' }))).not.toContain(secret);
    expect(ids(await list(reader, { spaceKey: 'CL' }))).not.toContain(secretChild);
    expect(ids(await list(reader, { spaceKey: 'CL', type: 'comment' }))).not.toContain(secretComment);
    // The user named in the restriction sees them; the same rule, not a second one.
    expect(ids(await list(insider, { spaceKey: 'CL' }))).toEqual([boxed, twice, secret, secretChild]);
    expect(ids(await list(insider, { spaceKey: 'CL', type: 'comment' }))).toEqual([comment, secretComment]);
  });

  it('lists nothing in a space the caller may not read, and never trashed content', async () => {
    expect(await list(outsider, { spaceKey: 'CL' })).toMatchObject({ results: [], size: 0, isLastPage: true });
    expect(await list(outsider, { spaceKey: 'NOSUCH' })).toMatchObject({ results: [], size: 0 });
    expect(ids(await list(insider, { spaceKey: 'CL' }))).not.toContain(trashed);
  });

  it('pages by id', async () => {
    const first = await list(insider, { spaceKey: 'CL', limit: '3' });
    expect(first).toMatchObject({ start: 0, limit: 3, size: 3, isLastPage: false });
    const next = await list(insider, { spaceKey: 'CL', limit: '3', start: '3' });
    expect(next).toMatchObject({ start: 3, size: 1, isLastPage: true });
    expect([...ids(first), ...ids(next)]).toEqual([boxed, twice, secret, secretChild]);
  });

  it('forgets a page whose boxes were removed', async () => {
    const gone = await fx.content({ space: 'CL', title: 'Box removed' });
    await fx.codebox(gone, 'advanced-codeblock-macro', BOX);
    expect(ids(await list(reader, { spaceKey: 'CL' }))).toContain(gone);
    const current = await t.http.get(`/rest/api/content/${gone}?expand=version`).set('Authorization', insider.auth).expect(200);
    await t.http
      .put(`/rest/api/content/${gone}`)
      .set('Authorization', insider.auth)
      .send({ version: { number: current.body.version.number + 1 }, body: { storage: { value: '<p>no box</p>', representation: 'storage' } } })
      .expect(200);
    expect(ids(await list(reader, { spaceKey: 'CL' }))).not.toContain(gone);
  });

  it.each([
    [{ type: 'page' }, 'spaceKey is required'],
    [{ spaceKey: 'C-L' }, 'spaceKey must be 1-255 letters or digits'],
    [{ spaceKey: 'CL', type: 'folder' }, 'type must be page, blogpost or comment'],
    [{ spaceKey: 'CL', limit: '101' }, 'limit must be from 1 to 100'],
    [{ spaceKey: 'CL', limit: '0' }, 'limit must be from 1 to 100'],
    [{ spaceKey: 'CL', start: '-1' }, 'start must be a whole number'],
  ])('answers the API\'s parameter error to %o', async (query, extraMessage) => {
    const res = await t.http.get(LIST).query(query).set('Authorization', reader.auth).expect(500);
    expect(res.body).toEqual({ error: '500_ERROR_INVALID_URL_PARAMETER_EXCEPTION', message: 'Did you provide valid URL-Parameters?', extraMessage });
  });

  it('answers a repeated parameter and a missing user with the API\'s errors', async () => {
    const twiceGiven = await t.http.get(`${LIST}?spaceKey=CL&spaceKey=X`).set('Authorization', reader.auth).expect(500);
    expect(twiceGiven.body.extraMessage).toBe('spaceKey must be given once');
    await t.http.get(`${LIST}?spaceKey=CL`).expect(401);
  });
});
