import type { AppServices } from './services.ts';
import { migrateLatest, withBootstrapLock, type Db } from './platform/db/knex.ts';
import type { Config } from './config.ts';
import { usersRepository } from './directory/users.repository.ts';
import { BUILTIN_GROUPS } from './directory/groups.repository.ts';
import { demoPasswords, loadDemo } from './demo/demo.ts';
import { tableMissing } from './platform/db/probes.ts';
import { StartupError } from './platform/startup-error.ts';

export class BootstrapError extends StartupError {}

export interface BootstrapResult {
  migrations: string[];
  adminCreated: boolean;
  demoLoaded: boolean;
}

/**
 * Brings the database to the state a server needs: migrations, the first administrator, the demo data.
 * Runs under one cluster-wide lock, so two nodes starting together do each step once. `demo: false` leaves the
 * demo data out whatever DEMO says (a command that writes its own data into a new database).
 */
export async function bootstrap(services: AppServices, opts: { demo?: boolean } = {}): Promise<BootstrapResult> {
  const { db, log } = services;
  const config = { ...services.config, demo: opts.demo ?? services.config.demo };
  return withBootstrapLock(db, async () => {
    // A new directory gets its first administrator (and the demo user) once the migrations have run. Their
    // passwords' hashes (scrypt, about 0.3 s each) start now, on the thread pool, and are ready by then.
    // Migrations create no users, and the lock keeps other nodes out: no users now means none after them.
    const newDirectory = await hasNoUsers(db);
    if (newDirectory) for (const password of firstPasswords(config)) services.hasher.prepare(password);
    const migrations = await migrateLatest(db);
    if (migrations.length > 0) log.info({ migrations }, 'migrations applied');
    if (!newDirectory) return { migrations, adminCreated: false, demoLoaded: false };

    const password = firstAdminPassword(config);
    if (!password) {
      throw new BootstrapError(
        'The directory has no users and ADMIN_PASSWORD is not set: set ADMIN_PASSWORD to create the first administrator.',
      );
    }
    if (!config.adminPassword) {
      log.warn(`ADMIN_PASSWORD is not set: the administrator "${config.adminUsername}" gets the password "admin". Change it.`);
    }
    await services.directory.createUser({
      name: config.adminUsername,
      password,
      displayName: 'Administrator',
      groups: [BUILTIN_GROUPS.administrators, BUILTIN_GROUPS.systemAdministrators],
    });
    log.info({ username: config.adminUsername }, 'first administrator created');
    if (config.demo) {
      await loadDemo(services);
      log.info('demo data loaded');
    }
    return { migrations, adminCreated: true, demoLoaded: config.demo };
  });
}

/** No users table yet (a new database), or an empty one: the first administrator is then created. */
async function hasNoUsers(db: Db): Promise<boolean> {
  return (await tableMissing(db.knex, 'users')) || (await usersRepository.count(db.knex)) === 0;
}

/** ADMIN_PASSWORD; without it, "admin" on the embedded database, and none on PostgreSQL (which refuses to start). */
function firstAdminPassword(config: Config): string | undefined {
  return config.adminPassword || (config.databaseUrl ? undefined : 'admin');
}

/** The passwords bootstrap hashes on a new directory: the first administrator's, and the demo users'. */
function firstPasswords(config: Config): string[] {
  const admin = firstAdminPassword(config);
  return [...(admin ? [admin] : []), ...(config.demo ? demoPasswords() : [])];
}
