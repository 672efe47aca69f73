import type { Knex } from 'knex';
import type { AuthUser } from '../../platform/auth/auth-user.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { MULTI_LEVEL_CASCADING_KEY, EDITABLE_FIELD_TYPES } from '../../tracker/field-types.ts';
import { FIELD_COLUMNS, CONTEXT_COLUMNS, type ContextRow, type FieldRow } from '../../tracker/fields.repository.ts';
import { toContextRef, toFieldRef, type ContextRef, type FieldRef } from '../../tracker/refs.ts';
import { fieldNotFound, fieldPermissionDenied, SUB, validationError } from '../fieldeditor.errors.ts';

/*
 * Field and context resolution and THE permission decision of the field editor. Every user endpoint
 * (grants, options, defaults) goes through `resolveEditableContext` or `mayEdit`, so the rule lives once.
 */

// The shapes live with the tracker host (which owns fields and contexts); re-exported here for the add-on.
export type { FieldRef, ContextRef } from '../../tracker/refs.ts';
export { toFieldRef, toContextRef } from '../../tracker/refs.ts';

// Postgres integer columns: a larger id cannot exist, and comparing it would raise an out-of-range error.
const MAX_ID = 2_147_483_647;

function parseId(raw: string, name: string, allowPrefix: boolean): number {
  const m = (allowPrefix ? /^(?:customfield_)?(\d{1,10})$/ : /^(\d{1,10})$/).exec(raw);
  const n = m?.[1] === undefined ? NaN : Number(m[1]);
  if (!Number.isInteger(n) || n < 1 || n > MAX_ID) {
    throw validationError([{ name, message: `${name} must be a positive integer id${allowPrefix ? ' or customfield_<id>' : ''}.`, value: raw }]);
  }
  return n;
}

/** Parses a {customFieldId} path value: digits or customfield_<digits>; anything else → 400 naming customFieldId. */
export function parseFieldId(raw: string): number {
  return parseId(raw, 'customFieldId', true);
}

/** Parses a numeric {contextId} (the literal `default` is handled by loadContext). */
export function parseContextId(raw: string): number {
  return parseId(raw, 'contextId', false);
}

/** Field by id or 403 (a field that does not exist answers 403, per contract, since 1.5.0). */
export async function loadField(q: Knex, fieldId: number): Promise<FieldRef> {
  const row = (await q('custom_fields').select(FIELD_COLUMNS).where({ id: fieldId }).first()) as FieldRow | undefined;
  if (!row) throw fieldNotFound();
  return toFieldRef(row);
}

export const contextNotFound = (raw: string) =>
  new AppError(404, 'CONTEXT_NOT_FOUND', `The context ${raw} does not exist for this custom field.`, { subCode: SUB.CONTEXT_NOT_FOUND });

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

/** Subquery: lower-case names of the groups `userId` belongs to. */
export const groupKeysOf = (q: Knex, userId: number) =>
  q('group_members as gm').join('groups as gr', 'gr.id', 'gm.group_id').where('gm.user_id', userId).select('gr.name_key');

/** Restricts a field_grants query (alias `g`) to grants that reach this user: to its name or one of its groups. */
export function grantsReaching(q: Knex, user: AuthUser) {
  return (w: Knex.QueryBuilder) =>
    w
      .where((u) => u.where('g.principal_type', 'user').andWhere('g.principal_key', user.name.toLowerCase()))
      .orWhere((gq) => gq.where('g.principal_type', 'group').whereIn('g.principal_key', groupKeysOf(q, user.id)));
}

/**
 * THE permission decision: may `user` use the user endpoints of this field in this context? A global grant
 * (to the user or one of its groups) covers every context; otherwise a grant on that context is needed.
 * Administrators need grants like anyone (fieldeditor-api.md, Authentication 3).
 */
export async function mayEdit(q: Knex, user: AuthUser, fieldId: number, contextId: number): Promise<boolean> {
  const row = await q('field_grants as g')
    .first(q.raw('1 as ok'))
    .where('g.field_id', fieldId)
    .andWhere((w) => w.whereNull('g.context_id').orWhere('g.context_id', contextId))
    .andWhere(grantsReaching(q, user));
  return row !== undefined;
}

/** Does the user hold any grant (global or on some context) on the field? Gate of U2 and of unknown contexts. */
export async function hasAnyGrant(q: Knex, user: AuthUser, fieldId: number): Promise<boolean> {
  const row = await q('field_grants as g').first(q.raw('1 as ok')).where('g.field_id', fieldId).andWhere(grantsReaching(q, user));
  return row !== undefined;
}

/**
 * Used by every user endpoint that addresses one context: resolves field + context and throws 403 subCode
 * 403001 when not granted. A caller without any grant on the field gets 403001 before the context is even
 * looked up, so an ungranted user cannot probe which context ids exist.
 */
export async function resolveEditableContext(
  q: Knex,
  user: AuthUser,
  rawFieldId: string,
  rawContextId: string,
): Promise<{ field: FieldRef; context: ContextRef }> {
  const field = await loadField(q, parseFieldId(rawFieldId));
  if (rawContextId !== 'default') parseContextId(rawContextId);
  if (!(await hasAnyGrant(q, user, field.id))) throw fieldPermissionDenied();
  const context = await loadContext(q, field, rawContextId);
  if (!(await mayEdit(q, user, field.id, context.id))) throw fieldPermissionDenied();
  return { field, context };
}

export const isMultiLevel = (f: FieldRef): boolean => f.typeKey === MULTI_LEVEL_CASCADING_KEY;
export const isCascading = (f: FieldRef): boolean => f.fieldType === 'cascadingselect' || isMultiLevel(f);
export const isEditableSelect = (f: FieldRef): boolean =>
  isMultiLevel(f) || (EDITABLE_FIELD_TYPES as readonly string[]).includes(f.fieldType);
