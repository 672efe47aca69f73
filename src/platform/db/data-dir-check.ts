import fs from 'node:fs';
import path from 'node:path';
import { StartupError } from '../startup-error.ts';

// Only `node:` modules: the command line checks DATA_DIR before it loads Express, knex or PGlite, so that a
// folder it cannot use fails within a second (issue 14), not after seconds of loading.

export function isInitialised(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'PG_VERSION'));
}

/**
 * Checks the folder the way a person would want to hear about it, before PGlite gets it: PGlite itself
 * hangs or prints a WebAssembly stack on a file, a folder it cannot write, or one under /proc.
 */
export function checkDataDir(dir: string): void {
  const fix = 'set DATA_DIR to a folder this user may write, or fix its permissions';
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') throw new StartupError(`DATA_DIR ${dir} lies under a file, not a folder: ${fix}.`);
    if (code !== 'ENOENT') throw new StartupError(`DATA_DIR ${dir} cannot be read (${code}): ${fix}.`);
  }
  if (stat && !stat.isDirectory()) throw new StartupError(`DATA_DIR ${dir} is a file, not a folder: ${fix}.`);
  try {
    makeDirectory(dir);
    fs.accessSync(dir, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
    const probe = path.join(dir, `.write-test-${process.pid}`);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new StartupError(`DATA_DIR ${dir} cannot be created or written (${code}): ${fix}.`);
  }
  if (isInitialised(dir)) {
    try {
      fs.readdirSync(path.join(dir, 'base'));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      throw new StartupError(`DATA_DIR ${dir} holds a database this user cannot read (${code}): ${fix}.`);
    }
  }
}

/**
 * `mkdir -p` without Node's `recursive: true`, which loops for ever on a path under /proc (measured: a
 * `DATA_DIR=/proc/forbidden` start hung with no output). Creates the missing levels one by one.
 */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  while (!fs.existsSync(at)) {
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const level of missing) fs.mkdirSync(level);
}
