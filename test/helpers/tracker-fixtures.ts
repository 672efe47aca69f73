import { expect } from 'vitest';
import type { TestApp } from './test-app.ts';

/** Tracker and field-editor fixtures that go through the public REST endpoints (as a script would). */

export const TYPE = {
  select: 'com.atlassian.jira.plugin.system.customfieldtypes:select',
  radio: 'com.atlassian.jira.plugin.system.customfieldtypes:radiobuttons',
  cascading: 'com.atlassian.jira.plugin.system.customfieldtypes:cascadingselect',
  multiselect: 'com.atlassian.jira.plugin.system.customfieldtypes:multiselect',
  checkboxes: 'com.atlassian.jira.plugin.system.customfieldtypes:multicheckboxes',
  textfield: 'com.atlassian.jira.plugin.system.customfieldtypes:textfield',
  multiLevel: 'com.sourcesense.jira.plugin.cascadingselect:multi-level-cascading-select',
} as const;

export const FE = '/rest/trackercustomfieldeditorplugin/1';

let seq = 0;
/** A name unique within the test run (tests share one database per file). */
export const uniq = (prefix: string) => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;

/** Creates a custom field through POST /rest/api/2/field and returns its id and default context id. */
export async function createField(
  t: TestApp,
  opts: { name?: string; type?: keyof typeof TYPE | string; description?: string } = {},
): Promise<{ id: number; defaultContextId: number; name: string }> {
  const name = opts.name ?? uniq('Field ');
  const typeKey = opts.type === undefined ? TYPE.select : ((TYPE as Record<string, string>)[opts.type] ?? opts.type);
  const res = await t.http.post('/rest/api/2/field').set('Authorization', t.adminAuth).send({ name, type: typeKey, description: opts.description });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = Number(res.body.schema.customId);
  const ctx = await t.http.get(`${FE}/admin/customfields/${id}/contexts`).set('Authorization', t.adminAuth);
  expect(ctx.status).toBe(200);
  return { id, defaultContextId: ctx.body[0].contextId as number, name };
}

/** Creates a project (POST /rest/api/2/project) and returns its id and key. */
export async function createProject(t: TestApp, key?: string): Promise<{ id: number; key: string }> {
  const k = key ?? `P${Math.random().toString(36).slice(2, 8).toUpperCase().replace(/[^A-Z0-9]/g, 'X')}`;
  const res = await t.http.post('/rest/api/2/project').set('Authorization', t.adminAuth).send({ key: k, name: `Project ${k}` });
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
    .post(`${FE}/admin/customfields/${fieldId}/contexts`)
    .set('Authorization', t.adminAuth)
    .send({ name, description: '', projectIds, issueTypeIds: opts.issueTypeIds ?? [] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.contextId as number, name };
}

/** Grants (A4 PATCH) a user or a group on a field, globally or for one context. */
export async function grant(t: TestApp, fieldId: number, who: { user?: string; group?: string; contextId?: number }): Promise<void> {
  const res = await t.http
    .patch(`${FE}/admin/customfields/${fieldId}`)
    .set('Authorization', t.adminAuth)
    .send({
      ...(who.user !== undefined ? { user: who.user } : { group: who.group }),
      action: 'GRANT',
      type: who.contextId === undefined ? 'GLOBAL' : 'CONTEXT',
      ...(who.contextId === undefined ? {} : { contextId: who.contextId }),
    });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
