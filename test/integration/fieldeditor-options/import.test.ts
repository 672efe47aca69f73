import { describe, expect, it } from 'vitest';
import { basic, useTestApp } from '../../helpers/test-app.ts';
import { runImport } from '../../../src/importer/import.service.ts';
import { demoDocument } from '../../../src/demo/demo-data.ts';
import { DEMO_FIELDS, DEMO_PROJECT_CONTEXT_ID } from '../../../src/tracker/tracker.demo.ts';
import { DEMO_OPTIONS } from '../../../src/fieldeditor/options/options.demo.ts';
import { FE, paths } from '../../helpers/tracker-fixtures.ts';

// The `options` and `defaults` import sections, through the demo document and small documents of their own.
describe('import: options and defaults', () => {
  const t = useTestApp();
  const alice = basic('alice', 'alice');

  it('loads the demo options and defaults with fixed ids; a second run skips everything', async () => {
    const summary = await runImport(t.services, demoDocument(), () => undefined);
    expect(summary.options).toEqual({ created: 30, skipped: 0 });
    expect(summary.defaults).toEqual({ created: 3, skipped: 0 });
    const single = paths(DEMO_FIELDS.singleSelect.id, 'default');
    const list = await t.http.get(single.options).set('Authorization', alice).expect(200);
    expect(list.body).toEqual([
      { optionvalue: 'Low', id: 10000, sequence: 0, disabled: false },
      { optionvalue: 'Medium', id: DEMO_OPTIONS.medium, sequence: 1, disabled: false },
      { optionvalue: 'High', id: 10002, sequence: 2, disabled: false },
      { optionvalue: 'Blocker', id: DEMO_OPTIONS.blocker, sequence: 3, disabled: true },
    ]);
    const other = await t.http.get(paths(DEMO_FIELDS.singleSelect.id, DEMO_PROJECT_CONTEXT_ID).options).set('Authorization', alice).expect(200);
    expect(other.body.map((o: { optionvalue: string }) => o.optionvalue)).toEqual(['Crash', 'Data loss']);
    const cascading = paths(DEMO_FIELDS.cascading.id, 'default');
    const kids = await t.http.get(cascading.children(DEMO_OPTIONS.europe)).set('Authorization', alice).expect(200);
    expect(kids.body.map((o: { optionvalue: string }) => o.optionvalue)).toEqual(['Germany', 'France', 'Austria']);
    const def = await t.http.get(cascading.default).set('Authorization', alice).expect(200);
    expect(def.body).toMatchObject({ defaultOption: { id: DEMO_OPTIONS.europe }, defaultChildOption: { id: DEMO_OPTIONS.germany } });
    expect((await t.http.get(single.default).set('Authorization', alice).expect(200)).body.defaultOption.optionvalue).toBe('Medium');
    // U3 (tracker-admin's endpoint) reads the same default.
    const u3 = await t.http.get(`${FE}/user/customfields/${DEMO_FIELDS.singleSelect.id}/contexts/default`).set('Authorization', alice).expect(200);
    expect(u3.body.defaultOption.defaultOption.id).toBe(DEMO_OPTIONS.medium);

    const again = await runImport(t.services, demoDocument(), () => undefined);
    expect(again.options).toEqual({ created: 0, skipped: 30 });
    expect(again.defaults).toEqual({ created: 0, skipped: 3 });
    // The id sequence moved past the fixed ids.
    const created = await t.http.post(single.options).set('Authorization', alice).send({ optionvalue: 'After import' }).expect(200);
    expect(created.body.id).toBeGreaterThan(10083);
    expect(created.body.sequence).toBe(4);
  });

  it('appends to existing lists, keeps existing values (without regard to case) and bumps the list version', async () => {
    const single = paths(DEMO_FIELDS.singleSelect.id, 'default');
    await t.http.get(single.options).set('Authorization', alice).expect(200); // fills the list cache
    const summary = await runImport(
      t.services,
      { options: [{ fieldName: DEMO_FIELDS.singleSelect.name.toUpperCase(), options: [{ value: 'low' }, { value: 'Imported' }, { value: 'IMPORTED' }] }] },
      () => undefined,
    );
    expect(summary.options).toEqual({ created: 1, skipped: 2 });
    const list = await t.http.get(single.options).set('Authorization', alice).expect(200);
    expect(list.body.at(-1)).toMatchObject({ optionvalue: 'Imported', sequence: list.body.length - 1 });
  });

  it('refuses unknown fields, contexts, children on a flat field and bad defaults, changing nothing', async () => {
    const bad: unknown[] = [
      { options: [{ fieldId: 99999, options: [{ value: 'x' }] }] },
      { options: [{ fieldId: DEMO_FIELDS.singleSelect.id, context: 'nope', options: [{ value: 'x' }] }] },
      { options: [{ fieldId: DEMO_FIELDS.radio.id, options: [{ value: 'x', children: [{ value: 'y' }] }] }] },
      { options: [{ fieldId: DEMO_FIELDS.cascading.id, options: [{ value: 'A', children: [{ value: 'B', children: [{ value: 'C' }] }] }] }] },
      { defaults: [{ fieldId: DEMO_FIELDS.radio.id, value: 'Nothing like it' }] },
      { options: [{ fieldId: DEMO_FIELDS.radio.id, options: [{ value: '' }] }] },
      { options: [{ options: [{ value: 'x' }] }] },
    ];
    for (const doc of bad) {
      await expect(runImport(t.services, doc, () => undefined)).rejects.toMatchObject({ status: 400 });
    }
    expect(await t.services.db.knex('field_options').where('value', 'x')).toEqual([]);
  });
});
