import type { Knex } from 'knex';
import { valueKey, type OptionRow } from './options.model.ts';

/**
 * Knex access to option lists. A "list" is the siblings under one parent in one context (parent key 0 =
 * the top-level options). Every write runs inside a transaction that first calls `lockList`, so writes to
 * one list are serialised and the set-based sequence updates below always see a dense 0..n-1 list.
 */
export interface ListKey {
  contextId: number;
  /** Parent option id; null for the top-level list. */
  parentId: number | null;
}

const COLUMNS = ['id', 'field_id', 'context_id', 'parent_id', 'value', 'sequence', 'disabled'] as const;

/** Restricts a query to one sibling list (matches the expression indexes on coalesce(parent_id, 0)). */
function inList(qb: Knex.QueryBuilder, list: ListKey): Knex.QueryBuilder {
  return qb.where('context_id', list.contextId).andWhereRaw('coalesce(parent_id, 0) = ?', [list.parentId ?? 0]);
}

/**
 * Takes the list's lock row (created on first use) and raises its version: concurrent writers of the same
 * list wait here until this transaction ends; the raised version invalidates every node's cached list.
 */
export async function lockList(trx: Knex.Transaction, list: ListKey): Promise<void> {
  await trx.raw(
    `insert into field_option_lists (context_id, parent_key, version) values (?, ?, 1)
     on conflict (context_id, parent_key) do update set version = field_option_lists.version + 1`,
    [list.contextId, list.parentId ?? 0],
  );
}

export async function listVersion(q: Knex, list: ListKey): Promise<number> {
  const row = await q('field_option_lists')
    .where({ context_id: list.contextId, parent_key: list.parentId ?? 0 })
    .first<{ version: number | string } | undefined>('version');
  return row ? Number(row.version) : 0;
}

/** The list as the JSON array the interface answers, built by the database together with the version it shows. */
export async function listJson(q: Knex, list: ListKey): Promise<{ version: number; json: string }> {
  const parent = list.parentId ?? 0;
  const result = await q.raw<{ rows: { version: number | string | null; json: string }[] }>(
    `select (select version from field_option_lists where context_id = ? and parent_key = ?) as version,
            coalesce(json_agg(json_build_object('optionvalue', value, 'id', id, 'sequence', sequence, 'disabled', disabled)
                              order by sequence, id), '[]')::text as json
       from field_options where context_id = ? and coalesce(parent_id, 0) = ?`,
    [list.contextId, parent, list.contextId, parent],
  );
  const row = result.rows[0];
  return { version: Number(row?.version ?? 0), json: row?.json ?? '[]' };
}

export async function listRows(q: Knex, list: ListKey): Promise<OptionRow[]> {
  return inList(q('field_options').select(...COLUMNS), list).orderBy([{ column: 'sequence' }, { column: 'id' }]);
}

/** One option of a context; `lock` takes a key-share lock so that it cannot be deleted before we commit. */
export async function findOption(q: Knex, contextId: number, id: number, lock = false): Promise<OptionRow | undefined> {
  const qb = q('field_options').where({ id, context_id: contextId }).first<OptionRow | undefined>(...COLUMNS);
  return lock ? qb.forKeyShare() : qb;
}

export async function findOptions(q: Knex, contextId: number, ids: number[], lock = false): Promise<OptionRow[]> {
  const qb = q('field_options').where('context_id', contextId).whereIn('id', ids).select<OptionRow[]>(...COLUMNS);
  return lock ? qb.forKeyShare() : qb;
}

/** A sibling with the same value (case-insensitive), other than `exceptId`. */
export async function findSameValue(q: Knex, list: ListKey, value: string, exceptId?: number): Promise<number | undefined> {
  const qb = inList(q('field_options').select('id'), list).andWhere('value_key', valueKey(value));
  if (exceptId !== undefined) qb.andWhereNot('id', exceptId);
  const row = (await qb.first()) as { id: number } | undefined;
  return row?.id;
}

export async function countList(q: Knex, list: ListKey): Promise<number> {
  const row = (await inList(q('field_options').count<{ n: number | string }[]>({ n: '*' }), list).first()) as
    | { n: number | string }
    | undefined;
  return Number(row?.n ?? 0);
}

/** Appends an option at the end of its (locked, dense) list. */
export async function insertOption(
  trx: Knex.Transaction,
  fieldId: number,
  list: ListKey,
  value: string,
  disabled: boolean,
): Promise<OptionRow> {
  const sequence = await countList(trx, list);
  const [row] = await trx('field_options')
    .insert({
      field_id: fieldId,
      context_id: list.contextId,
      parent_id: list.parentId,
      value,
      value_key: valueKey(value),
      sequence,
      disabled,
    })
    .returning<OptionRow[]>([...COLUMNS]);
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateOption(
  trx: Knex.Transaction,
  id: number,
  patch: { value?: string; disabled?: boolean },
): Promise<OptionRow> {
  const changes: Record<string, unknown> = {};
  if (patch.value !== undefined) Object.assign(changes, { value: patch.value, value_key: valueKey(patch.value) });
  if (patch.disabled !== undefined) changes.disabled = patch.disabled;
  const q = trx('field_options').where('id', id);
  const [row] = Object.keys(changes).length > 0
    ? await q.update(changes).returning<OptionRow[]>([...COLUMNS])
    : await q.select<OptionRow[]>(...COLUMNS);
  if (!row) throw new Error(`option ${id} vanished inside its locked list`);
  return row;
}

/** Deletes an option (its children go by FK cascade) and closes the gap it leaves in its list. */
export async function deleteOption(trx: Knex.Transaction, list: ListKey, option: OptionRow): Promise<void> {
  const deleted = await trx('field_options').where('id', option.id).del().returning('id');
  if (deleted.length !== 1) throw new Error(`option ${option.id} vanished inside its locked list`);
  await inList(trx('field_options'), list).andWhere('sequence', '>', option.sequence).decrement('sequence', 1);
}

/** Ids of an option and all its descendants (for cleaning the lock rows of lists that no longer exist). */
export async function subtreeIds(q: Knex, id: number): Promise<number[]> {
  const result = await q.raw<{ rows: { id: number }[] }>(
    `with recursive t(id) as (select ?::int union all select o.id from field_options o join t on o.parent_id = t.id)
     select id from t`,
    [id],
  );
  return result.rows.map((r) => r.id);
}

/**
 * Drops the lock rows of lists whose parent was deleted. A row that a concurrent writer holds is skipped
 * (SKIP LOCKED): waiting for it could deadlock with that writer, which waits for the parent row we just
 * deleted; the writer then finds no parent and answers 404, and the stale row is harmless.
 */
export async function deleteListLocks(trx: Knex.Transaction, contextId: number, parentIds: number[]): Promise<void> {
  if (parentIds.length === 0) return;
  await trx.raw(
    `delete from field_option_lists where (context_id, parent_key) in (
       select context_id, parent_key from field_option_lists
        where context_id = ? and parent_key = any(?::int[]) for update skip locked)`,
    [contextId, parentIds],
  );
}

/**
 * Moves one option of a dense list from index `from` to index `to` in ONE statement: the options in
 * between shift by one towards the gap, the moved option takes `to`.
 */
export async function moveWithinList(trx: Knex.Transaction, list: ListKey, id: number, from: number, to: number): Promise<void> {
  if (from === to) return;
  const [lo, hi, shift] = to < from ? [to, from, 1] : [from, to, -1];
  await inList(trx('field_options'), list)
    .andWhereBetween('sequence', [lo, hi])
    .update({ sequence: trx.raw('case when id = ? then ?::int else sequence + ?::int end', [id, to, shift]) });
}

/** Writes a whole new order (ids in their new order) in one statement. */
export async function writeOrder(trx: Knex.Transaction, list: ListKey, orderedIds: number[]): Promise<void> {
  if (orderedIds.length === 0) return;
  const seqs = orderedIds.map((_, i) => i);
  await trx.raw(
    `update field_options o set sequence = v.seq
       from unnest(?::int[], ?::int[]) as v(id, seq)
      where o.id = v.id and o.context_id = ? and coalesce(o.parent_id, 0) = ? and o.sequence is distinct from v.seq`,
    [orderedIds, seqs, list.contextId, list.parentId ?? 0],
  );
}
