// Questions to the database itself rather than to a feature's tables: is it there, does a table exist yet.
import type { Knex } from 'knex';

/** One round trip that touches no table (the health checks: GET /status, the field editor's health). */
export async function pingDatabase(knex: Knex): Promise<void> {
  await knex.raw('select 1');
}

/** Whether `table` does not exist yet (a new database). to_regclass rather than knex's hasTable: information_schema's views are slow on a database just opened. */
export async function tableMissing(knex: Knex, table: string): Promise<boolean> {
  const { rows } = (await knex.raw('select to_regclass(?) is null as missing', [table])) as { rows: { missing: boolean }[] };
  return rows[0]!.missing;
}
