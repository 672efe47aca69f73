import fs from 'node:fs';
import type { Config } from '../config.ts';
import { createLogger } from '../platform/log/logger.ts';
import { migrateIfBehind, migrateLatest, withBootstrapLock } from '../platform/db/knex.ts';
import { openDatabase } from '../platform/db/open-database.ts';
import { createServices, type AppServices } from '../services.ts';
import { runImport } from '../importer/import.service.ts';
import { StartupError } from '../platform/startup-error.ts';
import { runUserCommand, userCommandServices } from './user-commands.ts';
import { usersRepository } from '../directory/users.repository.ts';
import { bootstrap } from '../bootstrap.ts';

// The commands that need the whole composition root. `user add`, `user passwd`, `user unlock` and
// `token create` run on a slim context instead (directory.commands.ts), or in a running embedded server
// (command-socket.client.ts), which then runs `user delete` too.

/** Opens the database, brings it to the latest schema if it is behind, runs `fn`, and always closes it again. */
export async function withContext(config: Config, fn: (services: AppServices) => Promise<void>): Promise<void> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const db = await openDatabase(config);
  try {
    const services = createServices(config, db, log);
    await migrateIfBehind(db);
    // A new folder or database gets its first administrator before a command writes users into it (an import),
    // as a server's first start would: after it, the directory is no longer new and no server would create one.
    if ((await usersRepository.count(db.knex)) === 0) await bootstrap(services, { demo: false });
    await fn(services);
  } finally {
    await db.close();
  }
}

export async function migrateCommand(config: Config): Promise<void> {
  const db = await openDatabase(config);
  try {
    const applied = await withBootstrapLock(db, () => migrateLatest(db));
    if (applied.length === 0) process.stdout.write('no pending migrations: the database was already at the latest one\n');
    else process.stdout.write(`applied ${applied.length} migration${applied.length === 1 ? '' : 's'}:\n${applied.map((m) => `  ${m}\n`).join('')}`);
  } finally {
    await db.close();
  }
}

/**
 * On the whole composition root, not the slim context of the other user commands: every feature registers
 * the work that must happen inside a user's deletion there (services.ts; the field editor removes the user's
 * grants and writes its event-log entry in the same transaction), and a hand-kept copy of that list could
 * miss one, leaving grants to the next user of the name. Deleting a user is rare; it may take its second.
 */
export const userDeleteCommand = (config: Config, name: string) =>
  withContext(config, async (services) => {
    process.stdout.write(await runUserCommand(userCommandServices(services), { command: 'user delete', name }));
  });

export async function importCommand(config: Config, file: string): Promise<void> {
  // Read and parse before opening the database: a typo in the path must not wait for the database.
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new StartupError(`Cannot read the import file ${file} (${code}): check the path and that this user may read it.`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new StartupError(`The import file ${file} is not valid JSON (${(err as Error).message}): fix it; the format is in docs/operations.md.`);
  }
  await withContext(config, async (services) => {
    const started = Date.now();
    const summary = await runImport(services, doc, (m) => process.stderr.write(`  ${m}\n`));
    for (const [section, s] of Object.entries(summary)) {
      process.stdout.write(`${section}: ${s.created} created, ${s.skipped} already there\n`);
    }
    process.stdout.write(`import finished in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  });
}
