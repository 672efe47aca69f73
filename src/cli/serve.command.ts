import type { Config } from '../config.ts';
import type { EmbeddedDatabase } from '../platform/db/embedded-pglite.ts';
import { embeddedFolderOf } from '../platform/db/embedded-data-dir.ts';
import { createLogger } from '../platform/log/logger.ts';
import { startServer } from '../server.ts';
import { demoCurlLines } from '../demo/demo-curl.ts';
import { listenForCommands } from './command-socket.server.ts';
import { userCommandServices } from './user-commands.ts';
import { wikiExportDryRunner } from './export-dry-run.ts';

/**
 * `serve`: run until SIGTERM or SIGINT, then stop accepting, drain and close the database. `embedded`: the
 * embedded database, already being opened (main.ts starts it before this module and the app load).
 */
export async function serveCommand(config: Config, embedded?: Promise<EmbeddedDatabase>): Promise<void> {
  const log = createLogger(config.logLevel);
  const running = await startServer(config, log, embedded);
  // The embedded database serves this process alone: the command line's user and token commands, and its dry
  // runs of an export, come here.
  const embeddedFolder = embeddedFolderOf(config);
  const commands = embeddedFolder
    ? await listenForCommands(
        embeddedFolder,
        { users: userCommandServices(running.services), wikiExportDryRun: wikiExportDryRunner(running.services, config.wikiExportMaxTextChars) },
        log,
      )
    : undefined;
  const { baseUrl, adminUsername, adminPassword } = config;
  const database = config.databaseUrl ? 'postgresql' : `pglite:${config.dataDir}`;
  // A person at a terminal reads one line; a log collector (no TTY) gets the JSON line, as every other.
  if (process.stdout.isTTY) process.stdout.write(`addon-pair listening on ${baseUrl} (${config.host}:${running.port}, ${database})\n`);
  else log.info({ port: running.port, baseUrl, database }, 'addon-pair listening');
  if (running.boot.adminCreated) {
    // Only commands that work as printed in the shell of the person who started us: the ADMIN_PASSWORD they
    // set is not in their shell's variables (it may have been given inline or in .env) and is not printed,
    // so curl asks for it (`-u NAME` without a password prompts).
    const adminAuth = adminPassword ? adminUsername : `${adminUsername}:admin`;
    const lines = [
      '',
      `addon-pair is running at ${baseUrl}`,
      `  administrator: ${adminUsername} / ${adminPassword ? '(the ADMIN_PASSWORD you set)' : 'admin'}`,
      ...(running.boot.demoLoaded ? ['  demo user:     alice / alice'] : []),
      '',
      'Try:',
      `  curl -u ${adminAuth} ${baseUrl}/rest/api/2/myself${adminPassword ? '   # curl asks for the password' : ''}`,
      ...(running.boot.demoLoaded ? demoCurlLines(baseUrl).map((l) => `  ${l}`) : []),
      '',
    ];
    process.stdout.write(lines.join('\n') + '\n');
  }

  let signals = 0;
  const shutdown = (signal: string) => {
    if (++signals > 1) process.exit(1);
    log.info({ signal }, 'shutting down');
    const stopped = (commands?.close() ?? Promise.resolve()).then(() => running.stop());
    stopped.then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
