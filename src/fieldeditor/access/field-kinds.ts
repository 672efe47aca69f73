import { MULTI_LEVEL_CASCADING_KEY, EDITABLE_FIELD_TYPES } from '../../tracker/field-types.ts';
import type { FieldRef } from '../../tracker/refs.ts';

/** Which fields have options the editor manages, and which of them have child options. */
export const isMultiLevel = (f: Pick<FieldRef, 'typeKey'>): boolean => f.typeKey === MULTI_LEVEL_CASCADING_KEY;
export const isCascading = (f: Pick<FieldRef, 'typeKey' | 'fieldType'>): boolean => f.fieldType === 'cascadingselect' || isMultiLevel(f);
export const isEditableSelect = (f: Pick<FieldRef, 'typeKey' | 'fieldType'>): boolean =>
  isMultiLevel(f) || (EDITABLE_FIELD_TYPES as readonly string[]).includes(f.fieldType);
