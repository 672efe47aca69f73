import type { Config } from '../../config.ts';
import type { Logger } from '../log/logger.ts';
import { StartupError } from '../startup-error.ts';
import { createDb, type Db, type DbOptions } from './knex.ts';
import type { EmbeddedDatabase } from './embedded-pglite.ts';
import { MEMORY_DATA_DIR } from './embedded-data-dir.ts';

export interface OpenOptions extends Pick<DbOptions, 'listenForChanges'> {
  /**
   * The embedded database, already being opened by the caller (main.ts starts it before it loads the
   * command's code, which then loads while PGlite compiles and reads its files).
   */
  embedded?: Promise<EmbeddedDatabase>;
}

/**
 * Opens the configured database and proves it answers, so that every later failure is about our data, not
 * about reaching the server: PostgreSQL with DATABASE_URL, else the embedded PGlite in DATA_DIR (or memory).
 */
export async function openDatabase(config: Config, log?: Logger, opts: OpenOptions = {}): Promise<Db> {
  if (config.databaseUrl) {
    const db = createDb({ databaseUrl: config.databaseUrl, poolMax: config.dbPoolMax, log, listenForChanges: opts.listenForChanges });
    try {
      await db.knex.raw('select 1');
    } catch (err) {
      await db.close().catch(() => undefined);
      throw describePostgresError(err, config.databaseUrl);
    }
    return db;
  }
  // Loaded here, not above: PGlite is not needed on PostgreSQL.
  const { createPgliteDb } = await import('./pglite-db.ts');
  if (opts.embedded) {
    const embedded = await opts.embedded;
    return createPgliteDb({ pglite: embedded.pglite, onClosed: embedded.release, migratedOnCreation: embedded.migratedOnCreation });
  }
  const { openEmbeddedPglite, openMemoryPglite } = await import('./embedded-pglite.ts');
  if (config.dataDir === MEMORY_DATA_DIR) return createPgliteDb({ pglite: await openMemoryPglite() });
  const embedded = await openEmbeddedPglite(config.dataDir);
  return createPgliteDb({ pglite: embedded.pglite, onClosed: embedded.release, migratedOnCreation: embedded.migratedOnCreation });
}

/** One line naming what went wrong when connecting to PostgreSQL, and what to change. */
export function describePostgresError(err: unknown, databaseUrl: string): StartupError {
  const e = err as { code?: string; message?: string };
  let url: URL | undefined;
  try {
    url = new URL(databaseUrl);
  } catch {
    /* reported below as a bad URL */
  }
  const where = url ? `${url.hostname || 'localhost'}:${url.port || '5432'}` : 'the server in DATABASE_URL';
  const user = url?.username ? decodeURIComponent(url.username) : undefined;
  const database = url?.pathname.replace(/^\//, '') || user || 'DATABASE';
  const say = (text: string) => new StartupError(text, { cause: err });
  switch (e.code) {
    case 'ECONNREFUSED':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return say(`Cannot reach PostgreSQL at ${where} (${e.code}): start it, or fix the host and port in DATABASE_URL.`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return say(`Cannot resolve the PostgreSQL host ${url?.hostname ?? ''} (${e.code}): fix the host in DATABASE_URL.`);
    case '28000':
    case '28P01':
      return user
        ? say(`PostgreSQL at ${where} refused user "${user}" (${e.message}): fix the user name and password in DATABASE_URL.`)
        : say(
            `DATABASE_URL names no user and PostgreSQL at ${where} refused the login (${e.message}): ` +
              'write the user into the URL, e.g. postgres://USER:PASSWORD@HOST:5432/DATABASE.',
          );
    case '3D000':
      return say(`The database "${database}" does not exist on ${where}: create it (createdb ${database}) or fix the name in DATABASE_URL.`);
    case '42501':
      return say(`PostgreSQL at ${where} refused access (${e.message}): grant the user of DATABASE_URL the rights it needs, or use another user.`);
    default:
      if (/password must be a string|SASL/i.test(e.message ?? '')) {
        return say(`PostgreSQL at ${where} asks for a password that DATABASE_URL does not give: add it (postgres://USER:PASSWORD@HOST/DB).`);
      }
      return say(`Cannot connect to PostgreSQL at ${where}: ${e.message ?? String(err)}. Check DATABASE_URL.`);
  }
}
