/**
 * Custom field type keys the tracker host knows, and the short `fieldType` name the field editor reports.
 * Rule (host-api.md): the suffix after the system prefix is the short name, except that the single select
 * (`…:select`) is reported as `singleselect`; keys of other vendors are reported whole.
 */
export const SYSTEM_PREFIX = 'com.atlassian.jira.plugin.system.customfieldtypes:';
export const MULTI_LEVEL_CASCADING_KEY = 'com.sourcesense.jira.plugin.cascadingselect:multi-level-cascading-select';

/** System type suffixes accepted by POST /rest/api/2/field (an unknown system suffix is a typo, so 400). */
export const SYSTEM_TYPES = [
  'select',
  'radiobuttons',
  'cascadingselect',
  'multiselect',
  'multicheckboxes',
  'textfield',
  'textarea',
  'float',
  'datepicker',
  'datetime',
  'url',
  'labels',
  'userpicker',
  'multiuserpicker',
  'grouppicker',
  'multigrouppicker',
  'project',
  'version',
  'multiversion',
  'readonlyfield',
] as const;

/** Short names of the types whose options the field editor manages. */
export const EDITABLE_FIELD_TYPES = ['singleselect', 'radiobuttons', 'cascadingselect', 'multiselect', 'multicheckboxes'] as const;

// A vendor key is `<plugin key>:<module key>`; anything else (spaces, empty parts) is refused.
const VENDOR_KEY = /^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$/;

export function isKnownTypeKey(typeKey: string): boolean {
  if (typeKey.startsWith(SYSTEM_PREFIX)) {
    return (SYSTEM_TYPES as readonly string[]).includes(typeKey.slice(SYSTEM_PREFIX.length));
  }
  return typeKey.length <= 255 && VENDOR_KEY.test(typeKey);
}

export function shortFieldType(typeKey: string): string {
  if (!typeKey.startsWith(SYSTEM_PREFIX)) return typeKey;
  const suffix = typeKey.slice(SYSTEM_PREFIX.length);
  return suffix === 'select' ? 'singleselect' : suffix;
}

/** The `schema.type` the tracker host reports for a field of that key (Jira's REST field schema). */
export function schemaType(typeKey: string): string {
  switch (shortFieldType(typeKey)) {
    case 'singleselect':
    case 'radiobuttons':
      return 'option';
    case 'cascadingselect':
      return 'option-with-child';
    case 'multiselect':
    case 'multicheckboxes':
    case 'labels':
    case 'multiuserpicker':
    case 'multigrouppicker':
    case 'multiversion':
      return 'array';
    case 'float':
      return 'number';
    case 'datepicker':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'userpicker':
      return 'user';
    case 'grouppicker':
      return 'group';
    case 'project':
      return 'project';
    case 'version':
      return 'version';
    default:
      return typeKey === MULTI_LEVEL_CASCADING_KEY ? 'option-with-child' : 'string';
  }
}
