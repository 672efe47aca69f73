// One benchmark at a time per machine. Two runs at once would each take a core from the
// other and both report nonsense, and several people run `npm run bench` in this tree.
import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const LOCK_PATH = join(tmpdir(), 'addon-pair-bench.lock');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else, so it is alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryTake(): boolean {
  try {
    const fd = openSync(LOCK_PATH, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  }
}

function holder(): number | null {
  try {
    const pid = Number(readFileSync(LOCK_PATH, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Waits (up to `timeoutMs`) until no other bench run holds the lock, then takes it.
 * A lock whose process is gone is stale and is taken over. Returns the release function.
 */
export async function acquireRunLock(timeoutMs = 30 * 60_000): Promise<() => void> {
  const deadline = Date.now() + timeoutMs;
  let announced = false;
  while (!tryTake()) {
    let pid = holder();
    if (pid === null) {
      // The holder may be between creating the file and writing its pid.
      await sleep(500);
      pid = holder();
    }
    if (pid === null || !alive(pid)) {
      rmSync(LOCK_PATH, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another bench run (pid ${pid}) still holds ${LOCK_PATH}`);
    if (!announced) console.log(`waiting for another bench run (pid ${pid}) to finish…`);
    announced = true;
    await sleep(2000);
  }
  const release = (): void => {
    if (holder() === process.pid) rmSync(LOCK_PATH, { force: true });
  };
  process.once('exit', release);
  return release;
}
