import { parseWith } from '../../platform/http/validate.ts';
import { MAX_INT_ID, numericPathId } from '../../platform/http/id.schemas.ts';
import { validationError } from '../shared/fieldeditor.errors.ts';

/*
 * Path ids of the field editor, parsed here and nowhere else: a bad id is a 400 naming the parameter,
 * before any query.
 */

function parseId(raw: string, name: string, allowPrefix: boolean): number {
  const m = (allowPrefix ? /^(?:customfield_)?(\d{1,10})$/ : /^(\d{1,10})$/).exec(raw);
  const n = m?.[1] === undefined ? NaN : Number(m[1]);
  if (!Number.isInteger(n) || n < 1 || n > MAX_INT_ID) {
    throw validationError([{ name, message: `${name} must be a positive integer id${allowPrefix ? ' or customfield_<id>' : ''}.`, value: raw }]);
  }
  return n;
}

/** A {customFieldId}: digits or customfield_<digits>. */
export const parseFieldId = (raw: string): number => parseId(raw, 'customFieldId', true);

/** A numeric {contextId} (the literal `default` is resolved by the scope query). */
export const parseContextId = (raw: string): number => parseId(raw, 'contextId', false);

/** A {contextId} as it may appear in a path: `default` or a numeric id. */
export type ContextParam = number | 'default';

export const parseContextParam = (raw: string): ContextParam => (raw === 'default' ? 'default' : parseContextId(raw));

/** The field and context a user endpoint's path names, parsed (field first, as the errors are ordered). */
export interface ScopeIds {
  fieldId: number;
  context: ContextParam;
}

export const parseScopeIds = (rawFieldId: string, rawContextId: string): ScopeIds => ({
  fieldId: parseFieldId(rawFieldId),
  context: parseContextParam(rawContextId),
});

/** An {optionId} or {childOptionId}: digits only. */
export const parseOptionId = (raw: string, name: 'optionId' | 'childOptionId'): number => parseWith(numericPathId, raw, name);
