import type { Knex } from 'knex';
import { AppError } from '../../platform/http/app-error.ts';
import { FIELD_COLUMNS, CONTEXT_COLUMNS, type ContextRow, type FieldRow } from '../../tracker/fields.repository.ts';
import { toContextRef, toFieldRef, type ContextRef, type FieldRef } from '../../tracker/refs.ts';
import { fieldNotFound, SUB } from '../fieldeditor.errors.ts';
import { parseContextId } from './ids.ts';

/** Field and context look-ups of the administration endpoints, answered with the field editor's errors. */

export const contextNotFound = (raw: string) =>
  new AppError(404, 'CONTEXT_NOT_FOUND', `The context ${raw} does not exist for this custom field.`, { subCode: SUB.CONTEXT_NOT_FOUND });

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
