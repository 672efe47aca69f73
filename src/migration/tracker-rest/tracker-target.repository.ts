// The few reads and writes the tracker import needs that the tracker's and field editor's repositories do not
// offer: is an id free (fields, contexts, options are matched by the source's id where it is), one field by id,
// a field's name and description brought in line with the source, migration records in batches. Everything
// else goes through the tracker's, field editor's and migration's own repositories.
import type { Knex } from 'knex';

export interface TargetField {
  id: number;
  name: string;
  description: string;
  type_key: string;
}

export const trackerTarget = {
  async field(q: Knex, id: number): Promise<TargetField | undefined> {
    return (await q('custom_fields').select('id', 'name', 'description', 'type_key').where({ id }).first()) as TargetField | undefined;
  },

  async updateField(q: Knex, id: number, f: { name: string; description: string }): Promise<void> {
    await q('custom_fields').where({ id }).update({ name: f.name, name_key: f.name.toLowerCase(), description: f.description });
  },

  /** Which of these context ids exist (in any field). */
  async takenContextIds(q: Knex, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    return new Set((await q('field_contexts').whereIn('id', ids).select<{ id: number }[]>('id')).map((r) => r.id));
  },

  /** Which of these option ids exist (in any field or context). */
  async takenOptionIds(q: Knex, ids: readonly number[]): Promise<Set<number>> {
    const taken = new Set<number>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await q('field_options').whereIn('id', ids.slice(i, i + 1000)).select<{ id: number }[]>('id');
      for (const r of rows) taken.add(r.id);
    }
    return taken;
  },

  /**
   * Moves a table's id sequence past `id` (and past every id in the table), never back: an import that gives new
   * ids to records whose source ids were taken first moves it past all of the source's ids, so that a new id
   * never lands on a source id that is still free and would then be taken by the import itself.
   */
  async moveSequencePast(q: Knex, table: 'custom_fields' | 'field_contexts' | 'field_options', id: number): Promise<void> {
    await q.raw(
      `select setval(pg_get_serial_sequence(?, 'id'), greatest(?::bigint, (select coalesce(max(id), 0) from ??), (select last_value from ${table}_id_seq)))`,
      [table, id, table],
    );
  },
};
