import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { addOptions, createField, grant, paths } from '../../helpers/tracker-fixtures.ts';

// GET options/export (issue 27): the whole tree as JSON and CSV, with the ETag of the list.
describe('field editor option export', () => {
  const t = useTestApp();
  let bob: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    bob = await t.createUser('bob-export');
    stranger = await t.createUser('stranger-export');
  });

  async function tree() {
    const f = await createField(t, { type: 'multilevel' });
    await grant(t, f.id, { user: bob.name });
    const p = paths(f.id, 'default');
    const [europe, formula] = await addOptions(t, bob.auth, p.options, ['Europe', '=SUM(A1)']);
    const [germany, acdc] = await addOptions(t, bob.auth, p.children(europe!.id), ['Germany', 'AC/DC "live", \\o/']);
    const [berlin] = await addOptions(t, bob.auth, p.children(germany!.id), ['Berlin']);
    await t.http.put(p.child(europe!.id, acdc!.id)).set('Authorization', bob.auth).send({ disabled: true }).expect(200);
    await t.http.put(p.default).set('Authorization', bob.auth).send({ optionId: europe!.id, childOptionId: germany!.id }).expect(200);
    return { f, p, europe: europe!, formula: formula!, germany: germany!, acdc: acdc!, berlin: berlin! };
  }
  const exportUrl = (p: { options: string }, q: string) => `${p.options}/export${q}`;

  it('answers the tree as nested JSON with ids, order, disabled flags and default marks', async () => {
    const { f, p, europe, formula, germany, acdc, berlin } = await tree();
    const res = await t.http.get(exportUrl(p, '?format=json')).set('Authorization', bob.auth).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="options-${f.id}-${f.defaultContextId}.json"`);
    expect(res.headers.etag).toMatch(/^"options-\d+-[\w-]+"$/);
    const leaf = (o: { id: number; optionvalue: string }, position: number, extra: object = {}) => ({ ...o, disabled: false, position, default: false, children: [], ...extra });
    expect(res.body).toEqual({
      fieldId: f.id,
      contextId: f.defaultContextId,
      options: [
        leaf({ id: europe.id, optionvalue: 'Europe' }, 0, {
          default: true,
          children: [
            leaf({ id: germany.id, optionvalue: 'Germany' }, 0, { default: true, children: [leaf({ id: berlin.id, optionvalue: 'Berlin' }, 0)] }),
            leaf({ id: acdc.id, optionvalue: 'AC/DC "live", \\o/' }, 1, { disabled: true }),
          ],
        }),
        leaf({ id: formula.id, optionvalue: '=SUM(A1)' }, 1),
      ],
    });
  });

  it('answers CSV with escaped paths, RFC 4180 quoting, a formula guard and a byte order mark', async () => {
    const { f, p, europe, formula, germany, acdc, berlin } = await tree();
    const res = await t.http.get(exportUrl(p, '?format=csv')).set('Authorization', bob.auth).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    }).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="options-${f.id}-${f.defaultContextId}.csv"`);
    const text = (res.body as Buffer).toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.slice(1).split('\r\n')).toEqual([
      'id,path,disabled,position,default',
      `${europe.id},Europe,false,0,true`,
      `${germany.id},Europe/Germany,false,0,true`,
      `${berlin.id},Europe/Germany/Berlin,false,0,false`,
      `${acdc.id},"Europe/AC\\/DC ""live"", \\\\o\\/",true,1,false`,
      `${formula.id},"'=SUM(A1)",false,1,false`,
      '',
    ]);
    const plain = await t.http.get(exportUrl(p, '?format=csv&bom=false')).set('Authorization', bob.auth).expect(200);
    expect(plain.text.startsWith('id,path')).toBe(true);
  });

  it('keeps its ETag until the tree changes at any level, and answers 304 to If-None-Match', async () => {
    const { p, germany, europe } = await tree();
    const first = await t.http.get(exportUrl(p, '')).set('Authorization', bob.auth).expect(200);
    const tag = first.headers.etag as string;
    expect((await t.http.get(exportUrl(p, '?format=csv')).set('Authorization', bob.auth).expect(200)).headers.etag).toBe(tag);
    await t.http.get(exportUrl(p, '')).set('Authorization', bob.auth).set('If-None-Match', tag).expect(304);
    await addOptions(t, bob.auth, p.children(germany.id), ['Hamburg']);
    const second = await t.http.get(exportUrl(p, '')).set('Authorization', bob.auth).set('If-None-Match', tag).expect(200);
    expect(second.headers.etag).not.toBe(tag);
    // A failed write changes nothing.
    await t.http.post(p.children(europe.id)).set('Authorization', bob.auth).send({ optionvalue: 'germany' }).expect(400);
    expect((await t.http.get(exportUrl(p, '')).set('Authorization', bob.auth).expect(200)).headers.etag).toBe(second.headers.etag);
  });

  it('exports an empty list, refuses a bad format, callers without a grant, the 1.2 base path and other field types', async () => {
    const f = await createField(t, { type: 'singleselect' });
    await grant(t, f.id, { user: bob.name });
    const p = paths(f.id, 'default');
    const empty = await t.http.get(exportUrl(p, '')).set('Authorization', bob.auth).expect(200);
    expect(empty.body).toEqual({ fieldId: f.id, contextId: f.defaultContextId, options: [] });
    const bad = await t.http.get(exportUrl(p, '?format=xml')).set('Authorization', bob.auth).expect(400);
    expect(bad.body.errors[0].name).toBe('format');
    await t.http.get(exportUrl(p, '')).expect(401);
    expect((await t.http.get(exportUrl(p, '')).set('Authorization', stranger.auth).expect(403)).body.subCode).toBe(403001);
    await t.http.get(exportUrl(paths(f.id, 99999999), '')).set('Authorization', bob.auth).expect(404);
    await t.http.get(exportUrl(paths(f.id, 'default', '/rest/trackercustomfieldeditorplugin/1.2'), '')).set('Authorization', bob.auth).expect(412);
    const text = await createField(t, { type: 'textfield' });
    await grant(t, text.id, { user: bob.name });
    await t.http.get(exportUrl(paths(text.id, 'default'), '')).set('Authorization', bob.auth).expect(400);
  });
});
