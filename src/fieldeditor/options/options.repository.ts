import type { Knex } from 'knex';
import type { ContextParam } from '../access/ids.ts';
import { POSITION_GAP } from '../shared/fieldeditor.model.ts';
import { valueKey, type OptionRow } from './options.model.ts';

/**
 * Knex access to option lists. A "list" is the siblings under one parent in one context (parent key 0 =
 * the top-level options). Every write runs inside a transaction that first takes the list's lock (`ap_lock_and_decide`, or
 * `lockList`), so writes to one list are serialised. Order is kept in a sparse `position` (gaps of 2^20): create, move and delete
 * each write ONE row; the dense `sequence` the interface shows is the rank, computed when read.
 */
export interface ListKey {
  contextId: number;
  /** Parent option id; null for the top-level list. */
  parentId: number | null;
}

export const COLUMNS = ['id', 'field_id', 'context_id', 'parent_id', 'value', 'position', 'disabled'] as const;


/** Restricts a query to one sibling list (matches the expression indexes on coalesce(parent_id, 0)). */
function inList(qb: Knex.QueryBuilder, list: ListKey): Knex.QueryBuilder {
  return qb.where('context_id', list.contextId).andWhereRaw('coalesce(parent_id, 0) = ?', [list.parentId ?? 0]);
}

/**
 * Takes the list's lock row (created on first use) and raises its version: concurrent writers of the same
 * list wait here until this transaction ends. (The version counts the list's writes; the per-node list
 * caches are cleared through the change feed, see options.cache.ts.)
 */
export async function lockList(trx: Knex.Transaction, list: ListKey): Promise<void> {
  await trx.raw(
    `insert into field_option_lists (context_id, parent_key, version) values (?, ?, 1)
     on conflict (context_id, parent_key) do update set version = field_option_lists.version + 1`,
    [list.contextId, list.parentId ?? 0],
  );
}

/** What every option write function starts with (migrations/20261128200000_option_write_functions.ts). */
export interface WriteCall {
  /** field, context (null: default), parent, user id, user key (write-decision.repository.ts, `lockArgs`). */
  scope: readonly [number, number | null, number | null, number, string];
  actor: string;
  /** The type keys whose fields have this list, and the one whose child options may have children. */
  types: string[];
  multiLevel: string;
  /** Whether the event log is written (off for a benchmark only). */
  log: boolean;
  announcement: { channel: string; payload: string; listener: string } | undefined;
}
/** What an option write function answers: the option written, its rank `n`, and the listening nodes its announcement counted. */
export interface WrittenRow {
  id: number;
  value: string;
  disabled: boolean;
  n: number;
  listeners: number;
}
const WRITE_FUNCTIONS = { create: 'ap_option_create', update: 'ap_option_update', move: 'ap_option_move' } as const;
export type WriteKind = keyof typeof WRITE_FUNCTIONS;

/**
 * One option write in ONE call of the database: `kind`'s function with the common arguments and its own
 * (`args`: create value, value key, disabled, gap; update id, value, value key, disabled; move id, after id, gap).
 * Its refusals are SQLSTATEs of class AP (option-writer.ts maps them).
 */
export async function writeOption(knex: Knex, kind: WriteKind, c: WriteCall, args: readonly unknown[]): Promise<WrittenRow> {
  const a = c.announcement;
  const common = [...c.scope, c.actor, c.types, c.multiLevel, c.log, a?.channel ?? null, a?.payload ?? null, a?.listener ?? null];
  const placeholders = [...common, ...args].map((_, i) => (i === 6 ? '?::text[]' : '?')).join(', ');
  const { rows } = (await knex.raw(`select * from ${WRITE_FUNCTIONS[kind]}(${placeholders})`, [...common, ...args] as Knex.RawBinding[])) as {
    rows: WrittenRow[];
  };
  const row = rows[0];
  if (!row) throw new Error(`${WRITE_FUNCTIONS[kind]} answered no row`);
  return row;
}

/** A write's announcement of its change, as its transaction's last statement; answers the listening nodes (ChangeFeed.announceWithin). */
export async function announce(trx: Knex.Transaction, a: { channel: string; payload: string; listener: string }): Promise<number> {
  const { rows } = (await trx.raw(
    'select pg_notify(?, ?), (select count(*)::int from pg_stat_activity where application_name = ? and datname = current_database()) as n',
    [a.channel, a.payload, a.listener],
  )) as { rows: { n: number }[] };
  return Number(rows[0]?.n ?? 1);
}

/** The list a path names, when its context exists (for the duplicate answer of a create). */
export async function listOfPath(q: Knex, ids: { fieldId: number; context: ContextParam }, parentId: number | null): Promise<ListKey | undefined> {
  const qb = q('field_contexts').where('field_id', ids.fieldId).first<{ id: number } | undefined>('id');
  const row = await (ids.context === 'default' ? qb.andWhere('is_default', true) : qb.andWhere('id', ids.context));
  return row ? { contextId: row.id, parentId } : undefined;
}

/** The list as the compact JSON array the interface answers (members in the original's order), built by the database. */
export async function listJson(q: Knex, list: ListKey): Promise<{ json: string }> {
  const parent = list.parentId ?? 0;
  const result = await q.raw<{ rows: { json: string | null }[] }>(
    `select (select '[' || string_agg('{"optionvalue":' || to_json(value)::text || ',"id":' || id || ',"sequence":' || (rn - 1)
                                      || ',"disabled":' || disabled::text || '}', ',' order by rn) || ']'
               from (select value, id, disabled, row_number() over (order by position, id) as rn
                       from field_options where context_id = ? and coalesce(parent_id, 0) = ?) s) as json`,
    [list.contextId, parent],
  );
  return { json: result.rows[0]?.json ?? '[]' };
}

/** The list in order (ties on position, which only an outside writer could cause, go by id). */
export async function listRows(q: Knex, list: ListKey): Promise<OptionRow[]> {
  return inList(q('field_options').select(...COLUMNS), list).orderBy([{ column: 'position' }, { column: 'id' }]);
}

/** The 0-based rank of an option in its list: the `sequence` the interface shows. */
export async function rankOf(q: Knex, o: Pick<OptionRow, 'id' | 'context_id' | 'parent_id' | 'position'>): Promise<number> {
  const row = (await inList(q('field_options'), { contextId: o.context_id, parentId: o.parent_id })
    .andWhere((w) => w.where('position', '<', o.position).orWhere((e) => e.where('position', o.position).andWhere('id', '<', o.id)))
    .select(q.raw('count(*)::int as n'))) as { n: number | string }[];
  return Number(row[0]?.n ?? 0);
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

export async function updateOption(
  trx: Knex.Transaction,
  id: number,
  patch: { value?: string; disabled?: boolean; position?: number },
): Promise<OptionRow> {
  const changes: Record<string, unknown> = {};
  if (patch.value !== undefined) Object.assign(changes, { value: patch.value, value_key: valueKey(patch.value) });
  if (patch.disabled !== undefined) changes.disabled = patch.disabled;
  if (patch.position !== undefined) changes.position = patch.position;
  const q = trx('field_options').where('id', id);
  const [row] = Object.keys(changes).length > 0
    ? await q.update(changes).returning<OptionRow[]>([...COLUMNS])
    : await q.select<OptionRow[]>(...COLUMNS);
  if (!row) throw new Error(`option ${id} vanished inside its locked list`);
  return row;
}

/** Deletes an option; its children go by FK cascade. Ranks behind it close up by themselves. */
export async function deleteOption(trx: Knex.Transaction, option: OptionRow): Promise<void> {
  const deleted = await trx('field_options').where('id', option.id).del().returning('id');
  if (deleted.length !== 1) throw new Error(`option ${option.id} vanished inside its locked list`);
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

/** Writes a whole new order (ids in their new order) as positions 0, GAP, 2·GAP … in one statement. */
export async function writeOrder(trx: Knex.Transaction, list: ListKey, orderedIds: number[]): Promise<void> {
  if (orderedIds.length === 0) return;
  const positions = orderedIds.map((_, i) => i * POSITION_GAP);
  await trx.raw(
    `update field_options o set position = v.pos
       from unnest(?::int[], ?::bigint[]) as v(id, pos)
      where o.id = v.id and o.context_id = ? and coalesce(o.parent_id, 0) = ? and o.position is distinct from v.pos`,
    [orderedIds, positions, list.contextId, list.parentId ?? 0],
  );
}

/** An import's view of a list: each option's id, value key and position (no order needed). */
export async function listKeys(q: Knex, list: ListKey): Promise<{ id: number; value_key: string; position: number | string }[]> {
  return inList(q('field_options').select('id', 'value_key', 'position'), list);
}

/** The option of the list with this value (without regard to case), with whether it is disabled. */
export async function findByValue(q: Knex, list: ListKey, value: string): Promise<{ id: number; disabled: boolean } | undefined> {
  return (await inList(q('field_options'), list).andWhere('value_key', valueKey(value)).first('id', 'disabled')) as { id: number; disabled: boolean } | undefined;
}

/** Inserts a batch of complete option rows (an import; positions and keys computed by the caller), answering ids and value keys. */
export async function insertOptions(trx: Knex.Transaction, rows: readonly Record<string, unknown>[]): Promise<{ id: number; value_key: string }[]> {
  return (await trx('field_options').insert(rows).returning(['id', 'value_key'])) as { id: number; value_key: string }[];
}

/**
 * After rows were inserted with their own ids (an import), the id sequence continues behind the largest id; with
 * `past`, behind that id too (an import from elsewhere, before it gives new ids while source ids are still to
 * come). Never moves the sequence back.
 */
export async function syncOptionIdSequence(trx: Knex.Transaction, past = 0): Promise<void> {
  await trx.raw(
    `select setval('field_options_id_seq', greatest(?::bigint, (select coalesce(max(id), 0) from field_options), (select last_value from field_options_id_seq)))`,
    [past],
  );
}

/** Of these option ids, those an option holds (in any field or context). */
export async function existingOptionIds(q: Knex, ids: readonly number[]): Promise<Set<number>> {
  const taken = new Set<number>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await q('field_options').whereIn('id', ids.slice(i, i + 1000)).select<{ id: number }[]>('id');
    for (const r of rows) taken.add(r.id);
  }
  return taken;
}
