import type { Knex } from 'knex';
import { migrations } from '../../../migrations/index.ts';

/**
 * Migrations are listed statically (migrations/index.ts) rather than read from a folder: knex's folder
 * loader `require()`s .ts files, which fails under vitest (engineering notes B.5). A test checks that every
 * file in migrations/ is listed.
 */
/** The names of every migration of this code, in the order they run. */
export const migrationNames = (): string[] => Object.keys(migrations).sort();

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => migrationNames(),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const m = migrations[name];
    if (!m) throw new Error(`Unknown migration ${name}`);
    return m;
  },
};
