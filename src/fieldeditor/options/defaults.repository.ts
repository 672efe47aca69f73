import type { Knex } from 'knex';
import { defaultKindOf, toOptionJson, type FieldTypeInfo, type OptionJson, type OptionRow } from './options.model.ts';

/**
 * The default-value read model of the interface: single and radio fill `defaultOption`; cascading fills
 * `defaultOption` and `defaultChildOption`; multi and checkboxes fill `defaultOptions`; unused members are
 * null (as the original's Java model serialised them). No default → `{}`.
 */
export interface DefaultValueRead {
  defaultOption?: OptionJson | null;
  defaultChildOption?: OptionJson | null;
  defaultOptions?: OptionJson[] | null;
}

export type DefaultOptionRow = OptionRow & { sequence: number };

/** The chosen options of a context's default, in their stored order, each with its rank in its list. */
export async function readDefaultOptions(q: Knex, contextId: number): Promise<DefaultOptionRow[]> {
  const rows = (await q('field_default_options as d')
    .join('field_options as o', 'o.id', 'd.option_id')
    .where('d.context_id', contextId)
    .orderBy('d.position')
    .select(
      'o.id', 'o.field_id', 'o.context_id', 'o.parent_id', 'o.value', 'o.position', 'o.disabled',
      q.raw(
        `(select count(*) from field_options s where s.context_id = o.context_id
           and coalesce(s.parent_id, 0) = coalesce(o.parent_id, 0)
           and (s.position < o.position or (s.position = o.position and s.id < o.id)))::int as sequence`,
      ),
    )) as DefaultOptionRow[];
  return rows;
}

/** Whether the context has a default value (any chosen option). */
export async function hasDefault(q: Knex, contextId: number): Promise<boolean> {
  return (await q('field_default_options').where('context_id', contextId).first('option_id')) !== undefined;
}

/** Removes the context's default value (every chosen option). */
export async function clearDefault(trx: Knex.Transaction, contextId: number): Promise<void> {
  await trx('field_default_options').where('context_id', contextId).del().returning('option_id');
}

/** Sets the chosen options of a context that has none, in this order (nothing to insert for an empty list). */
export async function insertDefault(trx: Knex.Transaction, contextId: number, optionIds: readonly number[]): Promise<void> {
  if (optionIds.length === 0) return;
  await trx('field_default_options').insert(optionIds.map((option_id, position) => ({ context_id: contextId, option_id, position })));
}

export function toDefaultRead(field: FieldTypeInfo, rows: DefaultOptionRow[]): DefaultValueRead {
  const first = rows[0];
  if (!first) return {};
  const kind = defaultKindOf(field);
  if (kind === 'multi') {
    return { defaultOption: null, defaultChildOption: null, defaultOptions: rows.map((r) => toOptionJson(r, r.sequence)) };
  }
  if (kind === 'cascading') {
    const child = rows[1];
    return { defaultOption: toOptionJson(first, first.sequence), defaultChildOption: child ? toOptionJson(child, child.sequence) : null, defaultOptions: null };
  }
  return { defaultOption: toOptionJson(first, first.sequence), defaultChildOption: null, defaultOptions: null };
}

/** U3 and U15 read: the default value of `context` as the read model (`{}` when none is set). */
export async function readDefaultValue(
  q: Knex,
  field: FieldTypeInfo,
  context: { id: number },
): Promise<Record<string, unknown>> {
  return { ...toDefaultRead(field, await readDefaultOptions(q, context.id)) };
}
