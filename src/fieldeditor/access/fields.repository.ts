import type { Knex } from 'knex';
import { FIELD_COLUMNS, CONTEXT_COLUMNS, type ContextRow, type FieldRow } from '../../tracker/fields.repository.ts';
import { toContextRef, toFieldRef, type ContextRef, type FieldRef } from '../../tracker/refs.ts';
import { contextNotFound, fieldNotFound } from '../shared/fieldeditor.errors.ts';
import { parseContextId } from './ids.ts';

/** Field and context look-ups of the administration endpoints, answered with the field editor's errors. */

/** Field by id or 403 (a field that does not exist answers 403, per contract, since 1.5.0). */
export async function loadField(q: Knex, fieldId: number): Promise<FieldRef> {
  const row = (await q('custom_fields').select(FIELD_COLUMNS).where({ id: fieldId }).first()) as FieldRow | undefined;
  if (!row) throw fieldNotFound();
  return toFieldRef(row);
}

/**
 * Context of that field: `default` → its default context; digits → that context if it belongs to the field,
 * else 404 (subCode 404001); anything else → 400 naming contextId.
 */
export async function loadContext(q: Knex, field: FieldRef, rawContextId: string): Promise<ContextRef> {
  const base = q('field_contexts').select(CONTEXT_COLUMNS).where({ field_id: field.id });
  const filtered = rawContextId === 'default' ? base.andWhere({ is_default: true }) : base.andWhere({ id: parseContextId(rawContextId) });
  const row = (await filtered.first()) as ContextRow | undefined;
  if (!row) throw contextNotFound(rawContextId);
  return toContextRef(row);
}

/** An import entry's field: by id, or by name without regard to case (the oldest of that name). Undefined: none. */
export async function findFieldForImport(q: Knex, by: { fieldId?: number; fieldName?: string }): Promise<{ id: number; type_key: string } | undefined> {
  const fq = q('custom_fields').select('id', 'type_key');
  return (await (by.fieldId !== undefined ? fq.where('id', by.fieldId) : fq.where('name_key', (by.fieldName ?? '').toLowerCase()).orderBy('id')).first()) as
    | { id: number; type_key: string }
    | undefined;
}

/** An import entry's context of that field: `default`, an id, or a name (exact). Undefined: none. */
export async function findContextIdForImport(q: Knex, fieldId: number, context: number | string): Promise<number | undefined> {
  const cq = q('field_contexts').where('field_id', fieldId);
  const row = (await (context === 'default' ? cq.andWhere('is_default', true) : typeof context === 'number' ? cq.andWhere('id', context) : cq.andWhere('name', context)).first('id')) as
    | { id: number }
    | undefined;
  return row?.id;
}
