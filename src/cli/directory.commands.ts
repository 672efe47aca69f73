import type { Config } from '../config.ts';
import { createLogger } from '../platform/log/logger.ts';
import { openDatabase, type OpenOptions } from '../platform/db/open-database.ts';
import { migrateIfBehind } from '../platform/db/knex.ts';
import { PasswordHasher } from '../platform/auth/password-hasher.ts';
import { DirectoryService } from '../directory/directory.service.ts';
import { PasswordPolicy } from '../directory/password-policy.ts';
import { TokensService } from '../directory/tokens.service.ts';
import { runUserCommand } from './user-commands.ts';
import type { UserCommand } from './user-command.ts';

/**
 * `user add`, `user passwd`, `user unlock` and `token create` on a slim context: the config, the database
 * and the directory with what it needs (the production password hasher, the change feed that tells running
 * servers). Not the app's services: no Express, web, wiki, code blocks or field editor, whose loading was
 * most of a run's time (issue 14). None of these commands deletes anything, so no feature's directory hook
 * is involved; `user delete` runs on the whole composition root (admin.commands.ts), where every feature
 * registers the work that must happen in a deletion's transaction (the field editor's grant clean-up).
 * A test (test/process/cli.test.ts) checks that this path loads neither Express nor the app.
 *
 * Opens the database, migrates it only if it is behind (one query when it is not), runs the command, closes.
 * `hasher` may already be hashing the command's password, and `embedded` be the embedded database being
 * opened (main.ts starts both before this chunk loads).
 */
export async function runOnDirectory(
  config: Config,
  cmd: Exclude<UserCommand, { command: 'user delete' }>,
  hasher = new PasswordHasher(),
  embedded?: OpenOptions['embedded'],
): Promise<void> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  // On PostgreSQL the change feed connects only to announce a change (`user passwd`), then waits for the
  // running servers to acknowledge it, as a server does.
  const db = await openDatabase(config, log, { listenForChanges: 'on-publish', embedded });
  try {
    await migrateIfBehind(db);
    const directory = new DirectoryService(db.knex, hasher, db.changes, undefined, new PasswordPolicy(config.passwordMinLength));
    const tokens = new TokensService(db.knex, db.changes);
    process.stdout.write(await runUserCommand({ directory, tokens }, cmd));
  } finally {
    await db.close();
  }
}
