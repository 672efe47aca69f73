import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { describeFailure } from './cli/describe-failure.ts';
import { INIT_DATA_DIR_COMMAND } from './platform/db/init-data-dir-command.ts';

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
  help                       this text

A password not given with --password is read from the first line of standard input.
Configuration comes from the environment and a .env file (see .env.example).
With the embedded database (no DATABASE_URL), stop the server before running a command that opens it.`;

async function readPassword(given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  if (process.stdin.isTTY) process.stderr.write('password: ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

/**
 * Reads the password and starts hashing it at once, on the thread pool, while the directory chunk loads and
 * the database opens (together most of `user add`'s time). The hasher module needs only node:crypto.
 */
async function passwordHashing(given: string | undefined) {
  const password = await readPassword(given);
  const hasher = new (await import('./platform/auth/password-hasher.ts')).PasswordHasher();
  hasher.prepare(password);
  return { password, hasher };
}

async function main(argv: string[]): Promise<void> {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  const { values: o, positionals: p } = parseOptions(argv);
  const [cmd = 'serve', sub, arg] = p;
  if (o.help || cmd === 'help') return void process.stdout.write(`${USAGE}\n`);
  // The child process that creates a new embedded data directory (embedded-pglite.ts), not for people.
  if (cmd === INIT_DATA_DIR_COMMAND)
    return (await import('./platform/db/embedded-pglite.ts')).initDataDir(need(sub, 'DIR'));
  const command = `${cmd}${sub && cmd !== 'import' ? ` ${sub}` : ''}`;
  if (!COMMANDS.has(command)) throw new UsageError(`unknown command: ${p.join(' ')}`);
  const config = (await import('./config.ts')).loadConfig();
  // A data folder that cannot be used fails now, within a second, not after Express, knex and PGlite load.
  if (!config.databaseUrl && config.dataDir !== 'memory://')
    (await import('./platform/db/data-dir-check.ts')).checkDataDir(config.dataDir);
  if (command === 'serve') return (await import('./cli/serve.command.ts')).serveCommand(config);
  // Creating users and tokens loads only the directory and the database (a separate chunk of the bundle):
  // these run from scripts and must answer fast; the rest builds the whole application.
  const directory = () => import('./cli/directory.commands.ts');
  const admin = () => import('./cli/admin.commands.ts');
  switch (command) {
    case 'migrate':
      return (await admin()).migrateCommand(config);
    case 'user add': {
      const name = need(arg, 'NAME');
      const { password, hasher } = await passwordHashing(o.password);
      const details = {
        name,
        password,
        displayName: o['display-name'],
        email: o.email,
        admin: o.admin,
        sysadmin: o.sysadmin,
      };
      return (await directory()).userAddCommand(config, details, hasher);
    }
    case 'user passwd': {
      const name = need(arg, 'NAME');
      const { password, hasher } = await passwordHashing(o.password);
      return (await directory()).userPasswdCommand(config, name, password, hasher);
    }
    case 'user unlock':
      return (await directory()).userUnlockCommand(config, need(arg, 'NAME'));
    case 'user delete':
      return (await admin()).userDeleteCommand(config, need(arg, 'NAME'));
    case 'token create': {
      const days = o.days === undefined ? undefined : Number(o.days);
      if (days !== undefined && (!Number.isInteger(days) || days < 1))
        throw new UsageError('--days must be a whole number of days');
      return (await directory()).tokenCreateCommand(config, {
        username: need(arg, 'USERNAME'),
        name: o.name ?? 'cli',
        days,
        readOnly: o['read-only'] === true,
      });
    }
    case 'import':
      return (await admin()).importCommand(config, need(sub, 'FILE'));
    default:
      throw new UsageError(`unknown command: ${p.join(' ')}`);
  }
}

const COMMANDS = new Set([
  'serve',
  'migrate',
  'user add',
  'user passwd',
  'user unlock',
  'user delete',
  'token create',
  'import',
]);

function parseOptions(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        password: { type: 'string' },
        'display-name': { type: 'string' },
        email: { type: 'string' },
        admin: { type: 'boolean' },
        sysadmin: { type: 'boolean' },
        name: { type: 'string' },
        days: { type: 'string' },
        'read-only': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    // An unknown or incomplete option is a usage mistake, not a crash.
    throw new UsageError((err as Error).message.split('\n')[0]!.replace(/\.$/, ''));
  }
}

class UsageError extends Error {}

function need(v: string | undefined, what: string): string {
  if (!v) throw new UsageError(`missing ${what}`);
  return v;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError)
    process.stderr.write(`${err.message}: run \`addon-pair help\` for the commands and their arguments.\n`);
  else process.stderr.write(`${describeFailure(err)}\n`);
  // The stack is for whoever debugs, not for the person who mistyped a setting.
  if (/^(debug|trace)$/i.test(process.env.LOG_LEVEL ?? '') && err instanceof Error && err.stack)
    process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});
