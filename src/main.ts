import path from 'node:path';
import { parseArgs } from 'node:util';
import { bindOptionValues, valueOptionNames } from './cli/option-values.ts';
import { describeFailure } from './cli/describe-failure.ts';
import { INIT_DATA_DIR_COMMAND, MAKE_DATA_TEMPLATE_COMMAND } from './platform/db/init-data-dir-command.ts';
import { DELIVER_WEBHOOKS_COMMAND } from './webhooks/delivery-command.ts';
import { lockHolder } from './platform/db/data-dir-lock.ts';
import { embeddedDataDir, embeddedFolderOf } from './platform/db/embedded-data-dir.ts';
import { checkDataDir, isInitialised } from './platform/db/data-dir-check.ts';
import { COMMANDS, commandOf } from './cli/commands.ts';
import { DataDirOptionError, defaultDataDir, loadEnvFile, refuseMissingData, takeDataDirOption } from './cli/data-folder.ts';
import { keepWebAssemblyOnBaselineCompiler } from './platform/db/short-run-wasm.ts';
import type { UserCommand } from './cli/user-command.ts';
import type { EmbeddedDatabase } from './platform/db/embedded-pglite.ts';
import type { PasswordHasher } from './platform/auth/password-hasher.ts';

// Only `node:` modules and small files are imported up front: `help`, a mistyped command and a bad option
// answer without loading Express, knex or PGlite. Each command loads what it needs (the bundle is split).

const USAGE = `Usage: addon-pair [command]

  serve                      run the server (default)
  migrate                    apply database migrations, say which, and exit
  user add NAME [--password PW] [--display-name TEXT] [--email ADDR] [--admin] [--sysadmin]
  user passwd NAME [--password PW]      set a password (also clears a failed-login lock)
  user unlock NAME           clear a failed-login lock
  user delete NAME
  token create USERNAME [--name LABEL] [--days N] [--read-only]   prints the raw token
  import FILE                import users, groups … from a JSON document (see docs/operations.md)
  import-from wiki-export FILE [--space KEY…] [--dry-run] [--json]
  import-from wiki URL --space KEY… (--token T | --user NAME) [--dry-run] [--json]
  import-from tracker URL (--token T | --user NAME) [--field ID|NAME…] [--dry-run] [--json]
                             bring spaces, pages, code boxes, fields and options across from the original
                             add-ons' wiki and tracker (see docs/migration.md); exit 1 when a unit failed
  options export FIELD CONTEXT [--format json|csv] [--output FILE] [--no-bom]
                             a context's option tree (CONTEXT: an id or default) as JSON or CSV
  options sync FIELD CONTEXT FILE [--apply] [--allow-delete] [--if-match ETAG]
                             preview (and with --apply, apply) the changes that bring the tree to FILE
      both: --url URL --token TOKEN (or ADDON_PAIR_TOKEN) call a running server over REST;
            without --url they run on the database as --user NAME (whose grants decide)
  help                       this text

A password not given with --password is read from the first line of standard input.
Configuration comes from the environment and a .env file (see .env.example): the working directory's, else
the installation's. The embedded database is in DATA_DIR, or --data-dir DIR, else the installation's ./data;
only serve and migrate create it, every other command needs one there.
With the embedded database (no DATABASE_URL), a running server runs the user and token commands and
import-from wiki-export --dry-run; stop it before migrate, import or another import-from.`;

async function readPassword(given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  if (process.stdin.isTTY) process.stderr.write('password: ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

async function main(args: string[]): Promise<void> {
  // The installation's configuration and data folder, from whatever folder the command runs (cli/data-folder.ts).
  const argv = takeDataDirOption(args);
  loadEnvFile();
  defaultDataDir();
  // `import-from` has options of its own (repeated --space and --field) and answers usage mistakes with exit 2.
  if (argv[0] === 'import-from') return importFrom(argv.slice(1));
  const { values: o, positionals: p } = parseOptions(argv);
  const [cmd = 'serve', sub, arg] = p;
  if (o.help || cmd === 'help') return void process.stdout.write(`${USAGE}\n`);
  // Every process but the server's runs for seconds at most, initdb's child included: see short-run-wasm.ts.
  if (cmd !== 'serve') keepWebAssemblyOnBaselineCompiler();
  // The child process that creates a new embedded data directory (embedded-pglite.ts), not for people.
  if (cmd === INIT_DATA_DIR_COMMAND)
    return (await import('./platform/db/embedded-pglite.ts')).initDataDir(need(sub, 'DIR'));
  // `npm run build`'s migrated template of a new data folder (platform/db/data-template.ts), not for people.
  if (cmd === MAKE_DATA_TEMPLATE_COMMAND) {
    const [{ initDataDir }, { makeTemplate }, { migrationNames }] = await Promise.all([
      import('./platform/db/embedded-pglite.ts'),
      import('./platform/db/data-template.ts'),
      import('./platform/db/migration-source.ts'),
    ]);
    return makeTemplate(need(sub, 'DIR'), initDataDir, migrationNames());
  }
  // The server's webhook delivery child on PostgreSQL (webhooks/delivery-process.ts), not for people.
  if (cmd === DELIVER_WEBHOOKS_COMMAND)
    return (await import('./webhooks/delivery-child.ts')).runDeliveryChild((await import('./config.ts')).loadConfig());
  const command = commandOf(p);
  if (!command) throw new UsageError(`unknown command: ${p.join(' ')}`);
  // Before anything opens (and so creates) the folder; over REST (`options … --url`) no database is used.
  if (!COMMANDS.find((c) => c.name === command)?.createsData && o.url === undefined) refuseMissingData();
  if (cmd === 'options') return optionsCommandOf(o, p);
  const userCommand = await userCommandOf(command, o, arg);
  // With the embedded database and a server running on it, the server runs a user or token command (the
  // folder serves one process). Only DATA_DIR is needed to find it, so this is decided before the
  // configuration loads (with zod, a tenth of a second); the server's own configuration applies.
  const folder = userCommand && embeddedDataDir(process.env);
  const server = folder ? lockHolder(folder) : undefined;
  if (userCommand && folder && server !== undefined) {
    const { runOnRunningServer } = await import('./cli/command-socket.client.ts');
    return void process.stdout.write(await runOnRunningServer(folder, server, userCommand));
  }
  // The password's hash (0.2 s) is computed on the thread pool while the code loads and the database opens
  // (together most of the command's time). The hasher module needs only node:crypto.
  const hasher = userCommand && 'password' in userCommand ? await preparedHasher(userCommand.password) : undefined;
  // The embedded database takes most of the command's time to open (PGlite starts PostgreSQL in WebAssembly).
  // A user or token command on an existing folder starts opening it before the configuration loads (zod, a
  // few hundredths of a second), which then loads while PGlite reads and compiles its files. Not on a new
  // folder: creating it takes seconds, not to be spent before a mistyped setting is reported.
  const early = folder && userCommand.command !== 'user delete' && isInitialised(folder) ? openEmbedded(folder, 'command') : undefined;
  const config = await loadConfigOrClose(early);
  const dataFolder = embeddedFolderOf(config);
  // A data folder that cannot be used fails now, within a second, not after Express, knex and PGlite load.
  if (dataFolder) checkDataDir(dataFolder);
  // The server's embedded database starts opening before the server's code loads (Express and every
  // feature, about 0.4 s), which then loads beside it: on a new folder, beside initdb's child process.
  if (command === 'serve') {
    const embedded = dataFolder ? openEmbedded(dataFolder, 'server', (how) => announceCreation(dataFolder, how, config.logLevel)) : undefined;
    return (await import('./cli/serve.command.ts')).serveCommand(config, embedded);
  }
  const admin = () => import('./cli/admin.commands.ts');
  if (command === 'migrate') return (await admin()).migrateCommand(config);
  if (command === 'import') return (await admin()).importCommand(config, need(sub, 'FILE'));
  if (!userCommand) throw new UsageError(`unknown command: ${p.join(' ')}`);
  // A deletion builds the whole application: it runs every feature's clean-up in its transaction. The other
  // user and token commands load only the directory (a separate chunk of the bundle: they run from scripts
  // and must answer fast).
  if (userCommand.command === 'user delete') return (await admin()).userDeleteCommand(config, userCommand.name);
  // Else it starts now, and the directory's code loads while PGlite reads and compiles its files.
  const embedded = early ?? (dataFolder ? openEmbedded(dataFolder, 'command') : undefined);
  return (await import('./cli/directory.commands.ts')).runOnDirectory(config, userCommand, hasher, embedded);
}

/** `import-from …` (cli/import-from.command.ts): runs on the database as `import` does; sets the exit code. */
async function importFrom(argv: string[]): Promise<void> {
  const { importFromCommand } = await import('./cli/import-from.command.ts');
  process.exitCode = await importFromCommand(argv, {
    readPassword: () => readPassword(undefined),
    // Checked when the command is about to open the database, after its own usage checks.
    loadConfig: async () => {
      refuseMissingData();
      return loadConfigOrClose(undefined);
    },
    out: (s) => void process.stdout.write(s),
    err: (s) => void process.stderr.write(s),
  });
}

/** Opens the folder for the server, or for a user or token command (a small shared memory: COMMAND_START_PARAMS). */
function openEmbedded(dir: string, forWhat: 'server' | 'command', announce?: (how: 'template' | 'initdb') => void) {
  const opening = import('./platform/db/embedded-pglite.ts').then((m) =>
    m.openEmbeddedPglite(dir, forWhat === 'server' ? m.EMBEDDED_START_PARAMS : m.COMMAND_START_PARAMS, announce),
  );
  opening.catch(() => undefined); // reported by whoever awaits it
  return opening;
}

/**
 * The server's first start on a new folder says so while it works (issue 42: it printed nothing for 6–19 s):
 * one line for a person at a terminal, a log line otherwise (JSON, as every other line there).
 */
function announceCreation(dir: string, how: 'template' | 'initdb', logLevel: string): void {
  const where = path.resolve(dir);
  const what = how === 'template' ? "copying the build's migrated template" : 'initdb and migrations, some seconds';
  if (process.stdout.isTTY) return void process.stdout.write(`Creating the database in ${where} (first start: ${what}) …\n`);
  void import('./platform/log/logger.ts').then(({ createLogger }) =>
    createLogger(logLevel).info({ dataDir: where, from: how }, 'creating the embedded database (first start)'),
  );
}

/** The configuration; when it is refused, the database opened early is closed (and its folder unlocked) first. */
async function loadConfigOrClose(early: Promise<EmbeddedDatabase> | undefined) {
  try {
    return (await import('./config.ts')).loadConfig();
  } catch (err) {
    const opened = await early?.catch(() => undefined);
    await opened?.pglite.close().catch(() => undefined);
    opened?.release();
    throw err;
  }
}

/** The user or token command the arguments name (its password read from stdin if not given), else undefined. */
async function userCommandOf(
  command: string,
  o: ReturnType<typeof parseOptions>['values'],
  arg: string | undefined,
): Promise<UserCommand | undefined> {
  switch (command) {
    case 'user add':
      return {
        command,
        name: need(arg, 'NAME'),
        password: await readPassword(o.password),
        displayName: o['display-name'],
        email: o.email,
        admin: o.admin,
        sysadmin: o.sysadmin,
      };
    case 'user passwd':
      return { command, name: need(arg, 'NAME'), password: await readPassword(o.password) };
    case 'user unlock':
    case 'user delete':
      return { command, name: need(arg, 'NAME') };
    case 'token create': {
      const days = o.days === undefined ? undefined : Number(o.days);
      if (days !== undefined && (!Number.isInteger(days) || days < 1))
        throw new UsageError('--days must be a whole number of days');
      return { command, username: need(arg, 'USERNAME'), name: o.name ?? 'cli', days, readOnly: o['read-only'] === true };
    }
    default:
      return undefined;
  }
}

async function preparedHasher(password: string): Promise<PasswordHasher> {
  const hasher = new (await import('./platform/auth/password-hasher.ts')).PasswordHasher();
  hasher.prepare(password);
  return hasher;
}

/** `options export|sync` (cli/options.commands.ts): over REST needs no configuration, on the database it loads it. */
async function optionsCommandOf(o: ReturnType<typeof parseOptions>['values'], p: string[]): Promise<void> {
  const [, action, field, context, file] = p;
  const format = o.format;
  if (format !== undefined && format !== 'json' && format !== 'csv') throw new UsageError('--format must be json or csv');
  const command = {
    action: action as 'export' | 'sync',
    field: need(field, 'FIELD'),
    context: need(context, 'CONTEXT'),
    file: action === 'sync' ? need(file, 'FILE') : undefined,
    format: format as 'json' | 'csv' | undefined,
    output: o.output,
    bom: o['no-bom'] !== true,
    apply: o.apply === true,
    allowDelete: o['allow-delete'] === true,
    ifMatch: o['if-match'],
    url: o.url,
    token: o.token ?? process.env.ADDON_PAIR_TOKEN,
    user: o.user,
  };
  const { optionsCommand } = await import('./cli/options.commands.ts');
  return optionsCommand(command.url === undefined ? await loadConfigOrClose(undefined) : undefined, command);
}

function parseOptions(argv: string[]) {
  try {
    return parseArgs({ args: bindOptionValues(argv, valueOptionNames(CLI_OPTIONS)), allowPositionals: true, options: CLI_OPTIONS });
  } catch (err) {
    // An unknown or incomplete option is a usage mistake, not a crash.
    throw new UsageError((err as Error).message.split('\n')[0]!.replace(/\.$/, ''));
  }
}

const CLI_OPTIONS = {
  password: { type: 'string' },
  'display-name': { type: 'string' },
  email: { type: 'string' },
  admin: { type: 'boolean' },
  sysadmin: { type: 'boolean' },
  name: { type: 'string' },
  days: { type: 'string' },
  'read-only': { type: 'boolean' },
  format: { type: 'string' },
  output: { type: 'string' },
  'no-bom': { type: 'boolean' },
  apply: { type: 'boolean' },
  'allow-delete': { type: 'boolean' },
  'if-match': { type: 'string' },
  url: { type: 'string' },
  token: { type: 'string' },
  user: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

class UsageError extends Error {}

function need(v: string | undefined, what: string): string {
  if (!v) throw new UsageError(`missing ${what}`);
  return v;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || err instanceof DataDirOptionError)
    process.stderr.write(`${err.message}: run \`addon-pair help\` for the commands and their arguments.\n`);
  else process.stderr.write(`${describeFailure(err)}\n`);
  // The stack is for whoever debugs, not for the person who mistyped a setting.
  if (/^(debug|trace)$/i.test(process.env.LOG_LEVEL ?? '') && err instanceof Error && err.stack)
    process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});
