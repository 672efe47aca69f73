// Direct-to-table tracker data for the field-editor option tests: fields with their default context,
// more contexts, grants, and a client for the option endpoints under one base path.
import type { Knex } from 'knex';
import type { TestApp } from './test-app.ts';

export const TYPE_KEYS = {
  singleselect: 'com.atlassian.jira.plugin.system.customfieldtypes:select',
  radiobuttons: 'com.atlassian.jira.plugin.system.customfieldtypes:radiobuttons',
  cascadingselect: 'com.atlassian.jira.plugin.system.customfieldtypes:cascadingselect',
  multiselect: 'com.atlassian.jira.plugin.system.customfieldtypes:multiselect',
  multicheckboxes: 'com.atlassian.jira.plugin.system.customfieldtypes:multicheckboxes',
  textfield: 'com.atlassian.jira.plugin.system.customfieldtypes:textfield',
  multilevel: 'com.sourcesense.jira.plugin.cascadingselect:multi-level-cascading-select',
} as const;
export type FixtureType = keyof typeof TYPE_KEYS;

export const API = '/rest/trackercustomfieldeditorplugin/1';

let counter = 0;
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

export async function createField(knex: Knex, type: FixtureType, name = unique(`f-${type}-`)) {
  const [field] = await knex('custom_fields')
    .insert({ name, name_key: name.toLowerCase(), description: '', type_key: TYPE_KEYS[type] })
    .returning<{ id: number }[]>('id');
  if (!field) throw new Error('no field');
  const defaultContextId = await createContext(knex, field.id, `Default Configuration Scheme for ${name}`, true);
  return { id: field.id, defaultContextId };
}

export async function createContext(knex: Knex, fieldId: number, name = unique('ctx-'), isDefault = false): Promise<number> {
  const [row] = await knex('field_contexts').insert({ field_id: fieldId, name, is_default: isDefault }).returning<{ id: number }[]>('id');
  if (!row) throw new Error('no context');
  return row.id;
}

export async function grant(knex: Knex, fieldId: number, p: { user?: string; group?: string; contextId?: number }): Promise<void> {
  const name = p.user ?? p.group;
  if (!name) throw new Error('grant needs user or group');
  await knex('field_grants').insert({
    field_id: fieldId,
    context_id: p.contextId ?? null,
    principal_type: p.user ? 'user' : 'group',
    principal_name: name,
    principal_key: name.toLowerCase(),
  });
}

/** Paths of the option endpoints of one field and context (`default` or a number). */
export function paths(fieldId: number, context: number | 'default', base = API) {
  const options = `${base}/user/customfields/${fieldId}/contexts/${context}/options`;
  const children = (parentId: number) => `${options}/${parentId}/childoptions`;
  return {
    options,
    option: (id: number | string) => `${options}/${id}`,
    move: (id: number) => `${options}/${id}/move`,
    sort: `${options}/sort`,
    default: `${options}/default`,
    children,
    child: (parentId: number, id: number | string) => `${children(parentId)}/${id}`,
    childMove: (parentId: number, id: number) => `${children(parentId)}/${id}/move`,
    childSort: (parentId: number) => `${children(parentId)}/sort`,
  };
}

export interface OptionJson {
  optionvalue: string;
  id: number;
  sequence: number;
  disabled: boolean;
}

/** Creates options through the API (as the given user) and returns them. */
export async function addOptions(t: TestApp, auth: string, listPath: string, values: string[]): Promise<OptionJson[]> {
  const out: OptionJson[] = [];
  for (const optionvalue of values) {
    const res = await t.http.post(listPath).set('Authorization', auth).send({ optionvalue });
    if (res.status !== 200) throw new Error(`creating ${optionvalue}: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(res.body as OptionJson);
  }
  return out;
}

export async function listValues(t: TestApp, auth: string, listPath: string): Promise<string[]> {
  const res = await t.http.get(listPath).set('Authorization', auth).expect(200);
  const list = res.body as OptionJson[];
  // Every list answer is dense: 0..n-1 in order.
  list.forEach((o, i) => {
    if (o.sequence !== i) throw new Error(`sequence not dense at ${i}: ${JSON.stringify(list)}`);
  });
  return list.map((o) => o.optionvalue);
}
