import fs from 'node:fs';
import path from 'node:path';
import { StartupError } from '../startup-error.ts';

/**
 * PGlite has no lock on its data directory, and two processes on one directory corrupt it
 * (engineering notes B.5). We hold `addon-pair.lock` holding our pid; a second process stops at once.
 * A lock left by a dead process (crash, kill -9) is taken over.
 */
export class DataDirLockedError extends StartupError {}

export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'addon-pair.lock');
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
      const owner = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new DataDirLockedError(
          `The data directory ${dir} is in use by another addon-pair process (pid ${owner}): stop that server first ` +
            '(the embedded database serves one process; meanwhile use the REST API), or use PostgreSQL (DATABASE_URL) to run several processes.',
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
