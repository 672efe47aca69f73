import type { Knex } from 'knex';
import type { ContextParam } from '../access/ids.ts';
import { POSITION_GAP } from '../fieldeditor.model.ts';
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

const rawRows = async <R>(statement: Knex.Raw) => ((await statement) as unknown as { rows: R[] }).rows;

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

/** What `ap_option_create` needs besides the row: the lock and right's bindings, and what it logs and announces. */
export interface CreateCall {
  /** field, context (null: default), parent, user id, user key (write-decision.repository.ts, `lockArgs`). */
  scope: readonly [number, number | null, number | null, number, string];
  actor: string;
  /** The type keys whose fields have this list, and the one whose child options may have children. */
  types: string[];
  multiLevel: string;
  value: string;
  valueKey: string;
  disabled: boolean;
  /** Whether the event log is written (off for a benchmark only). */
  log: boolean;
  announcement: { channel: string; payload: string; listener: string } | undefined;
}

/**
 * A create in ONE call (migrations/20261128200000_option_write_functions.ts): answers the new row, its rank
 * `n`, and the listening nodes counted by the announcement. Its refusals are SQLSTATEs of class AP.
 */
export async function createOption(knex: Knex, c: CreateCall): Promise<OptionRow & { n: number; listeners: number }> {
  const a = c.announcement;
  const { rows } = (await knex.raw('select * from ap_option_create(?, ?, ?, ?, ?, ?, ?::text[], ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
    ...c.scope,
    c.actor,
    c.types,
    c.multiLevel,
    c.value,
    c.valueKey,
    c.disabled,
    POSITION_GAP,
    c.log,
    a?.channel ?? null,
    a?.payload ?? null,
    a?.listener ?? null,
  ] as Knex.RawBinding[])) as { rows: (OptionRow & { n: number; listeners: number })[] };
  const row = rows[0];
  if (!row) throw new Error('ap_option_create answered no row');
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
  const row = (await rankQuery(q, o)) as { n: number | string }[];
  return Number(row[0]?.n ?? 0);
}

/** The query behind `rankOf`: one row, the rank in column `n` (for an event-log entry to ride on, see EventLog.recordAlong). */
export function rankQuery(q: Knex, o: Pick<OptionRow, 'id' | 'context_id' | 'parent_id' | 'position'>): Knex.QueryBuilder {
  return inList(q('field_options'), { contextId: o.context_id, parentId: o.parent_id })
    .andWhere((w) => w.where('position', '<', o.position).orWhere((e) => e.where('position', o.position).andWhere('id', '<', o.id)))
    .select(q.raw('count(*)::int as n'));
}

/** Ranks of one option before and after a move (one statement; `id` itself is never counted). */
export async function ranksAround(q: Knex, o: Pick<OptionRow, 'id' | 'context_id' | 'parent_id'>, oldPos: number, newPos: number): Promise<[number, number]> {
  const row = ((await ranksAroundQuery(q, o, oldPos, newPos)) as { before: number; after: number }[])[0];
  return [Number(row?.before ?? 0), Number(row?.after ?? 0)];
}

/** The query behind `ranksAround`: one row, columns `before` and `after`. */
export function ranksAroundQuery(q: Knex, o: Pick<OptionRow, 'id' | 'context_id' | 'parent_id'>, oldPos: number, newPos: number): Knex.QueryBuilder {
  return inList(q('field_options'), { contextId: o.context_id, parentId: o.parent_id })
    .andWhereNot('id', o.id)
    .select(
      q.raw('(count(*) filter (where position < ? or (position = ? and id < ?)))::int as before', [oldPos, oldPos, o.id]),
      q.raw('(count(*) filter (where position < ? or (position = ? and id < ?)))::int as after', [newPos, newPos, o.id]),
    );
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

/**
 * Appends an option at the end of its (locked) list, in one statement: the last position is read inside the
 * insert (the sibling-order index answers it), and the statement answers the new row's columns and, in `n`,
 * its rank (the siblings before it, read in the statement's snapshot, which does not see the row itself), so
 * that an event-log entry can ride on it (EventLog.recordAlong): a create holds the list lock for the lock, the
 * right and this one statement (issue 27, point 5).
 */
export function insertOptionQuery(trx: Knex.Transaction, fieldId: number, list: ListKey, value: string, disabled: boolean): Knex.Raw {
  const parent = list.parentId ?? 0;
  return trx.raw(
    `insert into field_options (field_id, context_id, parent_id, value, value_key, position, disabled)
     select ?::int, ?::int, ?::int, ?, ?,
            coalesce((select max(position) from field_options where context_id = ? and coalesce(parent_id, 0) = ?) + ?::bigint, 0), ?
     returning ${COLUMNS.join(', ')},
               (select count(*) from field_options s where s.context_id = ? and coalesce(s.parent_id, 0) = ?)::int as n`,
    [fieldId, list.contextId, list.parentId, value, valueKey(value), list.contextId, parent, POSITION_GAP, disabled, list.contextId, parent],
  );
}

/**
 * Renames and/or (dis)enables an option of the list in one statement that also answers the row as it was.
 * Undefined when the option is not in the list, or when the patch changes nothing (the caller then looks).
 */
export async function updateInList(
  trx: Knex.Transaction,
  list: ListKey,
  id: number,
  patch: { value?: string; disabled?: boolean },
): Promise<{ before: OptionRow; row: OptionRow } | undefined> {
  const sets: string[] = [];
  const bindings: unknown[] = [];
  if (patch.value !== undefined) {
    sets.push('value = ?', 'value_key = ?');
    bindings.push(patch.value, valueKey(patch.value));
  }
  if (patch.disabled !== undefined) {
    sets.push('disabled = ?');
    bindings.push(patch.disabled);
  }
  if (sets.length === 0) return undefined;
  // `b` is the row as the statement's snapshot sees it: before the update.
  const rows = await rawRows<OptionRow & { before_value: string; before_disabled: boolean }>(
    trx.raw(
      `update field_options o set ${sets.join(', ')} from field_options b
        where o.id = ? and b.id = o.id and o.context_id = ? and coalesce(o.parent_id, 0) = ?
       returning ${COLUMNS.map((c) => `o.${c}`).join(', ')}, b.value as before_value, b.disabled as before_disabled`,
      [...bindings, id, list.contextId, list.parentId ?? 0] as Knex.RawBinding[],
    ),
  );
  const found = rows[0];
  if (!found) return undefined;
  const { before_value, before_disabled, ...row } = found;
  return { before: { ...row, value: before_value, disabled: before_disabled }, row };
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

/**
 * Moves an option of the list first (`afterId` null) or right after its sibling `afterId`, midway to the next
 * sibling, in one statement that checks both are in the list, reads the neighbour and writes the row (the list is
 * locked, so nothing moves in between). Answers the moved row and its position before; undefined when the
 * option or the sibling is not in the list, or when there is no integer left between the two (then renumber
 * and try again).
 */
export async function placeAfter(
  trx: Knex.Transaction,
  list: ListKey,
  movingId: number,
  afterId: number | null,
): Promise<{ row: OptionRow; oldPosition: number } | undefined> {
  const parentKey = list.parentId ?? 0;
  const siblings = `from field_options where context_id = ? and coalesce(parent_id, 0) = ? and id <> ?`;
  const siblingArgs = [list.contextId, parentKey, movingId];
  const placed =
    afterId === null
      ? { pos: `coalesce((select min(position) ${siblings}) - ?::bigint, 0)`, posBindings: [...siblingArgs, POSITION_GAP], join: '', joinBindings: [] }
      : {
          pos: `(select case when n.next is null then t.position + ?::bigint
                             when n.next - t.position >= 2 then t.position + (n.next - t.position) / 2 end
                   from (select min(position) as next ${siblings} and position > t.position) n)`,
          posBindings: [POSITION_GAP, ...siblingArgs],
          join: `join field_options t on t.id = ? and t.context_id = m.context_id and coalesce(t.parent_id, 0) = ?`,
          joinBindings: [afterId, parentKey],
        };
  const bindings = [...placed.posBindings, ...placed.joinBindings];
  const rows = await rawRows<OptionRow & { old_position: number }>(
    trx.raw(
      `update field_options o set position = p.pos
         from (select ${placed.pos} as pos, m.position as old_position
                 from field_options m ${placed.join}
                where m.id = ? and m.context_id = ? and coalesce(m.parent_id, 0) = ?) p
        where o.id = ? and p.pos is not null
       returning ${COLUMNS.map((c) => `o.${c}`).join(', ')}, p.old_position`,
      [...bindings, movingId, list.contextId, parentKey, movingId] as Knex.RawBinding[],
    ),
  );
  const row = rows[0];
  if (!row) return undefined;
  const { old_position, ...moved } = row;
  return { row: moved, oldPosition: Number(old_position) };
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

/** Spreads a list's positions out again (rarely needed: after ~20 moves into the same gap). */
export async function renumber(trx: Knex.Transaction, list: ListKey): Promise<void> {
  await trx.raw(
    `update field_options o set position = (s.rn - 1) * ?::bigint
       from (select id, row_number() over (order by position, id) as rn
               from field_options where context_id = ? and coalesce(parent_id, 0) = ?) s
      where o.id = s.id`,
    [POSITION_GAP, list.contextId, list.parentId ?? 0],
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

/** After rows were inserted with their own ids (an import), the id sequence continues behind the largest id. */
export async function syncOptionIdSequence(trx: Knex.Transaction): Promise<void> {
  await trx.raw(
    `select setval('field_options_id_seq', greatest((select coalesce(max(id), 0) from field_options), (select last_value from field_options_id_seq)))`,
  );
}
