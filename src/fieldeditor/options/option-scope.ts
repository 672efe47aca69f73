import type { Knex } from 'knex';
import type { ContextRef, FieldRef } from '../../tracker/refs.ts';
import type { AppError } from '../../platform/http/app-error.ts';
import { isCascading, isEditableSelect, isMultiLevel } from '../access/field-kinds.ts';
import type { ScopeIds } from '../access/ids.ts';
import type { OptionRow } from './options.model.ts';
import * as repo from './options.repository.ts';
import { optionNotFound, unsupportedFieldType } from './options.errors.ts';

/** Which list a request addresses: the top-level options of a context, or the children of `parentId`. */
export interface OptionScope {
  field: FieldRef;
  context: ContextRef;
  parentId: number | null;
}

/** Which list a write addresses, as its path names it: the field and context ids (parsed), and the parent of a child list. */
export interface ListPath {
  ids: ScopeIds;
  parentId: number | null;
}

export const listOf = (s: OptionScope): repo.ListKey => ({ contextId: s.context.id, parentId: s.parentId });

/** Why a scope has no option list this service manages (a field type without options, or without children). */
export function fieldTypeRefusal(scope: OptionScope): AppError | undefined {
  const f = scope.field;
  if (!isEditableSelect(f)) return unsupportedFieldType('customFieldId', `The field type ${f.fieldType} has no options that the field editor manages.`);
  if (scope.parentId !== null && !isCascading(f)) {
    return unsupportedFieldType('customFieldId', `Child options exist only on cascading select fields; this field is a ${f.fieldType}.`);
  }
  return undefined;
}

/** Options exist only on select-type fields; child options only on cascading ones. */
export function checkFieldType(scope: OptionScope): void {
  const refusal = fieldTypeRefusal(scope);
  if (refusal) throw refusal;
}

/** The parent of a child list: an option of this context (404 otherwise); plain cascading selects have two levels. */
export async function loadParent(q: Knex, scope: OptionScope, lock: boolean): Promise<OptionRow> {
  const id = scope.parentId ?? 0;
  const parent = await repo.findOption(q, scope.context.id, id, lock);
  if (!parent) throw optionNotFound(id);
  if (parent.parent_id !== null && !isMultiLevel(scope.field)) throw childCannotHaveChildren(id);
  return parent;
}

/** A plain cascading select has two levels: a child option has no children. */
export const childCannotHaveChildren = (id: number) =>
  unsupportedFieldType('optionId', `A cascading select has two levels; the option ${id} is a child option and cannot have children.`);
