import type { Knex } from 'knex';
import type { ContentType } from './content-access.ts';

export interface ContentRow {
  id: number;
  type: ContentType;
  status: 'current' | 'trashed';
  title: string;
  space_id: number;
  parent_id: number | null;
  container_id: number | null;
  version: number;
  body: string;
}

/** A content with what its JSON shows: space, and who saved the current version when. */
export interface ContentRecord extends ContentRow {
  created_at: Date;
  creator_name: string | null;
  creator_display_name: string | null;
  space_key: string;
  space_name: string;
  space_description: string;
  updated_at: Date;
  editor_name: string | null;
  editor_display_name: string | null;
}

export interface ContentSummary {
  id: number;
  type: ContentType;
  status: string;
  title: string;
}

/** A summary with its container's (a comment's page or blog post). */
export interface ContentSummaryWithContainer extends ContentSummary {
  container: ContentSummary | undefined;
}

const ROW = ['id', 'type', 'status', 'title', 'space_id', 'parent_id', 'container_id', 'version', 'body'];

/** Contents joined to what a ContentRecord adds: the space, and the user who saved the current version. */
const recordSource = (q: Knex) =>
  q('contents as c')
    .join('spaces as s', 's.id', 'c.space_id')
    .leftJoin('content_versions as v', (j) => j.on('v.content_id', 'c.id').andOn('v.number', 'c.version'))
    .leftJoin('users as u', 'u.id', 'v.created_by')
    .leftJoin('users as cu', 'cu.id', 'c.created_by');

/** The columns of a ContentRecord, over `recordSource`'s aliases. */
const RECORD_COLUMNS = ROW.map((col) => `c.${col}`).concat([
  'c.updated_at',
  'c.created_at',
  'cu.name as creator_name',
  'cu.display_name as creator_display_name',
  's.key as space_key',
  's.name as space_name',
  's.description as space_description',
  'u.name as editor_name',
  'u.display_name as editor_display_name',
]);

/** Table access for contents, their versions and the code-box index. */
export const contentRepository = {
  /** Whether a current content of this place and title exists (how a re-run of an import recognises what it made). */
  async existsCurrent(q: Knex, m: { spaceId: number; type: string; title: string; parentId?: number; containerId?: number }): Promise<boolean> {
    const row = await q('contents')
      .where({ space_id: m.spaceId, type: m.type, title: m.title, status: 'current', parent_id: m.parentId ?? null, container_id: m.containerId ?? null })
      .first('id');
    return row !== undefined;
  },

  async findRow(q: Knex, id: number): Promise<ContentRow | undefined> {
    return (await q('contents').select(ROW).where({ id }).first()) as ContentRow | undefined;
  },

  async findRecord(q: Knex, id: number): Promise<ContentRecord | undefined> {
    return (await recordSource(q).where('c.id', id).first(RECORD_COLUMNS)) as ContentRecord | undefined;
  },

  /** Records of several contents, in the order of `ids`. */
  async findRecords(q: Knex, ids: number[]): Promise<ContentRecord[]> {
    if (ids.length === 0) return [];
    const rows = (await recordSource(q).whereIn('c.id', ids).select(RECORD_COLUMNS)) as ContentRecord[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  },

  /** Titles of several contents with their containers' (no bodies), in the order of `ids`. */
  async findSummaries(q: Knex, ids: number[]): Promise<ContentSummaryWithContainer[]> {
    if (ids.length === 0) return [];
    const rows = (await q('contents as c')
      .leftJoin('contents as k', 'k.id', 'c.container_id')
      .whereIn('c.id', ids)
      .select('c.id', 'c.type', 'c.status', 'c.title', 'k.id as container_id', 'k.type as container_type', 'k.status as container_status', 'k.title as container_title')) as {
      id: number; type: ContentType; status: string; title: string;
      container_id: number | null; container_type: ContentType | null; container_status: string | null; container_title: string | null;
    }[];
    const byId = new Map(
      rows.map((r) => [
        r.id,
        {
          id: r.id, type: r.type, status: r.status, title: r.title,
          container: r.container_id === null ? undefined : { id: r.container_id, type: r.container_type!, status: r.container_status!, title: r.container_title! },
        },
      ]),
    );
    return ids.flatMap((id) => byId.get(id) ?? []);
  },

  /** Ids of one page of the current comments of a page or blog post, by id; one more than `limit` when a next page exists. */
  async commentIds(q: Knex, containerId: number, start: number, limit: number): Promise<number[]> {
    const rows = (await q('contents')
      .where({ container_id: containerId, type: 'comment', status: 'current' })
      .orderBy('id')
      .offset(start)
      .limit(limit + 1)
      .select('id')) as { id: number }[];
    return rows.map((r) => r.id);
  },

  /** Parent pages of a page, the root first (the order the host lists `ancestors` in). */
  async ancestors(q: Knex, id: number): Promise<ContentSummary[]> {
    const result = (await q.raw(
      `with recursive up as (
         select p.id, p.type, p.status, p.title, p.parent_id, 1 as depth
           from contents c join contents p on p.id = c.parent_id where c.id = ?
         union all
         select p.id, p.type, p.status, p.title, p.parent_id, up.depth + 1
           from contents p join up on p.id = up.parent_id where up.depth < 1000
       ) select id, type, status, title from up order by depth desc`,
      [id],
    )) as { rows: ContentSummary[] };
    return result.rows;
  },

  async summary(q: Knex, id: number): Promise<ContentSummary | undefined> {
    return (await q('contents').select('id', 'type', 'status', 'title').where({ id }).first()) as ContentSummary | undefined;
  },

  async insert(
    q: Knex,
    c: { id?: number; type: ContentType; title: string; spaceId: number; parentId: number | null; containerId: number | null; body: string; userId: number | null },
  ): Promise<number> {
    const [row] = await q('contents')
      .insert({
        ...(c.id === undefined ? {} : { id: c.id }),
        type: c.type,
        title: c.title,
        space_id: c.spaceId,
        parent_id: c.parentId,
        container_id: c.containerId,
        version: 1,
        body: c.body,
        created_by: c.userId,
      })
      .returning('id');
    return (row as { id: number }).id;
  },

  /** Moves the content to version `version + 1` only if it is still at `version`; false when it was not. */
  async updateIfVersion(q: Knex, id: number, version: number, c: { title: string; body: string }): Promise<boolean> {
    const rows = await q('contents')
      .where({ id, version, status: 'current' })
      .update({ title: c.title, body: c.body, version: version + 1, updated_at: q.fn.now() })
      .returning('id');
    return rows.length > 0;
  },

  async insertVersion(q: Knex, v: { contentId: number; number: number; title: string; body: string; userId: number | null }): Promise<void> {
    await q('content_versions').insert({ content_id: v.contentId, number: v.number, title: v.title, body: v.body, created_by: v.userId });
  },

  async versionBody(q: Knex, id: number, number: number): Promise<string | undefined> {
    const row = (await q('content_versions').select('body').where({ content_id: id, number }).first()) as { body: string } | undefined;
    return row?.body;
  },

  /** Trashes the content and its comments. */
  async trash(q: Knex, id: number): Promise<void> {
    await q('contents')
      .where((w) => w.where({ id }).orWhere({ container_id: id }))
      .where({ status: 'current' })
      .update({ status: 'trashed', updated_at: q.fn.now() })
      .returning('id');
  },

  /** Makes the id sequence continue after the highest id (after inserts with explicit ids). */
  async bumpIdSequence(q: Knex): Promise<void> {
    await q.raw(`select setval(pg_get_serial_sequence('contents', 'id'), greatest((select max(id) from contents), 1))`);
  },
};
