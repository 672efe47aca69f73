import type { ComponentChildren } from 'preact';
import type { FieldRecord } from './fieldeditor.ts';
import { href } from './router.ts';
import { Cell } from './ui.tsx';

/** `com.atlassian.jira.plugin.system.customfieldtypes:select` as `select`. */
export const shortType = (t: string) => (t.includes(':') ? t.slice(t.lastIndexOf(':') + 1) : t);

/**
 * A field's row in the lists U1 (`fields`) and A1 (`admin`), which both start with the name, linked to the field's
 * screen in that area, and the type; `children` are the list's own cells.
 */
export function FieldRow({
  field,
  route,
  children,
}: {
  field: FieldRecord;
  route: 'fields' | 'admin';
  children: ComponentChildren;
}) {
  return (
    <tr data-testid="field-row" data-field-id={field.fieldId}>
      <Cell label="Field">
        <a href={href(route, field.fieldId)}>{field.fieldName}</a>
      </Cell>
      <Cell label="Type">{shortType(field.fieldType)}</Cell>
      {children}
    </tr>
  );
}
