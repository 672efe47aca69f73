import { expect } from 'vitest';
import type { TestApp } from '../../helpers/test-app.ts';

// Small REST helpers for the wiki tests: every fixture goes through the public API.

export async function createSpace(t: TestApp, key: string, readers: { groups?: string[]; users?: string[] } = {}, creators: { groups?: string[]; users?: string[] } = {}) {
  const res = await t.http.post('/rest/api/space').set('Authorization', t.adminAuth).send({ key, name: `Space ${key}` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const grant = async (type: 'user' | 'group', identifier: string, key2: 'read' | 'create') => {
    const g = await t.http
      .post(`/rest/api/space/${key}/permission`)
      .set('Authorization', t.adminAuth)
      .send({ subject: { type, identifier }, operation: { key: key2, target: 'space' } });
    expect(g.status, JSON.stringify(g.body)).toBe(200);
  };
  for (const g of readers.groups ?? []) await grant('group', g, 'read');
  for (const u of readers.users ?? []) await grant('user', u, 'read');
  for (const g of creators.groups ?? []) await grant('group', g, 'create');
  for (const u of creators.users ?? []) await grant('user', u, 'create');
  return res.body as { id: number; key: string };
}

export async function createContent(
  t: TestApp,
  auth: string,
  c: { type?: string; title?: string; space: string; body?: string; parent?: string; container?: string },
) {
  const res = await t.http
    .post('/rest/api/content')
    .set('Authorization', auth)
    .send({
      type: c.type ?? 'page',
      title: c.title,
      space: { key: c.space },
      ...(c.parent ? { ancestors: [{ id: c.parent }] } : {}),
      ...(c.container ? { container: { id: c.container, type: 'page' } } : {}),
      body: { storage: { value: c.body ?? '<p>hello</p>', representation: 'storage' } },
    });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; version: { number: number }; body: { storage: { value: string } } };
}

export const multiBox = (id: string | undefined, body: string, params: Record<string, string> = {}) =>
  `<ac:structured-macro ac:name="advanced-codeblock-macro" ac:schema-version="1"${id ? ` ac:macro-id="${id}"` : ''}>` +
  Object.entries(params).map(([k, v]) => `<ac:parameter ac:name="${k}">${v}</ac:parameter>`).join('') +
  `<ac:plain-text-body><![CDATA[${body}]]></ac:plain-text-body></ac:structured-macro>`;
