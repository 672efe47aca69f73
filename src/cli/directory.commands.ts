import type { Config } from '../config.ts';
import { createLogger } from '../platform/log/logger.ts';
import { openDatabase } from '../platform/db/open-database.ts';
import { migrateIfBehind } from '../platform/db/knex.ts';
import { EventBus } from '../platform/events/event-bus.ts';
import { PasswordHasher } from '../platform/auth/password-hasher.ts';
import { DirectoryService } from '../directory/directory.service.ts';
import { TokensService } from '../directory/tokens.service.ts';
import { BUILTIN_GROUPS } from '../directory/groups.repository.ts';
import { createUserBody, password as passwordSchema } from '../directory/directory.schemas.ts';
import { parseWith } from '../platform/http/validate.ts';

/**
 * `user add`, `user passwd`, `user unlock` and `token create` on a slim context: the config, the database
 * and the directory with what it needs (the production password hasher, the change feed that tells running
 * servers). Not the app's services: no Express, web, wiki, code blocks or field editor, whose loading was
 * most of a run's time (issue 14). None of these commands deletes anything, so no feature's directory hook
 * is involved; `user delete` runs on the whole composition root (admin.commands.ts), where every feature
 * registers the work that must happen in a deletion's transaction (the field editor's grant clean-up).
 * A test (test/process/cli.test.ts) checks that this path loads neither Express nor the app.
 */
interface DirectoryContext {
  directory: DirectoryService;
  tokens: TokensService;
}

/**
 * Opens the database, migrates it only if it is behind (one query when it is not), runs `fn`, closes.
 * `hasher` may already be hashing the command's password (main.ts prepares it before this chunk loads).
 */
async function withDirectory(
  config: Config,
  fn: (ctx: DirectoryContext) => Promise<void>,
  hasher = new PasswordHasher(),
): Promise<void> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  // On PostgreSQL the change feed connects only to announce a change (`user passwd`), then waits for the
  // running servers to acknowledge it, as a server does.
  const db = await openDatabase(config, log, { listenForChanges: 'on-publish' });
  try {
    await migrateIfBehind(db);
    await fn({
      directory: new DirectoryService(db.knex, hasher, new EventBus(log), db.changes),
      tokens: new TokensService(db.knex, db.changes),
    });
  } finally {
    await db.close();
  }
}

export const userAddCommand = (
  config: Config,
  o: {
    name: string;
    password: string;
    displayName?: string;
    email?: string;
    admin?: boolean;
    sysadmin?: boolean;
  },
  hasher?: PasswordHasher,
) =>
  withDirectory(
    config,
    async ({ directory }) => {
      const input = parseWith(createUserBody, {
        name: o.name,
        password: o.password,
        displayName: o.displayName,
        emailAddress: o.email,
      });
      const groups = [
        ...(o.admin || o.sysadmin ? [BUILTIN_GROUPS.administrators] : []),
        ...(o.sysadmin ? [BUILTIN_GROUPS.systemAdministrators] : []),
      ];
      const user = await directory.createUser({ ...input, groups });
      process.stdout.write(`created user ${user.name} (groups: ${user.groups.join(', ')})\n`);
    },
    hasher,
  );

export const userPasswdCommand = (config: Config, name: string, password: string, hasher?: PasswordHasher) =>
  withDirectory(
    config,
    async ({ directory }) => {
      await directory.setPassword(name, parseWith(passwordSchema, password, 'password'));
      await directory.resetLockout(name);
      process.stdout.write(`password of ${name} changed\n`);
    },
    hasher,
  );

export const userUnlockCommand = (config: Config, name: string) =>
  withDirectory(config, async ({ directory }) => {
    await directory.getUser(name);
    await directory.resetLockout(name);
    process.stdout.write(`${name} is unlocked\n`);
  });

export const tokenCreateCommand = (
  config: Config,
  o: { username: string; name: string; days?: number; readOnly?: boolean },
) =>
  withDirectory(config, async ({ directory, tokens }) => {
    const user = await directory.getUser(o.username);
    const { rawToken } = await tokens.create(user.id, o.name, o.days, o.readOnly ? 'read' : 'write');
    // The raw token alone on stdout, so `TOKEN=$(addon-pair token create …)` works.
    process.stdout.write(`${rawToken}\n`);
  });
