import { describe, expect, it } from 'vitest';
import { basic, useTestApp } from '../../helpers/test-app.ts';
import { runImport } from '../../../src/importer/import.service.ts';
import { AppError } from '../../../src/platform/http/app-error.ts';

describe('import', () => {
  const t = useTestApp();

  it('imports groups and users with memberships, reports progress, and is idempotent', async () => {
    const doc = {
      version: 1,
      groups: [{ name: 'imported' }],
      users: [
        { name: 'imp1', password: 'pw1', displayName: 'Imp One', groups: ['imported'] },
        { name: 'imp2', password: 'pw2', active: false },
      ],
    };
    const progress: string[] = [];
    const first = await runImport(t.services, doc, (m) => progress.push(m));
    expect(first).toMatchObject({ groups: { created: 1, skipped: 0 }, users: { created: 2, skipped: 0 } });
    expect(progress.at(-1)).toBe('users: 2/2');
    const me = await t.http.get('/rest/api/2/myself').set('Authorization', basic('imp1', 'pw1')).expect(200);
    expect(me.body.groups.items.map((g: { name: string }) => g.name)).toEqual(['imported', 'users']);
    await t.http.get('/rest/api/2/myself').set('Authorization', basic('imp2', 'pw2')).expect(401);
    const second = await runImport(t.services, doc, () => undefined);
    expect(second).toMatchObject({ groups: { created: 0, skipped: 1 }, users: { created: 0, skipped: 2 } });
  });

  it('changes nothing when any part fails', async () => {
    const doc = { groups: [{ name: 'never' }], users: [{ name: 'never-user', password: 'pw', groups: ['missing-group'] }] };
    await expect(runImport(t.services, doc, () => undefined)).rejects.toBeInstanceOf(AppError);
    expect(await t.services.db.knex('groups').where({ name_key: 'never' })).toEqual([]);
    expect(await t.services.db.knex('users').where({ name_key: 'never-user' })).toEqual([]);
  });

  it('refuses unknown sections and invalid records before writing anything', async () => {
    await expect(runImport(t.services, { gropus: [] }, () => undefined)).rejects.toMatchObject({ status: 400 });
    await expect(runImport(t.services, { users: [{ name: 'x:y', password: 'pw' }] }, () => undefined)).rejects.toMatchObject({
      status: 400,
      details: [expect.objectContaining({ name: 'users.0.name' })],
    });
  });
});
