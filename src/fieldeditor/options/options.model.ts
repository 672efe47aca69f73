import { MULTI_LEVEL_CASCADING_KEY, SYSTEM_PREFIX } from '../../tracker/field-types.ts';

/**
 * Shapes shared by the option, default-value and sort code: the stored row, the wire model and the
 * field-type families that decide which default members and which child endpoints apply.
 */
export interface OptionRow {
  id: number;
  field_id: number;
  context_id: number;
  parent_id: number | null;
  value: string;
  /** Sparse sort key among siblings (see the migration); the interface shows its rank as `sequence`. */
  position: number;
  disabled: boolean;
}

/** The option as the interface shows it (member order as the original: optionvalue, id, sequence, disabled). */
export interface OptionJson {
  optionvalue: string;
  id: number;
  sequence: number;
  disabled: boolean;
}

/** One change of an option list as the event log records it (the entry's kind is derived from `action`). */
export interface OptionChange {
  action: string;
  before: unknown;
  after: unknown;
}

/** What an option's event-log entry names as its target: an option of the top level, or a child option of `parentId`. */
export const optionTarget = (id: number | null, parentId: number | null) => ({ type: parentId === null ? 'option' : 'childOption', id, parentId });

/** `sequence` is the option's 0-based rank in its list, computed by the caller (repository `rankOf`). */
export const toOptionJson = (r: Pick<OptionRow, 'id' | 'value' | 'disabled'>, sequence: number): OptionJson => ({
  optionvalue: r.value,
  id: r.id,
  sequence,
  disabled: r.disabled,
});

/** Case-insensitive comparison key of a value (kept in `value_key`; the unique index compares it). */
export const valueKey = (value: string): string => value.toLowerCase();

/** The minimum of a field these modules need (tracker-admin's FieldRef satisfies it). */
export interface FieldTypeInfo {
  id: number;
  typeKey: string;
}


export type DefaultKind = 'single' | 'cascading' | 'multi';

/** Which default-value members a field type uses; undefined for types whose options the editor does not manage. */
export function defaultKindOf(field: FieldTypeInfo): DefaultKind | undefined {
  switch (field.typeKey) {
    case `${SYSTEM_PREFIX}select`:
    case `${SYSTEM_PREFIX}radiobuttons`:
      return 'single';
    case `${SYSTEM_PREFIX}cascadingselect`:
    case MULTI_LEVEL_CASCADING_KEY:
      return 'cascading';
    case `${SYSTEM_PREFIX}multiselect`:
    case `${SYSTEM_PREFIX}multicheckboxes`:
      return 'multi';
    default:
      return undefined;
  }
}
