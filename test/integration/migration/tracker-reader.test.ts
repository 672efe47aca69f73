// The tracker reader (issue 31) on answers shaped as an old original installation writes them, from a
// stand-in fetch: only the 1.2 base path, `select` as the single select's fieldType, `disabled` as a string,
// no `expand` on contexts, no context grants (before 1.2.1), a default endpoint that is missing, group members
// it may not read, a grant naming a user the source no longer knows, and non-select fields left out.
import { describe, expect, it } from 'vitest';
import { SourceClient } from '../../../src/migration/source-http.ts';
import { TrackerReader, typeKeyOf } from '../../../src/migration/tracker-rest/tracker-reader.ts';

const FE = '/jira/rest/jiracustomfieldeditorplugin/1.2';

const routes: Record<string, unknown> = {
  [`${FE}/admin/customfields`]: [
    { fieldId: 10100, fieldName: 'Colour', fieldDescription: null, fieldType: 'select' },
    { fieldId: 10101, fieldName: 'Region', fieldDescription: 'where', fieldType: 'cascadingselect' },
    { fieldId: 10102, fieldName: 'Notes', fieldDescription: '', fieldType: 'textfield' },
  ],
  [`${FE}/admin/customfields/10100/contexts`]: [{ contextId: 10200, contextName: 'Default Configuration Scheme for Colour', contextDescription: '' }],
  [`${FE}/admin/customfields/10100`]: { userlist: ['olivia', 'ghost'], grouplist: ['editors'] },
  [`${FE}/user/customfields/10100/contexts/10200/options`]: [
    { optionvalue: 'Red', id: 20001, sequence: 0, disabled: 'false' },
    { optionvalue: 'Blue', id: 20002, sequence: 1, disabled: 'true' },
  ],
  [`${FE}/admin/customfields/10101/contexts`]: [
    { contextId: 10201, contextName: 'Default', contextDescription: '' },
    { contextId: 10202, contextName: 'Ops', contextDescription: 'ops only' },
  ],
  [`${FE}/admin/customfields/10101`]: { userlist: [], grouplist: [] },
  [`${FE}/user/customfields/10101/contexts/10201/options`]: [{ optionvalue: 'Europe', id: 20010 }],
  [`${FE}/user/customfields/10101/contexts/10201/options/20010/childoptions`]: [{ optionvalue: 'France', id: 20011, disabled: false }],
  [`${FE}/user/customfields/10101/contexts/10201/options/default`]: { defaultOption: { id: 20010 }, defaultChildOption: { id: 20011 }, defaultOptions: null },
  [`${FE}/user/customfields/10101/contexts/10202/options`]: [],
  '/jira/rest/api/2/user': { name: 'olivia', displayName: 'Olivia', emailAddress: 'o@example.com', active: true },
};

function reader() {
  const seen: string[] = [];
  const fetchImpl = (async (input: URL) => {
    const url = new URL(input);
    seen.push(url.pathname + url.search);
    if (url.pathname === '/jira/rest/api/2/user' && url.searchParams.get('username') !== 'olivia') return new Response(null, { status: 404 });
    if (url.pathname === '/jira/rest/api/2/field') return new Response('{"errorMessages":["nope"]}', { status: 500, headers: { 'content-type': 'application/json' } });
    const body = routes[url.pathname];
    if (body === undefined) return new Response('<html>Not found</html>', { status: 404, headers: { 'content-type': 'text/html' } });
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  const progress: string[] = [];
  const client = new SourceClient({ url: 'https://old.example/jira', auth: { user: 'admin', password: 'pw-SECRET' }, fetchImpl });
  return { r: new TrackerReader(client, (m) => progress.push(m)), seen, progress };
}

describe('TrackerReader on an old installation', () => {
  it('falls back to 1.2 and lists the select fields with full type keys', async () => {
    const { r, progress } = reader();
    const fields = await r.fields();
    expect(fields).toEqual([
      { id: 10100, name: 'Colour', description: '', typeKey: 'com.atlassian.jira.plugin.system.customfieldtypes:select' },
      { id: 10101, name: 'Region', description: 'where', typeKey: 'com.atlassian.jira.plugin.system.customfieldtypes:cascadingselect' },
    ]);
    expect(progress).toContain('tracker: the field editor answers under rest/jiracustomfieldeditorplugin/1.2');
    expect(r.warnings).toEqual([
      "the host's field list could not be read (https://old.example/jira/rest/api/2/field answered 500: nope); type keys come from the field editor",
    ]);
  });

  it('reads options with lenient flags, children of a cascading select, defaults, and grants without context grants', async () => {
    const { r } = reader();
    const [colour, region] = await r.fields();
    const c = await r.field(colour!);
    expect(c.contexts).toEqual([
      {
        id: 10200,
        name: 'Default Configuration Scheme for Colour',
        description: '',
        isDefault: true,
        options: [
          { id: 20001, value: 'Red', disabled: false, children: [] },
          { id: 20002, value: 'Blue', disabled: true, children: [] },
        ],
        defaultOptionIds: [],
      },
    ]);
    expect(c.grants).toEqual([
      { contextId: null, type: 'user', name: 'olivia' },
      { contextId: null, type: 'user', name: 'ghost' },
      { contextId: null, type: 'group', name: 'editors' },
    ]);
    const g = await r.field(region!);
    expect(g.contexts.map((x) => [x.name, x.isDefault, x.projects])).toEqual([
      ['Default', true, undefined],
      ['Ops', false, undefined],
    ]);
    expect(g.contexts[0]!.options).toEqual([{ id: 20010, value: 'Europe', disabled: false, children: [{ id: 20011, value: 'France', disabled: false, children: [] }] }]);
    expect(g.contexts[0]!.defaultOptionIds).toEqual([20010, 20011]);

    const p = await r.principals(c);
    expect(p.users.get('olivia')).toEqual({ name: 'olivia', displayName: 'Olivia', email: 'o@example.com', active: true });
    expect(p.users.get('ghost')).toBeNull();
    expect(p.groups.get('editors')).toBeNull();
    expect(r.warnings.at(-1)).toBe('the members of group editors could not be read from the source; the group is created without them');
  });

  it('maps the short field types to type keys', () => {
    expect(typeKeyOf('singleselect')).toBe('com.atlassian.jira.plugin.system.customfieldtypes:select');
    expect(typeKeyOf('multicheckboxes')).toBe('com.atlassian.jira.plugin.system.customfieldtypes:multicheckboxes');
    expect(typeKeyOf('com.sourcesense.jira.plugin.cascadingselect:multi-level-cascading-select')).toBe(
      'com.sourcesense.jira.plugin.cascadingselect:multi-level-cascading-select',
    );
  });
});
