import fs from 'node:fs';
import type { Config } from '../config.ts';
import { createLogger } from '../platform/log/logger.ts';
import { migrateLatest, withBootstrapLock } from '../platform/db/knex.ts';
import { openDatabase } from '../server.ts';
import { createContext, type AppContext } from '../context.ts';
import { BUILTIN_GROUPS } from '../directory/groups.repository.ts';
import { runImport } from '../importer/import.service.ts';
import { parseWith } from '../platform/http/validate.ts';
import { createUserBody, password as passwordSchema } from '../directory/directory.schemas.ts';

/** Opens the database, brings it to the latest schema, runs `fn`, and always closes it again. */
async function withContext(config: Config, fn: (ctx: AppContext) => Promise<void>): Promise<void> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const db = openDatabase(config);
  try {
    const ctx = createContext(config, db, log);
    await withBootstrapLock(db, () => migrateLatest(db));
    await fn(ctx);
  } finally {
    await db.close();
  }
}

export const migrateCommand = (config: Config) =>
  withContext(config, async () => {
    process.stdout.write('database is at the latest migration\n');
  });

export const userAddCommand = (config: Config, o: { name: string; password: string; displayName?: string; email?: string; admin?: boolean; sysadmin?: boolean }) =>
  withContext(config, async (ctx) => {
    const input = parseWith(createUserBody, { name: o.name, password: o.password, displayName: o.displayName, emailAddress: o.email });
    const groups = [
      ...(o.admin || o.sysadmin ? [BUILTIN_GROUPS.administrators] : []),
      ...(o.sysadmin ? [BUILTIN_GROUPS.systemAdministrators] : []),
    ];
    const user = await ctx.directory.createUser({ ...input, groups });
    process.stdout.write(`created user ${user.name} (groups: ${user.groups.join(', ')})\n`);
  });

export const userPasswdCommand = (config: Config, name: string, password: string) =>
  withContext(config, async (ctx) => {
    await ctx.directory.setPassword(name, parseWith(passwordSchema, password, 'password'));
    await ctx.directory.resetLockout(name);
    process.stdout.write(`password of ${name} changed\n`);
  });

export const userDeleteCommand = (config: Config, name: string) =>
  withContext(config, async (ctx) => {
    await ctx.directory.deleteUser(name);
    await ctx.events.settled();
    process.stdout.write(`deleted user ${name}\n`);
  });

export const tokenCreateCommand = (config: Config, o: { username: string; name: string; days?: number }) =>
  withContext(config, async (ctx) => {
    const user = await ctx.directory.getUser(o.username);
    const { rawToken } = await ctx.tokens.create(user.id, o.name, o.days);
    // The raw token alone on stdout, so `TOKEN=$(addon-pair token create …)` works.
    process.stdout.write(`${rawToken}\n`);
  });

export const importCommand = (config: Config, file: string) =>
  withContext(config, async (ctx) => {
    let doc: unknown;
    try {
      doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`Cannot read ${file}: ${(err as Error).message}`);
    }
    const started = Date.now();
    const summary = await runImport(ctx, doc, (m) => process.stderr.write(`  ${m}\n`));
    for (const [section, s] of Object.entries(summary)) {
      process.stdout.write(`${section}: ${s.created} created, ${s.skipped} already there\n`);
    }
    process.stdout.write(`import finished in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  });
