import type { Knex } from 'knex';
import * as m20261121140000 from './20261121140000_directory.ts';

/**
 * Every migration, by name. Names sort in the order they run; a test checks that each file of this folder
 * is listed here. Features add their own files and one line each.
 */
export const migrations: Record<string, Knex.Migration> = {
  '20261121140000_directory': m20261121140000,
};
