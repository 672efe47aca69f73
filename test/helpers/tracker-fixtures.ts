// Tracker and field-editor fixtures, made through the public REST endpoints as a script would (so every write
// passes validation, its transaction and the cache invalidation of the change feed): projects
// (POST /rest/api/2/project), custom fields (POST /rest/api/2/field, with their default context), more contexts
// (A6), grants (A4 PATCH), the only-admins-may-delete setting, and options (U5, C2) with a client for the
// option endpoints of one field and context.
import { expect } from 'vitest';
import { uniq, type TestApp } from './test-app.ts';

/** Type keys by the short `fieldType` name the field editor reports (the multi-level select: `multilevel`). */
export const TYPE = {
  singleselect: 'com.atlassian.jira.plugin.system.customfieldtypes:select',
  radiobuttons: 'com.atlassian.jira.plugin.system.customfieldtypes:radiobuttons',
  cascadingselect: 'com.atlassian.jira.plugin.system.customfieldtypes:cascadingselect',
  multiselect: 'com.atlassian.jira.plugin.system.customfieldtypes:multiselect',
  multicheckboxes: 'com.atlassian.jira.plugin.system.customfieldtypes:multicheckboxes',
  textfield: 'com.atlassian.jira.plugin.system.customfieldtypes:textfield',
  multilevel: 'com.sourcesense.jira.plugin.cascadingselect:multi-level-cascading-select',
} as const;
export type FieldType = keyof typeof TYPE;

/** A path under the app's context path (`BASE_URL`'s path; empty in most tests). */
const at = (t: TestApp, path: string) => `${t.config.contextPath}${path}`;

/** The field editor's current base path (the others answer the same; see `paths(…, base)`). */
export const FE = '/rest/trackercustomfieldeditorplugin/1';

export interface TestField {
  id: number;
  defaultContextId: number;
  name: string;
}

/**
 * Creates a custom field through POST /rest/api/2/field and returns its id and default context id.
 * `type` is a short name of `TYPE` or a full type key (`vendor:module`); the default is the single select.
 */
export async function createField(t: TestApp, opts: { name?: string; type?: FieldType | `${string}:${string}`; description?: string } = {}): Promise<TestField> {
  const name = opts.name ?? uniq('Field ');
  const typeKey = opts.type === undefined ? TYPE.singleselect : ((TYPE as Record<string, string>)[opts.type] ?? opts.type);
  const res = await t.http.post(at(t, '/rest/api/2/field')).set('Authorization', t.adminAuth).send({ name, type: typeKey, description: opts.description });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = Number(res.body.schema.customId);
  const ctx = await t.http.get(at(t, `${FE}/admin/customfields/${id}/contexts`)).set('Authorization', t.adminAuth);
  expect(ctx.status).toBe(200);
  return { id, defaultContextId: ctx.body[0].contextId as number, name };
}

/** Creates a project (POST /rest/api/2/project) and returns its id and key. */
export async function createProject(t: TestApp, key?: string): Promise<{ id: number; key: string }> {
  const k = key ?? `P${Math.random().toString(36).slice(2, 8).toUpperCase().replace(/[^A-Z0-9]/g, 'X')}`;
  const res = await t.http.post(at(t, '/rest/api/2/project')).set('Authorization', t.adminAuth).send({ key: k, name: `Project ${k}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as number, key: k };
}

/**
 * Creates a non-default context through A6. Without `projectIds` a fresh project is created for it, because
 * only one context of a field may apply to all projects (the default one already does).
 */
export async function createContext(
  t: TestApp,
  fieldId: number,
  opts: { name?: string; projectIds?: number[]; issueTypeIds?: number[] } = {},
): Promise<{ id: number; name: string }> {
  const projectIds = opts.projectIds ?? [(await createProject(t)).id];
  const name = opts.name ?? uniq('Context ');
  const res = await t.http
    .post(at(t, `${FE}/admin/customfields/${fieldId}/contexts`))
    .set('Authorization', t.adminAuth)
    .send({ name, description: '', projectIds, issueTypeIds: opts.issueTypeIds ?? [] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.contextId as number, name };
}

/** Grants (A4 PATCH) a user or a group on a field, globally or for one context; names are sent as spelled. */
export async function grant(t: TestApp, fieldId: number, who: { user?: string; group?: string; contextId?: number }): Promise<void> {
  if ((who.user === undefined) === (who.group === undefined)) throw new Error('grant needs a user or a group');
  const res = await t.http
    .patch(at(t, `${FE}/admin/customfields/${fieldId}`))
    .set('Authorization', t.adminAuth)
    .send({
      ...(who.user !== undefined ? { user: who.user } : { group: who.group }),
      action: 'GRANT',
      type: who.contextId === undefined ? 'GLOBAL' : 'CONTEXT',
      ...(who.contextId === undefined ? {} : { contextId: who.contextId }),
    });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Sets the only-admins-may-delete-options setting (PUT …/admin/settings) as the administrator. */
export async function setOnlyAdminsMayDelete(t: TestApp, value: boolean): Promise<void> {
  const res = await t.http.put(at(t, `${FE}/admin/settings`)).set('Authorization', t.adminAuth).send({ onlyAdminsMayDeleteOptions: value });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ onlyAdminsMayDeleteOptions: value });
}

/** Paths of the option endpoints of one field and context (`default` or a number). */
export function paths(fieldId: number, context: number | 'default', base = FE) {
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

/** Creates options through the API (as the given user, which needs a grant) and returns them. */
export async function addOptions(t: TestApp, auth: string, listPath: string, values: string[]): Promise<OptionJson[]> {
  const out: OptionJson[] = [];
  for (const optionvalue of values) {
    const res = await t.http.post(listPath).set('Authorization', auth).send({ optionvalue });
    if (res.status !== 200) throw new Error(`creating ${optionvalue}: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(res.body as OptionJson);
  }
  return out;
}

/** The values of a list in order, checking that its sequences are dense (0..n-1). */
export async function listValues(t: TestApp, auth: string, listPath: string): Promise<string[]> {
  const res = await t.http.get(listPath).set('Authorization', auth).expect(200);
  const list = res.body as OptionJson[];
  list.forEach((o, i) => {
    if (o.sequence !== i) throw new Error(`sequence not dense at ${i}: ${JSON.stringify(list)}`);
  });
  return list.map((o) => o.optionvalue);
}
