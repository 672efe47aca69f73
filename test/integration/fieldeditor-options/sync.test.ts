import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { addOptions, createField, grant, paths, setOnlyAdminsMayDelete } from '../../helpers/tracker-fixtures.ts';

// POST options/sync (issue 27): the diff of a file against the tree, previewed and applied under If-Match.
describe('field editor option sync', () => {
  const t = useTestApp();
  let bob: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    bob = await t.createUser('bob-sync');
    stranger = await t.createUser('stranger-sync');
  });

  /** Europe/{Germany/{Berlin, Hamburg}, France}, Asia/{Japan} on a multi-level cascading select. */
  async function tree() {
    const f = await createField(t, { type: 'multilevel' });
    await grant(t, f.id, { user: bob.name });
    const p = paths(f.id, 'default');
    const [europe, asia] = await addOptions(t, bob.auth, p.options, ['Europe', 'Asia']);
    const [germany, france] = await addOptions(t, bob.auth, p.children(europe!.id), ['Germany', 'France']);
    const [berlin, hamburg] = await addOptions(t, bob.auth, p.children(germany!.id), ['Berlin', 'Hamburg']);
    const [japan] = await addOptions(t, bob.auth, p.children(asia!.id), ['Japan']);
    return { f, p, europe: europe!, asia: asia!, germany: germany!, france: france!, berlin: berlin!, hamburg: hamburg!, japan: japan! };
  }
  const exported = async (p: { options: string }, format: 'json' | 'csv') => {
    const res = await t.http.get(`${p.options}/export?format=${format}&bom=false`).set('Authorization', bob.auth).expect(200);
    return { body: format === 'json' ? JSON.stringify(res.body) : res.text, etag: res.headers.etag as string };
  };
  const sync = (p: { options: string }, q: string, body: string, type: 'json' | 'csv', auth = bob.auth) =>
    t.http.post(`${p.options}/sync${q}`).set('Authorization', auth).set('Content-Type', type === 'json' ? 'application/json' : 'text/csv').send(body);
  const EMPTY = { create: [], rename: [], move: [], disable: [], enable: [], delete: [], unlisted: [] };

  for (const format of ['json', 'csv'] as const) {
    it(`finds nothing to change in its own export (${format}), at every depth`, async () => {
      const { p } = await tree();
      const file = await exported(p, format);
      const res = await sync(p, '', file.body, format).expect(200);
      expect(res.body).toEqual({ ...EMPTY, applied: false, etag: file.etag });
      expect(res.headers.etag).toBe(file.etag);
      const applied = await sync(p, '?dryRun=false&allowDelete=true', file.body, format).set('If-Match', file.etag).expect(200);
      expect(applied.body).toMatchObject({ ...EMPTY, applied: true });
    });
  }

  it('applies exactly a spreadsheet edit: added, renamed, reordered and removed rows', async () => {
    const { f, p, europe, asia, germany, france, berlin, hamburg, japan } = await tree();
    const file = await exported(p, 'csv');
    const rows = file.body.split('\r\n');
    expect(rows[0]).toBe('id,path,disabled,position,default');
    // Germany renamed (its children's paths keep the old name, as a spreadsheet user leaves them), Hamburg
    // before Berlin, Berlin disabled, France removed, Spain and Spain/Madrid new, Japan moved under Europe.
    const edited = [
      'id,path,disabled,position',
      `${europe.id},Europe,false,0`,
      `${germany.id},Europe/Deutschland,false,0`,
      `${berlin.id},Europe/Germany/Berlin,true,1`,
      `${hamburg.id},Europe/Germany/Hamburg,false,0`,
      `,Europe/Spain/Madrid,,`,
      `${japan.id},Europe/Japan,false,3`,
      `${asia.id},Asia,false,1`,
    ].join('\r\n');
    const preview = await sync(p, '?allowDelete=true', edited, 'csv').expect(200);
    expect(preview.body).toMatchObject({
      create: [
        { path: 'Europe/Spain', optionvalue: 'Spain', parentId: europe.id, disabled: false, position: 1 },
        { path: 'Europe/Spain/Madrid', optionvalue: 'Madrid', parentId: null, position: 0 },
      ],
      rename: [{ id: germany.id, path: 'Europe/Deutschland', from: 'Germany', to: 'Deutschland' }],
      move: expect.arrayContaining([
        expect.objectContaining({ id: japan.id, fromParentId: asia.id, toParentId: europe.id, toPosition: 2 }),
      ]),
      disable: [{ id: berlin.id, path: 'Europe/Deutschland/Berlin' }],
      enable: [],
      delete: [{ id: france.id, path: 'Europe/France', options: 1 }],
      unlisted: [],
      applied: false,
      etag: file.etag,
    });
    // Of Berlin and Hamburg, the one that left its place moved (Hamburg: Berlin keeps its order among the rest).
    expect(preview.body.move.map((m: { id: number }) => m.id).sort()).toEqual([hamburg.id, japan.id].sort());
    // Nothing written by the preview; applying without If-Match is refused, with a stale one too.
    expect((await exported(p, 'csv')).etag).toBe(file.etag);
    expect((await sync(p, '?dryRun=false&allowDelete=true', edited, 'csv').expect(428)).body.subCode).toBe(428000);
    const applied = await sync(p, '?dryRun=false&allowDelete=true', edited, 'csv').set('If-Match', file.etag).expect(200);
    expect(applied.body).toMatchObject({ applied: true, rename: preview.body.rename, delete: preview.body.delete });
    expect(applied.body.etag).not.toBe(file.etag);
    const stale = await sync(p, '?dryRun=false&allowDelete=true', edited, 'csv').set('If-Match', file.etag).expect(412);
    expect(stale.body.subCode).toBe(412001);

    const after = (await t.http.get(`${p.options}/export`).set('Authorization', bob.auth).expect(200)).body;
    const shape = (nodes: { optionvalue: string; disabled: boolean; children: unknown[] }[]): unknown =>
      nodes.map((n) => [n.optionvalue + (n.disabled ? ' (disabled)' : ''), shape(n.children as never)]);
    expect(shape(after.options)).toEqual([
      ['Europe', [['Deutschland', [['Hamburg', []], ['Berlin (disabled)', []]]], ['Spain', [['Madrid', []]]], ['Japan', []]]],
      ['Asia', []],
    ]);
    // One entry per changed option, sharing the operation id.
    const entries = await t.services.db.knex('event_log').where({ field_id: f.id, operation_id: applied.body.operationId });
    expect(entries.map((e) => e.kind).sort()).toEqual(['option.created', 'option.created', 'option.deleted', 'option.disabled', 'option.moved', 'option.moved', 'option.renamed']);
    // And the new state round-trips.
    const again = await exported(p, 'csv');
    expect((await sync(p, '', again.body, 'csv').expect(200)).body).toMatchObject(EMPTY);
  });

  it('keeps options the file leaves out unless allowDelete, and names those in use as defaults', async () => {
    const { p, europe, asia, germany } = await tree();
    await t.http.put(p.default).set('Authorization', bob.auth).send({ optionId: europe.id, childOptionId: germany.id }).expect(200);
    const file = JSON.stringify({ options: [{ optionvalue: 'Asia', children: [{ optionvalue: 'Japan' }] }, { optionvalue: 'Africa' }] });
    const kept = await sync(p, '', file, 'json').expect(200);
    expect(kept.body).toMatchObject({ create: [{ path: 'Africa', parentId: null, position: 2 }], delete: [], unlisted: [{ id: europe.id, path: 'Europe', default: true }] });
    // The kept option stays first: Asia and Africa follow it.
    expect(kept.body.move).toEqual([]);
    const deleting = await sync(p, '?allowDelete=true', file, 'json').expect(200);
    expect(deleting.body.delete).toEqual([{ id: europe.id, path: 'Europe', options: 5, default: true }]);
    expect(deleting.body.create).toEqual([{ path: 'Africa', optionvalue: 'Africa', parentId: null, disabled: false, position: 1 }]);
    await setOnlyAdminsMayDelete(t, true);
    try {
      const res = await sync(p, '?dryRun=false&allowDelete=true', file, 'json').set('If-Match', deleting.body.etag).expect(403);
      expect(res.body.subCode).toBe(403003);
    } finally {
      await setOnlyAdminsMayDelete(t, false);
    }
    await sync(p, '?dryRun=false&allowDelete=true', file, 'json').set('If-Match', deleting.body.etag).expect(200);
    const after = (await t.http.get(p.options).set('Authorization', bob.auth).expect(200)).body;
    expect(after.map((o: { optionvalue: string; id: number }) => o.optionvalue)).toEqual(['Asia', 'Africa']);
    expect(after[0].id).toBe(asia.id);
    expect((await t.http.get(p.default).set('Authorization', bob.auth).expect(200)).body).toEqual({});
  });

  it('answers every problem of a file at once and writes nothing', async () => {
    const { p, europe } = await tree();
    const bad = JSON.stringify({
      options: [
        { id: europe.id, optionvalue: 'Europe', children: [{ optionvalue: 'X' }, { optionvalue: 'x' }] },
        { id: 99999999, optionvalue: 'Ghost' },
        { id: europe.id, optionvalue: 'Europe again' },
        { optionvalue: '' },
        { optionvalue: 'Y', disabled: 'maybe' },
      ],
    });
    const res = await sync(p, '', bad, 'json').expect(400);
    expect(res.body.errors.map((e: { name: string }) => e.name).sort()).toEqual(
      ['options[0].children[1].optionvalue', 'options[1].id', 'options[2].id', 'options[3].optionvalue', 'options[4].disabled'].sort(),
    );
    const csv = await sync(p, '', 'id,path\r\n,"unclosed\r\n', 'csv').expect(400);
    expect(csv.body.errors[0].name).toBe('row 2');
    const noPath = await sync(p, '', 'id,name\r\n1,x\r\n', 'csv').expect(400);
    expect(noPath.body.errors[0].name).toBe('row 1');
    const tooDeep = await createField(t, { type: 'cascadingselect' });
    await grant(t, tooDeep.id, { user: bob.name });
    const deep = await sync(paths(tooDeep.id, 'default'), '', 'path\r\na/b/c\r\n', 'csv').expect(400);
    expect(deep.body.errors[0].name).toBe('row 2.path');
    await sync(p, '', '{not json', 'json').expect(400);
  });

  it('refuses text/plain without the XSRF header, other types, callers without a grant and the 1.2 base path', async () => {
    const { f, p } = await tree();
    const plain = await t.http.post(`${p.options}/sync`).set('Authorization', bob.auth).set('Content-Type', 'text/plain').send('path\r\nA\r\n').expect(403);
    expect(plain.body.subCode).toBe(403004);
    await t.http.post(`${p.options}/sync`).set('Authorization', bob.auth).set('Content-Type', 'application/xml').send('<a/>').expect(415);
    await t.http.post(`${p.options}/sync`).set('Content-Type', 'text/csv').send('path\r\nA\r\n').expect(401);
    expect((await sync(p, '', 'path\r\nA\r\n', 'csv', stranger.auth).expect(403)).body.subCode).toBe(403001);
    await sync(paths(f.id, 'default', '/rest/trackercustomfieldeditorplugin/1.2'), '', 'path\r\nA\r\n', 'csv').expect(412);
    await sync(paths(f.id, 99999999), '', 'path\r\nA\r\n', 'csv').expect(404);
    expect((await sync(p, '?dryRun=perhaps', 'path\r\nA\r\n', 'csv').expect(400)).body.errors[0].name).toBe('dryRun');
  });
});
