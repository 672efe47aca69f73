// Shared by the tracker import tests: a test app served on a real port (the importer speaks HTTP to it), a
// source seeded through REST with every kind of thing the field editor keeps, and a snapshot of a field as
// REST shows it (contexts, every option list at every level, defaults, grants) to compare source and target.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { createRequestListener } from '../../../src/app.ts';
import { basic, uniq, type TestApp } from '../../helpers/test-app.ts';
import { addOptions, createContext, createField, createProject, FE, grant, paths, TYPE, type OptionJson } from '../../helpers/tracker-fixtures.ts';

/** Serves the app on 127.0.0.1 at a free port; answers its base URL and a closer. */
export async function serve(t: TestApp): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(createRequestListener(t.services, t.app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const at = (t: TestApp, path: string) => `${t.config.contextPath}${path}`;

async function send(t: TestApp, method: 'put' | 'post', path: string, body: unknown): Promise<unknown> {
  const res = await t.http[method](at(t, path)).set('Authorization', t.adminAuth).send(body as object);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

export interface SeededSource {
  /** Multi-level cascading select, three levels, a second context with a project, defaults, grants. */
  tree: number;
  /** Single select with a disabled option, a default, a group grant and a context grant to a user. */
  single: number;
  /** Multi select with a multi-option default. */
  multi: number;
  singleName: string;
  treeName: string;
  editor: string;
  group: string;
  member: string;
}

/** Builds the source: what a team's tracker holds, made as a script would make it. */
export async function seedSource(t: TestApp): Promise<SeededSource> {
  const editor = uniq('carol');
  const member = uniq('erin');
  const group = uniq('editors-');
  await t.createUser(editor);
  await t.createUser(member, { groups: [group] });

  const tree = await createField(t, { type: 'multilevel', name: uniq('Tree '), description: 'three levels' });
  await grant(t, tree.id, { user: 'admin' });
  const top = await addOptions(t, t.adminAuth, paths(tree.id, 'default').options, ['Europe', 'Asia', 'Mars']);
  const mid = await addOptions(t, t.adminAuth, paths(tree.id, 'default').children(top[0]!.id), ['France', 'Spain']);
  await addOptions(t, t.adminAuth, paths(tree.id, 'default').children(mid[0]!.id), ['Paris', 'Lyon']);
  await addOptions(t, t.adminAuth, paths(tree.id, 'default').children(top[1]!.id), ['Japan']);
  await send(t, 'put', paths(tree.id, 'default').option(top[2]!.id), { disabled: true });
  await send(t, 'put', paths(tree.id, 'default').default, { optionId: top[0]!.id, childOptionId: mid[1]!.id });
  const project = await createProject(t);
  const ctx = await createContext(t, tree.id, { projectIds: [project.id], name: uniq('Ctx ') });
  await addOptions(t, t.adminAuth, paths(tree.id, ctx.id).options, ['North', 'South']);
  await grant(t, tree.id, { user: editor, contextId: ctx.id });

  const single = await createField(t, { type: 'singleselect', name: uniq('Single ') });
  await grant(t, single.id, { user: 'admin' });
  const opts = await addOptions(t, t.adminAuth, paths(single.id, 'default').options, ['Red', 'Green', 'Blue', 'Grey']);
  await send(t, 'put', paths(single.id, 'default').option(opts[3]!.id), { disabled: true });
  await send(t, 'post', paths(single.id, 'default').move(opts[2]!.id), { position: 'First' });
  await send(t, 'put', paths(single.id, 'default').default, { optionId: opts[1]!.id });
  await grant(t, single.id, { group });

  const multi = await createField(t, { type: 'multiselect', name: uniq('Multi ') });
  await grant(t, multi.id, { user: 'admin' });
  const m = await addOptions(t, t.adminAuth, paths(multi.id, 'default').options, ['One', 'Two', 'Three']);
  await send(t, 'put', paths(multi.id, 'default').default, { optionIds: [m[2]!.id, m[0]!.id] });

  await createField(t, { type: 'textfield', name: uniq('Text ') });
  return { tree: tree.id, single: single.id, multi: multi.id, singleName: single.name, treeName: tree.name, editor, group, member };
}

export { basic, FE, TYPE, paths, send, type OptionJson };

type Tree = { value: string; id: number; disabled: boolean; children: Tree }[];

/** A field as REST shows it; with `ids: false` ids are left out (for fields whose ids were mapped). */
export async function snapshot(t: TestApp, fieldId: number, opts: { ids?: boolean } = {}): Promise<unknown> {
  const withIds = opts.ids ?? true;
  const get = async (path: string) => {
    const res = await t.http.get(at(t, path)).set('Authorization', t.adminAuth);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  const global = await get(`${FE}/admin/customfields/${fieldId}?expand=field`);
  const cascading = ['cascadingselect', TYPE.multilevel].includes(global.field.fieldType);
  const contexts = await get(`${FE}/admin/customfields/${fieldId}/contexts?expand=projects,issueTypes`);
  const contextGrants = (await get(`${FE}/admin/customfields/${fieldId}/contexts/permissions`)) as { contextId: number; userlist: string[]; grouplist: string[] }[];
  const nameOf = new Map<number, string>(contexts.map((c: { contextId: number; contextName: string }) => [c.contextId, c.contextName]));
  const tree = async (path: string, childPath: (id: number) => string, depth: number): Promise<Tree> => {
    const list = (await get(path)) as OptionJson[];
    list.forEach((o, i) => expect(o.sequence).toBe(i));
    const out: Tree = [];
    for (const o of list) {
      out.push({ value: o.optionvalue, id: withIds ? o.id : 0, disabled: o.disabled, children: cascading && depth < 4 ? await tree(childPath(o.id), childPath, depth + 1) : [] });
    }
    return out;
  };
  const out = [];
  for (const c of contexts) {
    const p = paths(fieldId, c.contextId);
    const dflt = await get(p.default);
    const values = (o: OptionJson | null | undefined) => (o ? o.optionvalue : null);
    out.push({
      id: withIds ? c.contextId : 0,
      name: c.contextName,
      description: c.contextDescription,
      isGlobal: c.isGlobal,
      projects: (c.projects ?? []).map((x: { projectKey: string }) => x.projectKey),
      issueTypes: (c.issueTypes ?? []).map((x: { issueTypeName: string }) => x.issueTypeName),
      options: await tree(p.options, (id) => `${p.options}/${id}/childoptions`, 0),
      default: { option: values(dflt.defaultOption), child: values(dflt.defaultChildOption), options: (dflt.defaultOptions ?? []).map(values) },
    });
  }
  // Without ids, mapped contexts may list in another order (by id): the default first, then by name.
  const byName = <T,>(list: T[], name: (x: T) => string) => (withIds ? list : [list[0]!, ...list.slice(1).sort((x, y) => name(x).localeCompare(name(y)))]);
  const grants = contextGrants.map((g) => ({ context: nameOf.get(g.contextId) ?? '', users: g.userlist, groups: g.grouplist }));
  return {
    name: global.field.fieldName,
    description: global.field.fieldDescription,
    type: global.field.fieldType,
    grants: { users: global.userlist, groups: global.grouplist },
    contextGrants: byName(grants, (g) => g.context),
    contexts: byName(out, (c) => c.name),
  };
}

/** The fields a test app's host lists (id and name). */
export async function hostFields(t: TestApp): Promise<{ id: string; name: string }[]> {
  const res = await t.http.get(at(t, '/rest/api/2/field')).set('Authorization', t.adminAuth).expect(200);
  return (res.body as { id: string; name: string; custom: boolean }[]).filter((f) => f.custom).map((f) => ({ id: f.id, name: f.name }));
}
