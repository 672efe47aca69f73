import { MULTI_LEVEL_CASCADING_KEY, SYSTEM_PREFIX, SYSTEM_TYPES, shortFieldType } from '../../tracker/field-types.ts';
import type { AppError } from '../../platform/http/app-error.ts';
import type { EventEntry } from '../maintenance/event-log.repository.ts';
import { fieldTypeRefusal, type OptionScope } from './option-scope.ts';
import { optionTarget, type OptionChange, type OptionJson } from './options.model.ts';

/*
 * What an option write needs to know besides its rows: the event-log entry of a change, and, for a write that
 * decides inside the database (ap_option_create, _update, _move), which field types have the list it writes,
 * derived from the one rule of option-scope.ts (`fieldTypeRefusal`).
 */

const KNOWN_TYPES = [...SYSTEM_TYPES.map((t) => SYSTEM_PREFIX + t), MULTI_LEVEL_CASCADING_KEY];
const fieldOfType = (typeKey: string) => ({ id: 0, name: '', description: '', typeKey, fieldType: shortFieldType(typeKey) });
const scopeOfType = (typeKey: string, parentId: number | null) =>
  ({ field: fieldOfType(typeKey), context: undefined, parentId }) as unknown as OptionScope;
const typesWith = (parentId: number | null) => KNOWN_TYPES.filter((k) => fieldTypeRefusal(scopeOfType(k, parentId)) === undefined);
const TOP_LEVEL = { types: typesWith(null), multiLevel: MULTI_LEVEL_CASCADING_KEY };
const CHILD_LISTS = { types: typesWith(1), multiLevel: MULTI_LEVEL_CASCADING_KEY };

/**
 * The type rule as a write function takes it: the type keys whose fields have the list (the top level:
 * `parentId` null), and the one type whose child options may have children.
 */
export const typeArgs = (parentId: number | null) => (parentId === null ? TOP_LEVEL : CHILD_LISTS);

/** The refusal of a field of type `typeKey` for the list `parentId` names (the database refused it: AP400). */
export const typeRefusal = (typeKey: string, parentId: number | null): AppError | undefined => fieldTypeRefusal(scopeOfType(typeKey, parentId));

/** The event-log kind of a change; an update is named by what actually changed (both, or nothing: `option.updated`). */
const logKind = (change: OptionChange): string => {
  if (change.action !== 'option.updated') return change.action;
  const before = change.before as OptionJson;
  const after = change.after as OptionJson;
  const renamed = before.optionvalue !== after.optionvalue;
  const toggled = before.disabled !== after.disabled;
  if (renamed && !toggled) return 'option.renamed';
  if (toggled && !renamed) return after.disabled ? 'option.disabled' : 'option.enabled';
  return 'option.updated';
};
const optionIdOf = (after: unknown): number | null => {
  const id = (after as { id?: unknown } | null)?.id;
  return typeof id === 'number' ? id : null;
};

/** The event-log entry of a change (ap_option_create writes a create's entry of the same shape itself). */
export function entryOf(actor: string, scope: OptionScope, change: OptionChange): EventEntry {
  return {
    actor,
    kind: logKind(change),
    fieldId: scope.field.id,
    contextId: scope.context.id,
    target:
      change.action === 'option.sorted'
        ? { type: 'optionList', parentId: scope.parentId }
        : optionTarget(optionIdOf(change.after) ?? optionIdOf(change.before), scope.parentId),
    before: change.before,
    after: change.after,
  };
}
