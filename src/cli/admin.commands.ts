import fs from 'node:fs';
import type { Config } from '../config.ts';
import { createLogger } from '../platform/log/logger.ts';
import { migrateLatest, withBootstrapLock } from '../platform/db/knex.ts';
import { openDatabase } from '../server.ts';
import { createServices, type AppServices } from '../services.ts';
import { BUILTIN_GROUPS } from '../directory/groups.repository.ts';
import { runImport } from '../importer/import.service.ts';
import { parseWith } from '../platform/http/validate.ts';
import { StartupError } from '../platform/startup-error.ts';
import { createUserBody, password as passwordSchema } from '../directory/directory.schemas.ts';

/** Opens the database, brings it to the latest schema, runs `fn`, and always closes it again. */
async function withContext(config: Config, fn: (services: AppServices) => Promise<void>): Promise<void> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const db = await openDatabase(config);
  try {
    const services = createServices(config, db, log);
    await withBootstrapLock(db, () => migrateLatest(db));
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

export const userAddCommand = (config: Config, o: { name: string; password: string; displayName?: string; email?: string; admin?: boolean; sysadmin?: boolean }) =>
  withContext(config, async (services) => {
    const input = parseWith(createUserBody, { name: o.name, password: o.password, displayName: o.displayName, emailAddress: o.email });
    const groups = [
      ...(o.admin || o.sysadmin ? [BUILTIN_GROUPS.administrators] : []),
      ...(o.sysadmin ? [BUILTIN_GROUPS.systemAdministrators] : []),
    ];
    const user = await services.directory.createUser({ ...input, groups });
    process.stdout.write(`created user ${user.name} (groups: ${user.groups.join(', ')})\n`);
  });

export const userPasswdCommand = (config: Config, name: string, password: string) =>
  withContext(config, async (services) => {
    await services.directory.setPassword(name, parseWith(passwordSchema, password, 'password'));
    await services.directory.resetLockout(name);
    process.stdout.write(`password of ${name} changed\n`);
  });

export const userUnlockCommand = (config: Config, name: string) =>
  withContext(config, async (services) => {
    await services.directory.getUser(name);
    await services.directory.resetLockout(name);
    process.stdout.write(`${name} is unlocked\n`);
  });

export const userDeleteCommand = (config: Config, name: string) =>
  withContext(config, async (services) => {
    await services.directory.deleteUser(name);
    await services.events.settled();
    process.stdout.write(`deleted user ${name}\n`);
  });

export const tokenCreateCommand = (config: Config, o: { username: string; name: string; days?: number; readOnly?: boolean }) =>
  withContext(config, async (services) => {
    const user = await services.directory.getUser(o.username);
    const { rawToken } = await services.tokens.create(user.id, o.name, o.days, o.readOnly ? 'read' : 'write');
    // The raw token alone on stdout, so `TOKEN=$(addon-pair token create …)` works.
    process.stdout.write(`${rawToken}\n`);
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
