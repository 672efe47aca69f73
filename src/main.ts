import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { AppError } from './platform/http/app-error.ts';
import { serveCommand } from './cli/serve.command.ts';
import * as admin from './cli/admin.commands.ts';

const USAGE = `Usage: addon-pair [command]

  serve                      run the server (default)
  migrate                    apply database migrations and exit
  user add NAME [--password PW] [--display-name TEXT] [--email ADDR] [--admin] [--sysadmin]
  user passwd NAME [--password PW]      (also clears a failed-login lock)
  user delete NAME
  token create USERNAME [--name LABEL] [--days N] [--read-only]   prints the raw token
  import FILE                import users, groups … from a JSON document (see README)

A password not given with --password is read from the first line of standard input.
Configuration comes from the environment and a .env file (see README).`;

async function readPassword(given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  if (process.stdin.isTTY) process.stderr.write('password: ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

async function main(argv: string[]): Promise<void> {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  const { values: o, positionals: p } = parseArgs({
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
  if (o.help) return void process.stdout.write(`${USAGE}\n`);
  const config = loadConfig();
  const [cmd = 'serve', sub, arg] = p;
  const need = (v: string | undefined, what: string) => {
    if (!v) throw new UsageError(`missing ${what}`);
    return v;
  };
  switch (`${cmd}${sub && cmd !== 'import' ? ` ${sub}` : ''}`) {
    case 'serve':
      return serveCommand(config);
    case 'migrate':
      return admin.migrateCommand(config);
    case 'user add':
      return admin.userAddCommand(config, {
        name: need(arg, 'NAME'),
        password: await readPassword(o.password),
        displayName: o['display-name'],
        email: o.email,
        admin: o.admin,
        sysadmin: o.sysadmin,
      });
    case 'user passwd':
      return admin.userPasswdCommand(config, need(arg, 'NAME'), await readPassword(o.password));
    case 'user delete':
      return admin.userDeleteCommand(config, need(arg, 'NAME'));
    case 'token create': {
      const days = o.days === undefined ? undefined : Number(o.days);
      if (days !== undefined && (!Number.isInteger(days) || days < 1)) throw new UsageError('--days must be a whole number of days');
      return admin.tokenCreateCommand(config, { username: need(arg, 'USERNAME'), name: o.name ?? 'cli', days, readOnly: o['read-only'] === true });
    }
    case 'import':
      return admin.importCommand(config, need(sub, 'FILE'));
    default:
      throw new UsageError(`unknown command: ${p.join(' ')}`);
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) process.stderr.write(`${err.message}\n\n${USAGE}\n`);
  else if (err instanceof ConfigError || err instanceof AppError) {
    const details = err instanceof AppError ? err.details.map((d) => `\n  ${d.name}: ${d.message}`).join('') : '';
    process.stderr.write(`${err.message}${details}\n`);
  } else if (err instanceof Error && err.constructor.name !== 'Error' && !/^(TypeError|RangeError|ReferenceError)$/.test(err.name)) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
