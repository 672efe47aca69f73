import type { Knex } from 'knex';
import { POSITION_GAP } from '../shared/fieldeditor.model.ts';
import { valueKey, type OptionRow } from './options.model.ts';
import { COLUMNS, type ListKey } from './options.repository.ts';

/**
 * Set-based writes of a batch or a sync (issue 27) to one locked list: each is ONE statement whatever the
 * number of options (a batch of 1,000 creates is one insert, not 1,000 round trips).
 */

/** Appends options at the end of a locked list, in the order given, `after` being the list's largest position (undefined: empty). */
export async function appendOptions(
  trx: Knex.Transaction,
  fieldId: number,
  list: ListKey,
  after: number | undefined,
  items: readonly { value: string; disabled: boolean }[],
): Promise<OptionRow[]> {
  if (items.length === 0) return [];
  const first = after === undefined ? 0 : after + POSITION_GAP;
  const rows = items.map((item, i) => ({
    field_id: fieldId,
    context_id: list.contextId,
    parent_id: list.parentId,
    value: item.value,
    value_key: valueKey(item.value),
    position: first + i * POSITION_GAP,
    disabled: item.disabled,
  }));
  const inserted = await trx('field_options').insert(rows).returning<OptionRow[]>([...COLUMNS]);
  // RETURNING of a multi-row VALUES insert answers the rows in the order given; sorted anyway, by position.
  return inserted.map((r) => ({ ...r, position: Number(r.position) })).sort((a, b) => a.position - b.position);
}

/**
 * Renames and (dis)enables options in one statement (null members stay). `inTwoSteps`: the new values take
 * keys other renamed options give up (a swap), which the unique index would refuse row by row, so the
 * renamed rows' keys are set aside first.
 */
export async function updateOptions(
  trx: Knex.Transaction,
  changes: readonly { id: number; value?: string | undefined; disabled?: boolean | undefined }[],
  inTwoSteps: boolean,
): Promise<void> {
  if (changes.length === 0) return;
  if (inTwoSteps) await setKeysAside(trx, changes.filter((c) => c.value !== undefined).map((c) => c.id));
  await trx.raw(
    `update field_options o
        set value = coalesce(v.value, o.value), value_key = coalesce(v.key, o.value_key), disabled = coalesce(v.disabled, o.disabled)
       from unnest(?::int[], ?::text[], ?::text[], ?::boolean[]) as v(id, value, key, disabled)
      where o.id = v.id`,
    [
      changes.map((c) => c.id),
      changes.map((c) => c.value ?? null),
      changes.map((c) => (c.value === undefined ? null : valueKey(c.value))),
      changes.map((c) => c.disabled ?? null),
    ] as Knex.RawBinding[],
  );
}

/** Gives options value keys no value can have (a control character, which storable text never contains), so that their values can be taken by others in the same transaction. */
export async function setKeysAside(trx: Knex.Transaction, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await trx.raw(`update field_options set value_key = chr(1) || id::text where id = any(?::int[])`, [[...ids]]);
}

/** Deletes options with their descendants (FK cascade); answers every id that went, each deleted option's subtree included. */
export async function deleteOptions(trx: Knex.Transaction, ids: readonly number[]): Promise<Map<number, number[]>> {
  const subtrees = new Map<number, number[]>();
  if (ids.length === 0) return subtrees;
  const { rows } = await trx.raw<{ rows: { root: number; id: number }[] }>(
    `with recursive t(root, id) as (select r, r from unnest(?::int[]) as r
                                   union all select t.root, o.id from field_options o join t on o.parent_id = t.id)
     select root, id from t`,
    [[...ids]],
  );
  for (const r of rows) {
    const ids = subtrees.get(r.root);
    if (ids) ids.push(r.id);
    else subtrees.set(r.root, [r.id]);
  }
  const deleted = await trx('field_options').whereRaw('id = any(?::int[])', [[...ids]]).del().returning('id');
  if (deleted.length !== ids.length) throw new Error('an option vanished inside its locked list');
  return subtrees;
}

/** Rows inserted per statement (7 bindings each, well under PostgreSQL's 65,535). */
const INSERT_CHUNK = 2000;

/** Inserts options of any lists at given positions (a sync's level), answering id, parent and value key of each. */
export async function insertPlaced(
  trx: Knex.Transaction,
  fieldId: number,
  contextId: number,
  items: readonly { parentId: number | null; value: string; disabled: boolean; position: number }[],
): Promise<{ id: number; parent_id: number | null; value_key: string }[]> {
  const out: { id: number; parent_id: number | null; value_key: string }[] = [];
  for (let i = 0; i < items.length; i += INSERT_CHUNK) {
    const rows = items.slice(i, i + INSERT_CHUNK).map((item) => ({
      field_id: fieldId,
      context_id: contextId,
      parent_id: item.parentId,
      value: item.value,
      value_key: valueKey(item.value),
      position: item.position,
      disabled: item.disabled,
    }));
    out.push(...((await trx('field_options').insert(rows).returning(['id', 'parent_id', 'value_key'])) as { id: number; parent_id: number | null; value_key: string }[]));
  }
  return out;
}

/** A sync's writes to existing options in one statement: value, disabled, parent (`setParent`) and position, each where given. */
export async function updatePlaced(
  trx: Knex.Transaction,
  changes: readonly { id: number; value?: string | undefined; disabled?: boolean | undefined; parentId?: number | null | undefined; setParent: boolean; position?: number | undefined }[],
): Promise<void> {
  if (changes.length === 0) return;
  await trx.raw(
    `update field_options o
        set value = coalesce(v.value, o.value), value_key = coalesce(v.key, o.value_key), disabled = coalesce(v.disabled, o.disabled),
            parent_id = case when v.set_parent then v.parent_id else o.parent_id end, position = coalesce(v.position, o.position)
       from unnest(?::int[], ?::text[], ?::text[], ?::boolean[], ?::boolean[], ?::int[], ?::bigint[]) as v(id, value, key, disabled, set_parent, parent_id, position)
      where o.id = v.id`,
    [
      changes.map((c) => c.id),
      changes.map((c) => c.value ?? null),
      changes.map((c) => (c.value === undefined ? null : valueKey(c.value))),
      changes.map((c) => c.disabled ?? null),
      changes.map((c) => c.setParent),
      changes.map((c) => c.parentId ?? null),
      changes.map((c) => c.position ?? null),
    ] as Knex.RawBinding[],
  );
}
