import knexFactory from 'knex';
import type { PGlite } from '@electric-sql/pglite';
import ClientPGLite from 'knex-pglite';
import { LocalChangeFeed } from '../events/change-feed.ts';
import type { Db } from './knex.ts';

export interface PgliteDbOptions {
  /** An open PGlite: the embedded data directory (openEmbeddedPglite), memory, or a migrated template in tests. */
  pglite: PGlite;
  /** Called after the database is closed (the data-directory lock). */
  onClosed?: () => void;
  /** Short on purpose: a query outside `trx` inside a transaction (a deadlock on the one connection) then fails fast. */
  acquireTimeoutMs?: number;
  /** The migrations a new data folder was created with (EmbeddedDatabase), for `migrateLatest` to report. */
  migratedOnCreation?: readonly string[];
}

/**
 * knex on an open PGlite. Apart from knex.ts because knex-pglite requires PGlite as it loads (17 ms and 6 MB
 * that a process on PostgreSQL does not need); those that open an embedded database import this module.
 */
export function createPgliteDb(opts: PgliteDbOptions): Db {
  const instance = opts.pglite;
  const knex = knexFactory({
    client: ClientPGLite,
    connection: () => ({ pglite: instance }) as never,
    acquireConnectionTimeout: opts.acquireTimeoutMs ?? 10_000,
  });
  return {
    knex,
    kind: 'pglite',
    changes: new LocalChangeFeed(),
    migratedOnCreation: [...(opts.migratedOnCreation ?? [])],
    close: async () => {
      try {
        await knex.destroy();
      } finally {
        opts.onClosed?.();
      }
    },
  };
}
