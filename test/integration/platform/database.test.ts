import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../helpers/test-app.ts';
import { withBootstrapLock, migrateLatest, isAtLatestMigration, migrateIfBehind } from '../../../src/platform/db/knex.ts';

describe('database layer (same answers on PGlite and PostgreSQL)', () => {
  // The database layer itself is under test, so these tests write tables through Knex.
  const t = useTestApp();

  it('returns counts, ids and bigints as numbers, timestamps as Dates', async () => {
    const { knex } = t.services.db;
    const count = await knex('users').count({ n: '*' }).first();
    expect(typeof count!.n).toBe('number');
    const row = await knex('users').select('id', 'created_at').first();
    expect(typeof row.id).toBe('number');
    expect(row.created_at).toBeInstanceOf(Date);
    const big = await knex.raw('select 9007199254740991::bigint as b, 42::int8 as c');
    expect(big.rows[0]).toEqual({ b: 9007199254740991, c: 42 });
  });

  it('reports deletes as the rows deleted (knex-pglite returns a raw object for a plain .del())', async () => {
    const { knex } = t.services.db;
    await knex('groups').insert({ name: 'gone', name_key: 'gone' });
    const rows = await knex('groups').where({ name_key: 'gone' }).del().returning('id');
    expect(rows).toHaveLength(1);
  });

  it('rolls a failed transaction back completely', async () => {
    const { knex } = t.services.db;
    await expect(
      knex.transaction(async (trx) => {
        await trx('groups').insert({ name: 'half', name_key: 'half' });
        await trx('groups').insert({ name: 'users', name_key: 'users' }); // unique violation
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await knex('groups').where({ name_key: 'half' })).toEqual([]);
  });

  it('runs migrations again as a no-op under the bootstrap lock', async () => {
    expect(await withBootstrapLock(t.services.db, () => migrateLatest(t.services.db))).toEqual([]);
  });

  it('sees with one query whether the schema is current: a missing or an unknown migration sends it to the migrator', async () => {
    const db = t.services.db;
    expect(await isAtLatestMigration(db)).toBe(true);
    expect(await migrateIfBehind(db)).toEqual([]);
    const last = await db.knex('knex_migrations').orderBy('id', 'desc').first();
    await db.knex('knex_migrations').where({ id: last.id }).del();
    try {
      expect(await isAtLatestMigration(db)).toBe(false);
    } finally {
      await db.knex('knex_migrations').insert(last);
    }
    await db.knex('knex_migrations').insert({ name: '29990101000000_from_newer_code', batch: 99, migration_time: new Date() });
    try {
      expect(await isAtLatestMigration(db)).toBe(false);
      // The migrator's own answer to a database newer than the code (as serve and migrate give it).
      await expect(migrateIfBehind(db)).rejects.toThrow(/29990101000000_from_newer_code/);
    } finally {
      await db.knex('knex_migrations').where({ name: '29990101000000_from_newer_code' }).del();
    }
    expect(await isAtLatestMigration(db)).toBe(true);
  });
});
