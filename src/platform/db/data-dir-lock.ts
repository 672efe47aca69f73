import fs from 'node:fs';
import path from 'node:path';
import { StartupError } from '../startup-error.ts';

/**
 * PGlite has no lock on its data directory, and two processes on one directory corrupt it
 * (engineering notes B.5). We hold `addon-pair.lock` holding our pid; a second process stops at once.
 * A lock left by a dead process (crash, kill -9) is taken over.
 */
export class DataDirLockedError extends StartupError {}

const lockFile = (dir: string) => path.join(dir, 'addon-pair.lock');

/**
 * The pid of another live process that holds the folder's lock, if any: the command line hands its user and
 * token commands to that server (src/cli/command-socket.client.ts) instead of opening the database beside it.
 * Only `node:` modules here, so the check costs no loading.
 */
export function lockHolder(dir: string): number | undefined {
  let owner: number;
  try {
    owner = Number(fs.readFileSync(lockFile(dir), 'utf8').trim());
  } catch {
    return undefined;
  }
  return Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner) ? owner : undefined;
}

export function lockDataDir(dir: string): () => void {
  const file = lockFile(dir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = lockHolder(dir);
      if (owner !== undefined) {
        throw new DataDirLockedError(
          `The data directory ${dir} is in use by another addon-pair process (pid ${owner}): stop that server first ` +
            '(the embedded database serves one process; meanwhile the user and token commands and the REST API reach it), or use PostgreSQL (DATABASE_URL) to run several processes.',
        );
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
