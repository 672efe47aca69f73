import type { AppServices } from './services.ts';
import { migrateLatest, withBootstrapLock } from './platform/db/knex.ts';
import { usersRepository } from './directory/users.repository.ts';
import { BUILTIN_GROUPS } from './directory/groups.repository.ts';
import { loadDemo } from './demo/demo.ts';
import { StartupError } from './platform/startup-error.ts';

export class BootstrapError extends StartupError {}

export interface BootstrapResult {
  migrations: string[];
  adminCreated: boolean;
  demoLoaded: boolean;
}

/**
 * Brings the database to the state a server needs: migrations, the first administrator, the demo data.
 * Runs under one cluster-wide lock, so two nodes starting together do each step once.
 */
export async function bootstrap(services: AppServices): Promise<BootstrapResult> {
  const { config, db, log } = services;
  return withBootstrapLock(db, async () => {
    const migrations = await migrateLatest(db);
    if (migrations.length > 0) log.info({ migrations }, 'migrations applied');
    if ((await usersRepository.count(db.knex)) > 0) return { migrations, adminCreated: false, demoLoaded: false };

    let password = config.adminPassword;
    if (!password) {
      if (config.databaseUrl) {
        throw new BootstrapError(
          'The directory has no users and ADMIN_PASSWORD is not set: set ADMIN_PASSWORD to create the first administrator.',
        );
      }
      password = 'admin';
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
