// What every `import-from` run needs from the process's services, whatever its source: the database (with its
// change feed, announced after each unit's commit), the password hasher, and the wiki's content indexers, so an
// imported page body is stored exactly as a REST save stores it (macro ids assigned, code boxes indexed).
// The CLI, the REST upload and the tests build it from the composition root's services with `migrationDeps`.
import type { Db } from '../platform/db/knex.ts';
import type { PasswordHasher } from '../platform/auth/password-hasher.ts';
import type { ContentIndexers } from '../wiki/content-indexer.ts';

export interface MigrationDeps {
  db: Db;
  hasher: PasswordHasher;
  /** The wiki's registered indexers (the code-box index): prepareStorage hands them every imported body. */
  contentIndexers: ContentIndexers;
}

/** The deps of an import, from the services the composition root built (services.ts, or a test's app). */
export const migrationDeps = (s: { db: Db; hasher: PasswordHasher; wiki: { indexers: ContentIndexers } }): MigrationDeps => ({
  db: s.db,
  hasher: s.hasher,
  contentIndexers: s.wiki.indexers,
});
