import { describe, expect, it } from 'vitest';
import { useTestApp, basic } from '../../helpers/test-app.ts';
import { runImport } from '../../../src/importer/import.service.ts';
import { demoDocument } from '../../../src/demo/demo-data.ts';
import { DEMO_FIELDS, DEMO_PROJECT_CONTEXT_ID } from '../../../src/tracker/tracker.demo.ts';
import { FE, TYPE } from '../../helpers/tracker-fixtures.ts';

/** The tracker and grant sections of the import format, through the demo document. */
const t = useTestApp();
const alice = basic('alice', 'alice');

describe('import: projects, issue types, fields, contexts, grants', () => {
  it('loads the demo tracker data with its fixed ids, and a second run skips everything', async () => {
    const summary = await runImport(t.services, demoDocument(), () => undefined);
    expect(summary.projects).toEqual({ created: 1, skipped: 0 });
    expect(summary.issueTypes).toEqual({ created: 3, skipped: 0 });
    expect(summary.fields).toEqual({ created: 6, skipped: 0 });
    expect(summary.contexts).toEqual({ created: 1, skipped: 0 });
    expect(summary.grants).toEqual({ created: 3, skipped: 0 });

    const mine = await t.http.get(`${FE}/user/customfields`).set('Authorization', alice);
    expect(mine.body.map((f: { fieldId: number }) => f.fieldId).sort()).toEqual([DEMO_FIELDS.singleSelect.id, DEMO_FIELDS.radio.id, DEMO_FIELDS.cascading.id].sort());
    const ctx = await t.http.get(`${FE}/admin/customfields/${DEMO_FIELDS.singleSelect.id}/contexts?expand=projects,issueTypes`).set('Authorization', t.adminAuth);
    expect(ctx.body.map((c: { contextId: number }) => c.contextId)).toEqual([DEMO_FIELDS.singleSelect.defaultContextId, DEMO_PROJECT_CONTEXT_ID]);
    expect(ctx.body[1].projects[0].projectKey).toBe('DEMO');
    expect(ctx.body[1].issueTypes[0].issueTypeName).toBe('Bug');

    const again = await runImport(t.services, demoDocument(), () => undefined);
    expect(again.fields).toEqual({ created: 0, skipped: 6 });
    expect(again.grants).toEqual({ created: 0, skipped: 3 });

    // Sequences moved past the fixed ids: a new field and context get fresh ids.
    const created = await t.http.post('/rest/api/2/field').set('Authorization', t.adminAuth).send({ name: 'After import', type: TYPE.singleselect });
    expect(created.status).toBe(201);
    expect(created.body.schema.customId).toBeGreaterThan(DEMO_FIELDS.multiLevel.id);
  });

  it('an unknown user in a grant rolls the whole import back', async () => {
    await expect(
      runImport(t.services, { fields: [{ name: 'Rolled back', type: TYPE.singleselect }], grants: [{ fieldName: 'Rolled back', user: 'nobody-x' }] }, () => undefined),
    ).rejects.toMatchObject({ status: 400 });
    const list = await t.http.get(`${FE}/admin/customfields?filter=Rolled`).set('Authorization', t.adminAuth);
    expect(list.body.total).toBe(0);
  });

  it('refuses malformed sections before touching the database', async () => {
    await expect(runImport(t.services, { fields: [{ name: 'x', type: 'bogus type' }] }, () => undefined)).rejects.toMatchObject({ status: 400 });
    await expect(runImport(t.services, { grants: [{ fieldId: 1, user: 'a', group: 'b' }] }, () => undefined)).rejects.toMatchObject({ status: 400 });
  });
});
