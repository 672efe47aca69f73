import type { Knex } from 'knex';

/**
 * A context's whole option tree (every level) for the export and the sync (issue 27): depth first, each
 * list in its order, with the names from the top level down and the default marks. The export reads it
 * through a cursor in pages (constant memory whatever the size); the sync reads it whole.
 */
export interface TreeRow {
  id: number;
  parent_id: number | null;
  value: string;
  disabled: boolean;
  /** 0-based rank in its list (the interface's `sequence`). */
  seq: number;
  depth: number;
  /** Names from the top level down to this option (its own last). */
  names: string[];
  is_default: boolean;
}

/** Depth-first order: the array of ranks from the top compares as the tree reads ([0] < [0,0] < [0,1] < [1]). */
const TREE_SQL = `
  with recursive ranked as (
    select id, parent_id, value, disabled,
           (row_number() over (partition by coalesce(parent_id, 0) order by position, id) - 1)::int as seq
      from field_options where context_id = ?
  ), t as (
    select r.id, r.parent_id, r.value, r.disabled, r.seq, 0 as depth, array[r.seq] as sort_key, array[r.value::text] as names
      from ranked r where r.parent_id is null
    union all
    select r.id, r.parent_id, r.value, r.disabled, r.seq, t.depth + 1, t.sort_key || r.seq, t.names || r.value::text
      from ranked r join t on r.parent_id = t.id
  )
  select t.id, t.parent_id, t.value, t.disabled, t.seq, t.depth, t.names,
         exists (select 1 from field_default_options d where d.context_id = ? and d.option_id = t.id) as is_default
    from t order by t.sort_key`;

/** One list's version (field_option_lists): raised by every write to that list. */
export interface ListVersion {
  parent_key: number;
  version: number | string;
}

/**
 * The versions of the context's lists that can hold options: the top level and the children of its options
 * (a deleted parent's list row may linger, see deleteListLocks; it is left out). Every option and default
 * write raises its list's version, so this set changes with every committed change to the tree; its hash is
 * the ETag of the export and the If-Match of a sync (options-tag.ts).
 */
export async function listVersions(q: Knex, contextId: number): Promise<ListVersion[]> {
  const { rows } = await q.raw<{ rows: ListVersion[] }>(
    `select l.parent_key, l.version from field_option_lists l
      where l.context_id = ? and (l.parent_key = 0 or exists (select 1 from field_options o where o.id = l.parent_key and o.context_id = l.context_id))`,
    [contextId],
  );
  return rows;
}

/** The whole tree at once (the sync compares it with a file in memory). */
export async function readTree(q: Knex, contextId: number): Promise<TreeRow[]> {
  const { rows } = await q.raw<{ rows: TreeRow[] }>(TREE_SQL, [contextId, contextId]);
  return rows;
}

/** Opens a cursor over the tree in the caller's transaction; `fetchTreePage` reads it on. */
export async function openTreeCursor(trx: Knex.Transaction, contextId: number): Promise<void> {
  await trx.raw(`declare option_tree no scroll cursor for ${TREE_SQL}`, [contextId, contextId]);
}

/** The next rows of the cursor (fewer than `size`: the end). */
export async function fetchTreePage(trx: Knex.Transaction, size: number): Promise<TreeRow[]> {
  const { rows } = await trx.raw<{ rows: TreeRow[] }>(`fetch forward ${Math.trunc(size)} from option_tree`);
  return rows;
}

/**
 * The sync's locks (the top-level list is locked already, by ap_lock_and_decide): the list row of every option
 * that may have children (`parents`: none for plain selects, the top level for cascading selects, all for
 * the multi-level one), created where missing, so that no write to any list of the tree, also a first child,
 * runs beside the sync. Answers the rows that existed before (their versions unchanged), for the tag.
 */
export async function lockTree(trx: Knex.Transaction, contextId: number, parents: 'none' | 'top' | 'all'): Promise<ListVersion[]> {
  const { rows: top } = await trx.raw<{ rows: ListVersion[] }>('select parent_key, version from field_option_lists where context_id = ? and parent_key = 0', [contextId]);
  if (parents === 'none') return top;
  const { rows } = await trx.raw<{ rows: (ListVersion & { inserted: boolean })[] }>(
    `insert into field_option_lists (context_id, parent_key, version)
       select o.context_id, o.id, 1 from field_options o where o.context_id = ? ${parents === 'top' ? 'and o.parent_id is null' : ''}
       order by o.id
     on conflict (context_id, parent_key) do update set version = field_option_lists.version
     returning parent_key, version, (xmax = 0) as inserted`,
    [contextId],
  );
  return [...top, ...rows.filter((r) => !r.inserted)];
}
