// Issue 31: content ids above 2^32 (cloud wiki exports have them) are kept by the import document and served
// by every content-id path: the host REST, its restriction, the code-block downloads by pageId= (the E1 fast
// path, the lists and the old servlet's redirect). Also the migration itself: bigint columns with their
// comments, numbers (not strings) from both databases, and its way back.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../../src/importer/import.service.ts';
import { up, down } from '../../../migrations/20261127101000_content_ids_64bit.ts';
import { expectSameAnswer, startFastPathPair, type FastPathPair } from '../../helpers/fast-path-harness.ts';
import { useTestApp, uniq, type TestUser } from '../../helpers/test-app.ts';
import { createContent, keyOf } from '../../helpers/wiki-fixtures.ts';
import { expect500 } from '../codeblocks/support.ts';

const PAGE = 5_000_000_123;
const COMMENT = PAGE + 1;
const CHILD = 2 ** 32 + 5;
const BLOG = 2 ** 40 + 1;
const MACRO = randomUUID();
const E1 = '/rest/advancedcodeblocks/1/download_code/plain_text';
const E2 = '/rest/advancedcodeblocks/1/download_list/xml';
const E3 = '/rest/advancedcodeblocks/1/download_list/json';
const SERVLET = '/plugins/servlet/advanced-codeblock-macro-downloadcode';
const ID_COLUMNS = [
  ['contents', 'id'],
  ['contents', 'parent_id'],
  ['contents', 'container_id'],
  ['content_versions', 'content_id'],
  ['content_read_restrictions', 'content_id'],
  ['codeboxes', 'content_id'],
] as const;

const box = `<ac:structured-macro ac:name="advanced-codeblock-macro" ac:macro-id="${MACRO}"><ac:plain-text-body><![CDATA[[dev]\nh = dev.local\n[content]\nhost \${h}\n]]></ac:plain-text-body></ac:structured-macro>`;

const t = useTestApp();
let reader: TestUser;
let outsider: TestUser;
let space: string;

beforeAll(async () => {
  const team = uniq('ids-team');
  reader = await t.createUser(uniq('ids-reader'), { groups: [team] });
  outsider = await t.createUser(uniq('ids-outsider'), { groups: [team] });
  space = `IDS${Date.now().toString(36).toUpperCase()}`;
  const summary = await runImport(
    t.services,
    {
      spaces: [{ key: space, name: 'Big ids', permissions: [{ group: team, operation: 'read' }] }],
      content: [
        { id: PAGE, type: 'page', title: 'Big page', space, body: `<p>Hosts</p>${box}` },
        { id: COMMENT, type: 'comment', space, containerId: PAGE, body: '<p>A comment</p>' },
        { id: CHILD, type: 'page', title: 'Big child', space, parentId: PAGE, body: '<p>child</p>', restrictions: { users: [reader.name] } },
        { id: BLOG, type: 'blogpost', title: 'Big post', space, body: '<p>post</p>' },
      ],
    },
    () => undefined,
  );
  expect(summary).toMatchObject({ content: { created: 4, skipped: 0 } });
});

const get = (path: string, user: TestUser = reader) => t.http.get(path).set('Authorization', user.auth);

describe('the schema', () => {
  it('holds content ids as bigint, with every column comment kept, and a bigint sequence', async () => {
    const knex = t.services.db.knex;
    for (const [table, column] of ID_COLUMNS) {
      const row = (await knex.raw(
        `select data_type, col_description(format('%I', table_name)::regclass, ordinal_position::int) as comment
           from information_schema.columns where table_schema = current_schema() and table_name = ? and column_name = ?`,
        [table, column],
      )) as { rows: { data_type: string; comment: string | null }[] };
      expect(row.rows[0], `${table}.${column}`).toMatchObject({ data_type: 'bigint', comment: expect.stringMatching(/\w/) });
    }
    const seq = (await knex.raw(`select data_type from information_schema.sequences where sequence_name = 'contents_id_seq'`)) as { rows: { data_type: string }[] };
    expect(seq.rows[0]?.data_type).toBe('bigint');
  });

  it('answers bigint values as numbers', async () => {
    const knex = t.services.db.knex;
    const row = await knex('contents').where({ id: PAGE }).first('id', 'parent_id');
    expect(row).toEqual({ id: PAGE, parent_id: null });
    const child = await knex('contents').where({ id: CHILD }).first('parent_id');
    expect(child.parent_id).toBe(PAGE);
    const raw = (await knex.raw('select 5000000123::bigint as n')) as { rows: { n: unknown }[] };
    expect(raw.rows[0]!.n).toBe(5_000_000_123);
  });

  it('goes back to integer and up again when no id is too large; refuses while one is', async () => {
    const knex = t.services.db.knex;
    const typeOf = async (q: typeof knex, table: string, column: string) =>
      ((await q.raw('select data_type from information_schema.columns where table_schema = current_schema() and table_name = ? and column_name = ?', [table, column])) as {
        rows: { data_type: string }[];
      }).rows[0]!.data_type;
    await expect(knex.transaction((trx) => down(trx))).rejects.toThrow(/Cannot go back to 32-bit content ids: \d+ contents have ids above 2147483647/);
    const rolledBack = new Error('rolled back');
    await expect(
      knex.transaction(async (trx) => {
        await trx('contents').where('id', '>', 2147483647).del();
        await down(trx);
        for (const [table, column] of ID_COLUMNS) expect(await typeOf(trx, table, column)).toBe('integer');
        await up(trx);
        for (const [table, column] of ID_COLUMNS) expect(await typeOf(trx, table, column)).toBe('bigint');
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await typeOf(knex, 'contents', 'id')).toBe('bigint');
    // setval is not transactional: the way back moved the sequence down, and the rollback left it there.
    await knex.raw(`select setval(pg_get_serial_sequence('contents', 'id'), (select max(id) from contents))`);
  });
});

describe('the host REST', () => {
  it('reads the page, its child (ancestors) and its comment (container) by their big ids', async () => {
    const page = await get(`/rest/api/content/${PAGE}?expand=body.storage,version,space`).expect(200);
    expect(page.body).toMatchObject({ id: String(PAGE), type: 'page', title: 'Big page', space: { key: space } });
    expect(page.body.body.storage.value).toContain(MACRO);
    const child = await get(`/rest/api/content/${CHILD}?expand=ancestors`).expect(200);
    expect(child.body.ancestors.map((a: { id: string }) => a.id)).toEqual([String(PAGE)]);
    const comment = await get(`/rest/api/content/${COMMENT}?expand=container`).expect(200);
    expect(comment.body.container).toMatchObject({ id: String(PAGE), type: 'page' });
    await get(`/rest/api/content/${BLOG}`).expect(200);
  });

  it('lists them in their space, by id, and the comment under its page', async () => {
    const pages = await get(`/rest/api/content?spaceKey=${space}&type=page`).expect(200);
    expect(pages.body.results.map((r: { id: string }) => r.id)).toEqual([String(CHILD), String(PAGE)]);
    const comments = await get(`/rest/api/content?spaceKey=${space}&type=comment&expand=container`).expect(200);
    expect(comments.body.results.map((r: { id: string; container: { id: string } }) => [r.id, r.container.id])).toEqual([[String(COMMENT), String(PAGE)]]);
    const children = await get(`/rest/api/content/${PAGE}/child/comment?expand=container`).expect(200);
    expect(children.body.results.map((r: { id: string; container: { id: string } }) => [r.id, r.container.id])).toEqual([[String(COMMENT), String(PAGE)]]);
  });

  it('keeps the read restriction of the child: its reader sees it, the other reader of the space does not', async () => {
    const r = await get(`/rest/api/content/${CHILD}/restriction/byOperation/read`).expect(200);
    expect(r.body.restrictions.user.results.map((u: { username: string }) => u.username)).toEqual([reader.name]);
    await get(`/rest/api/content/${CHILD}`, outsider).expect(404);
    await get(`/rest/api/content/${PAGE}`, outsider).expect(200);
  });

  it('gives new content ids after the big ones (the sequence moved on)', async () => {
    await t.http.post(`/rest/api/space/${space}/permission`).set('Authorization', t.adminAuth)
      .send({ subject: { type: 'user', identifier: 'admin' }, operation: { key: 'create', target: 'space' } }).expect(200);
    const made = await createContent(t, t.adminAuth, { space, title: 'After the big ids' });
    expect(Number(made.id)).toBeGreaterThan(BLOG);
    expect(String(Number(made.id))).toBe(made.id);
  });

  it('answers an id beyond 2^53-1 as malformed (400) and one within it that does not exist as missing (404)', async () => {
    await get('/rest/api/content/99999999999').expect(404);
    await get(`/rest/api/content/${Number.MAX_SAFE_INTEGER}`).expect(404);
    await get('/rest/api/content/9007199254740992').expect(400);
    await get('/rest/api/content/12345678901234567').expect(400);
  });
});

describe('code-block downloads by pageId=', () => {
  let pair: FastPathPair;
  beforeAll(async () => {
    pair = await startFastPathPair(t);
  });
  afterAll(() => pair?.close());

  const query = (id: number | string) => `key=${encodeURIComponent(keyOf('dev'))}&macroId=${MACRO}&pageId=${id}`;

  it('E1 answers the section, through Express and through the fast path, byte for byte', async () => {
    const res = await get(`${E1}?${query(PAGE)}`).expect(200);
    expect(res.text).toBe('host dev.local\n');
    const answered = () => pair.app.fastPaths.get('codeblocks')!.answered;
    const fast = await expectSameAnswer(pair, answered, { url: `${E1}?${query(PAGE)}`, headers: { Authorization: reader.auth }, fast: true, status: 200 });
    expect(fast.body.toString('utf8')).toBe('host dev.local\n');
  });

  it('the lists name the page by its big id and link to the same bytes', async () => {
    const json = await get(`${E3}?macroId=${MACRO}&pageId=${PAGE}`).expect(200);
    expect(json.body.content).toMatchObject({ contentId: PAGE, spaceKey: space, macroId: MACRO });
    const link = new URL(json.body.codeBlocks.find((b: { name: string }) => b.name === 'dev').download as string);
    expect(link.searchParams.get('pageId')).toBe(String(PAGE));
    expect((await get(`${link.pathname}${link.search}`).expect(200)).text).toBe('host dev.local\n');
    const xml = await get(`${E2}?macroId=${MACRO}&pageId=${PAGE}`).expect(200);
    expect(xml.text).toContain(`<contentId>${PAGE}</contentId>`);
  });

  it('the old servlet redirects with the big id kept', async () => {
    const res = await get(`${SERVLET}?pagepropertykey=${encodeURIComponent(keyOf('dev'))}&macroid=${MACRO}&pageid=${PAGE}`).expect(301);
    const location = new URL(res.headers['location'] as string, 'http://x');
    expect((await get(`${location.pathname}${location.search}`).expect(200)).text).toBe('host dev.local\n');
  });

  it('refuses ids beyond 2^53-1 as malformed, as it did ids beyond 2^31-1; a well-formed id without content is missing', async () => {
    expect500('5', 'E1', await get(`${E1}?${query('9007199254740992')}`), 'INVALID_URL_PARAMETER', 'pageId');
    expect500('5', 'E1', await get(`${E1}?${query('12345678901234567')}`), 'INVALID_URL_PARAMETER', 'pageId');
    expect500('5', 'E1', await get(`${E1}?${query(Number.MAX_SAFE_INTEGER)}`), 'FETCH_MACRO', `content ${Number.MAX_SAFE_INTEGER} does not exist`);
  });
});

describe('the import document', () => {
  it('refuses an id beyond 2^53-1', async () => {
    await expect(
      runImport(t.services, { content: [{ id: 9007199254740992, type: 'page', title: 'Too big', space, body: '<p/>' }] }, () => undefined),
    ).rejects.toThrow();
  });
});
