import fs from 'node:fs';
import path from 'node:path';
import { installRoot } from '../platform/install-root.ts';
import { embeddedDataDir } from '../platform/db/embedded-data-dir.ts';
import { isInitialised } from '../platform/db/data-dir-check.ts';
import { StartupError } from '../platform/startup-error.ts';

// Only `node:` modules and small files: the command line settles its configuration files and data folder
// before it loads anything else (main.ts).
//
// Issue 42: `node <clone>/bin/addon-pair.mjs user unlock alice` from another folder read no .env, took
// ./data in that folder, created an empty database there and answered "The user does not exist". Now the
// installation's own .env and data folder are found from the code's location, not the working directory.

/**
 * Loads the configuration file: `.env` in the working directory if there is one, else the installation's
 * (the clone's), which is what `npm start`, run in the clone, reads. A relative DATA_DIR written in a .env file
 * is relative to that file's folder, so the same file names the same folder from anywhere.
 */
export function loadEnvFile(cwd = process.cwd(), root = installRoot()): void {
  const file = [path.join(cwd, '.env'), ...(root ? [path.join(root, '.env')] : [])].find((f) => fs.existsSync(f));
  if (!file) return;
  const given = process.env.DATA_DIR;
  process.loadEnvFile(file); // never replaces a variable already set
  const read = process.env.DATA_DIR;
  if (given === undefined && read && isFolderPath(read)) process.env.DATA_DIR = path.resolve(path.dirname(file), read);
}

/**
 * `--data-dir DIR` (or `--data-dir=DIR`), anywhere among the arguments: taken out of them and set as DATA_DIR
 * (resolved against the working directory, as any path typed on a command line), over the environment's.
 * Answers the other arguments.
 */
export function takeDataDirOption(argv: string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    const inline = a.startsWith('--data-dir=') ? a.slice('--data-dir='.length) : undefined;
    if (a !== '--data-dir' && inline === undefined) {
      rest.push(a);
      continue;
    }
    const value = inline ?? argv[++i];
    if (!value) throw new DataDirOptionError('--data-dir needs a folder: --data-dir DIR');
    env.DATA_DIR = isFolderPath(value) ? path.resolve(value) : value;
  }
  return rest;
}

export class DataDirOptionError extends Error {}

/**
 * Without DATA_DIR (and without DATABASE_URL), the embedded database lives in the installation's `data` folder
 * (the clone's ./data, /app/data in the image), from whatever folder the command runs: the same folder
 * `npm start` uses. Without a known installation, ./data as before.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, root = installRoot()): void {
  if (env.DATA_DIR !== undefined || env.DATABASE_URL?.trim() || !root) return;
  env.DATA_DIR = path.join(root, 'data');
}

/**
 * A command that works on existing data (user and token commands, options, import, import-from) never creates
 * a database: on an embedded folder that holds none, it stops with the folder it looked at. Only `serve` and
 * `migrate` create one. Nothing to check on PostgreSQL or in memory.
 */
export function refuseMissingData(env: NodeJS.ProcessEnv = process.env): void {
  const folder = embeddedDataDir(env);
  if (!folder || isInitialised(folder)) return;
  throw new StartupError(
    `No database in ${path.resolve(folder)}: start the server there once (npm start) or run \`addon-pair migrate\`, ` +
      'or name the folder the server uses with DATA_DIR or --data-dir.',
  );
}

/** A folder on disk, not the in-memory database's `memory://`. */
const isFolderPath = (dir: string) => dir.trim() !== '' && !dir.includes('://');
