import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { toContextRef, toFieldRef, type ContextRef, type FieldRef } from '../../tracker/refs.ts';
import { contextNotFound, fieldNotFound, fieldPermissionDenied } from '../shared/fieldeditor.errors.ts';
import type { ScopeIds } from './ids.ts';
import { selectScopeRow, type ScopeRow } from './scope.repository.ts';

/** A field and one of its contexts that the user may edit. */
export interface EditableScope {
  field: FieldRef;
  context: ContextRef;
}

/**
 * Every user endpoint that addresses one context (U3, U15, U4–U14, C1–C6) resolves it here, in ONE
 * statement (scope.repository.ts): the field, the context (`default` or an id of this field), whether any
 * grant reaches the user and whether one covers this context (edit-rule.repository.ts). Reads keep the answer
 * per user (scope.cache.ts). The ids were parsed by the caller (a bad id is a 400 before any query). The
 * failures come in the documented order: a missing field 403002, no grant on the field at
 * all 403001 (before the context is looked up, so an ungranted user cannot probe which context ids exist),
 * a missing context 404001, a context the grants do not cover 403001.
 * A write decides inside its own call instead, after its list lock (write-decision.repository.ts).
 */
export async function resolveEditableScope(knex: Knex, user: AuthUser, ids: ScopeIds): Promise<EditableScope> {
  return scopeOfRow(await selectScopeRow(knex, user, ids), ids);
}

/** The decision on the scope query's row (scope.repository.ts): the scope, or the documented refusal. */
export function scopeOfRow(row: ScopeRow | undefined, ids: ScopeIds): EditableScope {
  if (!row) throw fieldNotFound();
  if (!row.any_grant) throw fieldPermissionDenied();
  if (row.c_id === null) throw contextNotFound(String(ids.context));
  if (!row.may_edit) throw fieldPermissionDenied();
  return scopeOfDecidedRow(row);
}

/** The scope of a row whose right is decided (also `ap_lock_and_decide`'s row, write-decision.repository.ts). */
export function scopeOfDecidedRow(row: Omit<ScopeRow, 'any_grant' | 'may_edit' | 'c_id'> & { c_id: number | null }): EditableScope {
  if (row.c_id === null) throw new Error('a decided scope has a context');
  return {
    field: toFieldRef({ id: row.f_id, name: row.f_name, description: row.f_description, type_key: row.f_type_key }),
    context: toContextRef({ id: row.c_id, field_id: row.c_field_id, name: row.c_name, description: row.c_description, is_default: row.c_is_default }),
  };
}
