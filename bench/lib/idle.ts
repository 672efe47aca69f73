// Waits until a process stops burning CPU. When autocannon stops, the requests it
// abandoned are still queued in the server: a slow endpoint, such as a wrong password
// that costs a full scrypt hash, can keep the server busy for many seconds. Without this
// wait, that backlog would be counted in the next measured window, or in the next scenario.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** utime + stime of all threads, in clock ticks (USER_HZ, 100 on Linux), or null without /proc. */
export function cpuTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces, so split after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of the whole line are fields 12 and 13 (1-based) after the name.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

export const TICKS_PER_SEC = 100;

/** The CPU time `pid` has used so far (all threads, user and system), in seconds; null without /proc. */
export function cpuSeconds(pid: number): number | null {
  const ticks = cpuTicks(pid);
  return ticks === null ? null : ticks / TICKS_PER_SEC;
}

/**
 * Resolves when `pid` used under `maxCpuShare` of one core over a `windowMs` window,
 * or after `timeoutMs`. Returns the time waited in ms (or -1 on time-out).
 */
export async function waitForIdle(
  pid: number,
  { windowMs = 500, maxCpuShare = 0.1, timeoutMs = 60_000 } = {},
): Promise<number> {
  const started = Date.now();
  let previous = cpuTicks(pid);
  if (previous === null) return 0;
  while (Date.now() - started < timeoutMs) {
    await sleep(windowMs);
    const now = cpuTicks(pid);
    if (now === null) return 0;
    const share = (now - previous) / TICKS_PER_SEC / (windowMs / 1000);
    if (share <= maxCpuShare) return Date.now() - started;
    previous = now;
  }
  return -1;
}
