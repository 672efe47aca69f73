import type { Knex } from 'knex';

/** A page, blog post or comment as an import from elsewhere stores it: the source's version, dates and position. */
export interface ImportedContent {
  id: number;
  type: 'page' | 'blogpost' | 'comment';
  title: string;
  spaceId: number;
  parentId: number | null;
  containerId: number | null;
  position: number | null;
  version: number;
  body: string;
  creatorId: number | null;
  createdAt: Date | null;
  updatedAt: Date | null;
}

/**
 * Contents and their versions as an import from elsewhere writes them (src/migration/, through
 * wiki-import-port.ts). content.repository.ts starts every content at version 1 with today's date; an imported
 * page keeps its id where it is free, its version number, creator, dates and sibling position, which the
 * source's scripts and readers know it by.
 */
export const contentImportRepository = {
  /** Of these ids, those a content row holds (current or trashed). */
  async takenIds(q: Knex, ids: readonly number[]): Promise<Set<number>> {
    const taken = new Set<number>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = (await q('contents').whereIn('id', ids.slice(i, i + 1000)).select('id')) as { id: number | string }[];
      for (const r of rows) taken.add(Number(r.id));
    }
    return taken;
  },

  /** A fresh id from the contents' sequence (the source's id was taken here). */
  async nextId(q: Knex): Promise<number> {
    const result = (await q.raw(`select nextval(pg_get_serial_sequence('contents', 'id')) as id`)) as { rows: { id: number | string }[] };
    return Number(result.rows[0]!.id);
  },

  async insert(q: Knex, c: ImportedContent): Promise<void> {
    await q('contents').insert({
      id: c.id,
      type: c.type,
      title: c.title,
      space_id: c.spaceId,
      parent_id: c.parentId,
      container_id: c.containerId,
      position: c.position,
      version: c.version,
      body: c.body,
      created_by: c.creatorId,
      ...(c.createdAt ? { created_at: c.createdAt } : {}),
      ...(c.updatedAt ?? c.createdAt ? { updated_at: c.updatedAt ?? c.createdAt } : {}),
    });
    await this.insertVersion(q, c);
  },

  /** A changed source record: a new current version (the row stays current, in its space). */
  async update(q: Knex, c: ImportedContent): Promise<void> {
    await q('contents')
      .where({ id: c.id })
      .update({
        title: c.title,
        parent_id: c.parentId,
        container_id: c.containerId,
        position: c.position,
        version: c.version,
        body: c.body,
        status: 'current',
        updated_at: c.updatedAt ?? q.fn.now(),
      });
    await this.insertVersion(q, c);
  },

  async insertVersion(q: Knex, c: ImportedContent): Promise<void> {
    await q('content_versions')
      .insert({
        content_id: c.id,
        number: c.version,
        title: c.title,
        body: c.body,
        created_by: c.creatorId,
        ...(c.updatedAt ?? c.createdAt ? { created_at: c.updatedAt ?? c.createdAt } : {}),
      })
      .onConflict(['content_id', 'number'])
      .merge(['title', 'body', 'created_by']);
  },
};
