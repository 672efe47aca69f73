// import-from tracker (issue 31): a grant to a group named like one of this host's built-in role groups brings
// the grant, not the group's members: an import gives nobody a role. Users it creates cannot sign in until an
// administrator sets a password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, createTestApp, uniq, useTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createField, grant } from '../../helpers/tracker-fixtures.ts';
import { importFromTracker } from '../../../src/migration/tracker-rest/tracker-import.ts';
import { migrationDeps } from '../../../src/migration/migration-deps.ts';
import { BUILTIN_MEMBERSHIPS_SKIPPED } from '../../../src/migration/imported-people.ts';
import { serve } from './tracker-helpers.ts';

describe('importFromTracker: role groups', () => {
  const source = useTestApp();
  let target: TestApp;
  let server: { url: string; close: () => Promise<void> };
  let field: { id: number; name: string };

  beforeAll(async () => {
    // At the source, an ordinary user is an administrator there, and the field is granted to that group.
    await source.createUser('src-boss', { groups: ['administrators'] });
    field = await createField(source, { name: uniq('Roles ') });
    await grant(source, field.id, { user: 'admin' });
    await grant(source, field.id, { group: 'administrators' });
    server = await serve(source);
    target = await createTestApp();
  });
  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  it('brings the grant to the group but not its members, and the users it creates cannot sign in', async () => {
    const report = await importFromTracker(migrationDeps(target.services), {
      url: server.url,
      auth: { user: 'admin', password: 'admin-secret' },
      fields: [String(field.id)],
      dryRun: false,
      progress: () => undefined,
    });
    const unit = report.units[0]!;
    expect(unit.outcome, JSON.stringify(unit)).toBe('imported');
    expect(unit.skipped[BUILTIN_MEMBERSHIPS_SKIPPED]).toBeGreaterThanOrEqual(1);
    const admins = await target.services.db.knex('group_members as m').join('groups as g', 'g.id', 'm.group_id').join('users as u', 'u.id', 'm.user_id')
      .where('g.name', 'administrators').pluck('u.name');
    expect(admins).not.toContain('src-boss');
    const grants = await target.services.db.knex('field_grants').where({ principal_type: 'group' }).pluck('principal_name');
    expect(grants).toContain('administrators');
    // Had the member come across, it could not sign in anyway: imported users have no usable password.
    for (const name of report.usersWithoutPassword) {
      await target.http.get('/rest/api/2/myself').set('Authorization', basic(name, 'admin-secret')).expect(401);
    }
  });
});
