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

/** The chosen options of a context's default, in their stored order. */
export async function readDefaultOptions(q: Knex, contextId: number): Promise<OptionRow[]> {
  const rows = await q('field_default_options as d')
    .join('field_options as o', 'o.id', 'd.option_id')
    .where('d.context_id', contextId)
    .orderBy('d.position')
    .select<OptionRow[]>('o.id', 'o.field_id', 'o.context_id', 'o.parent_id', 'o.value', 'o.sequence', 'o.disabled');
  return rows;
}

export function toDefaultRead(field: FieldTypeInfo, rows: OptionRow[]): DefaultValueRead {
  const first = rows[0];
  if (!first) return {};
  const kind = defaultKindOf(field);
  if (kind === 'multi') {
    return { defaultOption: null, defaultChildOption: null, defaultOptions: rows.map(toOptionJson) };
  }
  if (kind === 'cascading') {
    const child = rows[1];
    return { defaultOption: toOptionJson(first), defaultChildOption: child ? toOptionJson(child) : null, defaultOptions: null };
  }
  return { defaultOption: toOptionJson(first), defaultChildOption: null, defaultOptions: null };
}

/** U3 and U15 read: the default value of `context` as the read model (`{}` when none is set). */
export async function readDefaultValue(
  q: Knex,
  field: FieldTypeInfo,
  context: { id: number },
): Promise<Record<string, unknown>> {
  return { ...toDefaultRead(field, await readDefaultOptions(q, context.id)) };
}
