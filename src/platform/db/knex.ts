import { createRequire } from 'node:module';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { pgDriver } from './pg-driver.ts';
import type { PGlite } from '@electric-sql/pglite';
import type ClientPGLite from 'knex-pglite';
import { migrationNames, migrationSource } from './migration-source.ts';
import { LocalChangeFeed, PgChangeFeed, type ChangeFeed } from '../events/change-feed.ts';
import type { Logger } from '../log/logger.ts';

/**
 * knex's PGlite dialect (a CommonJS package), loaded only when a PGlite database is opened: it loads PGlite
 * itself, tens of milliseconds that a command line run on PostgreSQL does not need.
 */
const requireCjs = createRequire(import.meta.url);
const pgliteDialect = () => requireCjs('knex-pglite') as typeof ClientPGLite;

export type DbKind = 'pg' | 'pglite';

export interface Db {
  knex: Knex;
  kind: DbKind;
  /** Cluster-wide "this changed" notices for in-process caches (LISTEN/NOTIFY on PostgreSQL). */
  changes: ChangeFeed;
  close(): Promise<void>;
}

export interface DbOptions {
  databaseUrl?: string;
  /** An already opened PGlite (openEmbeddedPglite, or a migrated template in tests). Neither: in memory. */
  pglite?: PGlite;
  /** Called after the PGlite database is closed (the data-directory lock). */
  onClosed?: () => void;
  poolMax?: number;
  /** Short on purpose: a query outside `trx` inside a transaction then fails fast on PGlite. */
  acquireTimeoutMs?: number;
  searchPath?: string;
  log?: Logger;
  /** PostgreSQL: when the change feed opens its listening connection (PgChangeFeed); at once unless told. */
  listenForChanges?: 'at-start' | 'on-publish';
}

export function createDb(opts: DbOptions): Db {
  const acquireConnectionTimeout = opts.acquireTimeoutMs ?? 10_000;
  if (opts.databaseUrl) {
    pgDriver(); // its int8 parser, before the first query
    const knex = knexFactory({
      client: 'pg',
      connection: { connectionString: opts.databaseUrl, statement_timeout: 60_000 } as Knex.PgConnectionConfig,
      pool: { min: 0, max: opts.poolMax ?? 10 },
      acquireConnectionTimeout,
      searchPath: opts.searchPath,
      log: quietKnexLog(opts.log),
    });
    const changes = new PgChangeFeed(opts.databaseUrl, opts.log, { listen: opts.listenForChanges });
    return {
      knex,
      kind: 'pg',
      changes,
      close: async () => {
        await changes.close();
        await knex.destroy();
      },
    };
  }
  const release = opts.onClosed;
  let connection: Knex.Config['connection'];
  if (opts.pglite) {
    const instance = opts.pglite;
    connection = () => ({ pglite: instance }) as never;
  } else {
    connection = {};
  }
  const knex = knexFactory({
    client: pgliteDialect(),
    connection,
    acquireConnectionTimeout,
  });
  return {
    knex,
    kind: 'pglite',
    changes: new LocalChangeFeed(),
    close: async () => {
      try {
        await knex.destroy();
      } finally {
        release?.();
      }
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

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, names] = (await db.knex.migrate.latest({ migrationSource })) as [number, string[]];
  return names;
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
