import { shortFieldType } from './field-types.ts';
import type { ContextRow, FieldRow } from './fields.repository.ts';

/** A custom field as the add-ons see it. */
export interface FieldRef {
  id: number;
  name: string;
  description: string;
  typeKey: string;
  /** Short name per host-api.md (`singleselect`, `cascadingselect`, … or a foreign key in full). */
  fieldType: string;
}

/** A context (configuration scheme) of a custom field. */
export interface ContextRef {
  id: number;
  fieldId: number;
  name: string;
  description: string;
  isDefault: boolean;
}

export const toFieldRef = (r: FieldRow): FieldRef => ({
  id: r.id,
  name: r.name,
  description: r.description,
  typeKey: r.type_key,
  fieldType: shortFieldType(r.type_key),
});

export const toContextRef = (r: ContextRow): ContextRef => ({
  id: r.id,
  fieldId: r.field_id,
  name: r.name,
  description: r.description,
  isDefault: r.is_default,
});
