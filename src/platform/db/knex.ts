import knexFactory from 'knex';
import type { Knex } from 'knex';
import { pgDriver } from './pg-driver.ts';
import { migrationNames, migrationSource } from './migration-source.ts';
import { PgChangeFeed, type ChangeFeed } from '../events/change-feed.ts';
import type { Logger } from '../log/logger.ts';

export type DbKind = 'pg' | 'pglite';

export interface Db {
  knex: Knex;
  kind: DbKind;
  /** Cluster-wide "this changed" notices for in-process caches (LISTEN/NOTIFY on PostgreSQL). */
  changes: ChangeFeed;
  /**
   * The migrations that the child process creating a new embedded folder applied (embedded-pglite.ts), not
   * yet reported: `migrateLatest` reports them once, as if it had applied them. Empty otherwise.
   */
  migratedOnCreation: string[];
  close(): Promise<void>;
}

/**
 * PostgreSQL. The embedded database has its own module (pglite-db.ts): its knex dialect loads PGlite, which a
 * server or command on PostgreSQL does not need (17 ms and 6 MB).
 */
export interface DbOptions {
  databaseUrl: string;
  poolMax?: number;
  /** How long a query waits for a pooled connection (10 s unless told). */
  acquireTimeoutMs?: number;
  searchPath?: string;
  log?: Logger;
  /** PostgreSQL: when the change feed opens its listening connection (PgChangeFeed); at once unless told. */
  listenForChanges?: 'at-start' | 'on-publish';
}

/** knex on PostgreSQL, with its change feed. */
export function createDb(opts: DbOptions): Db {
  pgDriver(); // its int8 parser, before the first query
  const knex = knexFactory({
    client: 'pg',
    connection: { connectionString: opts.databaseUrl, statement_timeout: 60_000 } as Knex.PgConnectionConfig,
    pool: { min: 0, max: opts.poolMax ?? 10 },
    acquireConnectionTimeout: opts.acquireTimeoutMs ?? 10_000,
    searchPath: opts.searchPath,
    log: quietKnexLog(opts.log),
  });
  const changes = new PgChangeFeed(opts.databaseUrl, opts.log, { listen: opts.listenForChanges });
  return {
    knex,
    kind: 'pg',
    changes,
    migratedOnCreation: [],
    close: async () => {
      await changes.close();
      await knex.destroy();
    },
  };
}

/**
 * knex prints its warnings (e.g. "Acquire connection error" with a stack) to the console; they go to our
 * logger at debug level instead, since the caller reports the same failure in one line.
 */
function quietKnexLog(log: Logger | undefined): Knex.Config['log'] {
  const toDebug = (message: unknown) => log?.debug({ knex: String(message) }, 'knex');
  return { warn: toDebug, error: toDebug, deprecate: toDebug, debug: toDebug };
}

const BOOTSTRAP_LOCK = 0x61646470; // "addp": one key for migrations, first admin and demo data

/**
 * Runs `fn` while holding a cluster-wide lock, so two nodes starting together never migrate or seed
 * twice. The lock is a transaction-scoped advisory lock held on one pooled connection while `fn` works on
 * others; on PGlite (one process, one connection) it is not needed.
 */
export async function withBootstrapLock<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (db.kind === 'pglite') return fn();
  let result!: T;
  await db.knex.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?)', [BOOTSTRAP_LOCK]);
    result = await fn();
  });
  return result;
}

/** Applies the pending migrations; their names, with those a new embedded folder was created with (once). */
export async function migrateLatest(db: Db): Promise<string[]> {
  const [, names] = (await db.knex.migrate.latest({ migrationSource })) as [number, string[]];
  return [...db.migratedOnCreation.splice(0), ...names];
}

/**
 * Whether the database has applied exactly the migrations this code knows: one query of knex's table
 * instead of knex's migrator (which checks and creates its tables, takes its lock and lists the folder,
 * about ten statements). Anything else (a missing table, a missing migration, or one this code does not
 * know) answers false, and the caller takes the migrator's way, with its lock, its work and its errors.
 */
export async function isAtLatestMigration(db: Db): Promise<boolean> {
  let applied: string[];
  try {
    applied = (await db.knex('knex_migrations').select<{ name: string }[]>('name')).map((r) => r.name);
  } catch (err) {
    if ((err as { code?: string }).code === '42P01') return false; // undefined_table: a new database
    throw err;
  }
  const known = migrationNames();
  return applied.length === known.length && known.every((n) => applied.includes(n));
}

/**
 * For commands that work on the data (the command line): nothing more than one query when the schema is
 * current, else the pending migrations under the bootstrap lock, as `serve` and `migrate` apply them.
 */
export async function migrateIfBehind(db: Db): Promise<string[]> {
  if (await isAtLatestMigration(db)) return [];
  return withBootstrapLock(db, () => migrateLatest(db));
}
