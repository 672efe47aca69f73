import { describe, expect, it } from 'vitest';
import { createTestDb } from '../../helpers/test-db.ts';

// The suite's own footing: every test file's database is a copy of the migrated template (test-db.ts; on PGlite an
// in-memory copy, template-memory-fs.ts), so what one writes must not reach another, nor the template.
describe('test databases', () => {
  it('are migrated copies of the template, each independent of the others', async () => {
    const [a, b] = [await createTestDb(), await createTestDb()];
    try {
      const migrations = async (db: typeof a.db) => Number((await db.knex('knex_migrations').count<{ n: string }[]>('* as n'))[0]!.n);
      expect(await migrations(a.db)).toBeGreaterThan(0);
      expect(await migrations(b.db)).toBe(await migrations(a.db));
      // Written directly: the subject is the database under the app, not anything an endpoint does.
      await a.db.knex.raw('create table only_in_a (id int)');
      await a.db.knex('groups').insert({ name: 'only-in-a', name_key: 'only-in-a' });
      expect((await b.db.knex.raw(`select to_regclass('only_in_a') as t`)).rows?.[0]?.t ?? null).toBeNull();
      expect(await b.db.knex('groups').where({ name: 'only-in-a' }).first()).toBeUndefined();
    } finally {
      await a.db.close();
      await b.db.close();
    }
    // A third copy, made after the first two were written and closed: the template itself is unchanged.
    const c = await createTestDb();
    try {
      expect(await c.db.knex('groups').where({ name: 'only-in-a' }).first()).toBeUndefined();
    } finally {
      await c.db.close();
    }
  });
});
