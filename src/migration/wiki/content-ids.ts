import type { Knex } from 'knex';
import { migrationRecords, type MigrationRecord } from '../migration-records.repository.ts';
import { wikiImportPort as wiki } from '../../wiki/wiki-import-port.ts';
import type { SourceContent } from './space-model.ts';

/** `migration_records.source` of everything from a wiki, export or live: the same page is the same record. */
export const WIKI_SOURCE = 'wiki';

/**
 * Which of our ids each content of one space gets. A content imported before keeps the id its record names
 * (while that row exists). New content keeps the source's id when no row of ours has it (page and macro ids are
 * what scripts download by); otherwise it gets a fresh id from the sequence, never one that a later content of
 * the same space keeps. Made once per space, before the first write.
 */
export class ContentIds {
  private readonly local = new Map<number, number>();

  private constructor(
    /** Records of content imported before whose row still exists, by the source's id. */
    readonly records: ReadonlyMap<number, MigrationRecord>,
    /** Source ids of new content that keep their id. */
    private readonly kept: ReadonlySet<number>,
  ) {}

  static async plan(trx: Knex, content: readonly SourceContent[]): Promise<ContentIds> {
    const found = await migrationRecords.findMany(trx, WIKI_SOURCE, 'content', content.map((c) => String(c.id)));
    const alive = await wiki.takenContentIds(trx, [...found.values()].map((r) => Number(r.local_id)));
    const records = new Map<number, MigrationRecord>();
    for (const r of found.values()) if (alive.has(Number(r.local_id))) records.set(Number(r.source_id), r);
    const fresh = content.filter((c) => !records.has(c.id)).map((c) => c.id);
    const taken = await wiki.takenContentIds(trx, fresh);
    return new ContentIds(records, new Set(fresh.filter((id) => !taken.has(id))));
  }

  /** Our id of a source content already placed in this run (or by an earlier one), if any. */
  of(sourceId: number): number | undefined {
    return this.local.get(sourceId);
  }

  /** Our id for a source content about to be written; `mapped` when the source's id was taken here. */
  async assign(trx: Knex, sourceId: number): Promise<{ id: number; mapped: boolean; existing: boolean }> {
    const record = this.records.get(sourceId);
    let id: number;
    if (record) id = Number(record.local_id);
    else if (this.kept.has(sourceId)) id = sourceId;
    else id = await this.freshId(trx);
    this.local.set(sourceId, id);
    return { id, mapped: id !== sourceId, existing: record !== undefined };
  }

  private async freshId(trx: Knex): Promise<number> {
    for (;;) {
      const id = await wiki.nextContentId(trx);
      // Rows inserted with the source's ids do not move the sequence: skip what is (or will be) taken.
      if (!this.kept.has(id) && (await wiki.takenContentIds(trx, [id])).size === 0) return id;
    }
  }

  /** Whether any new content kept its source id (the sequence must then move past them). */
  get keptAny(): boolean {
    return this.kept.size > 0;
  }
}
