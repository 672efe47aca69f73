// Peak resident memory of a child process, sampled from /proc/<pid>/status (VmRSS).
// Sampling from outside keeps the server unmodified and works for any process;
// 200 ms is frequent enough for a 10 s run and costs nothing measurable.
import { readFileSync } from 'node:fs';

export function readRssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match?.[1] ? Number(match[1]) / 1024 : null;
  } catch {
    // Process gone, or no /proc (not Linux): report "unknown" rather than fail the run.
    return null;
  }
}

export interface RssSampler {
  /** Stops sampling and returns the peak in MB, or null if nothing could be read. */
  stop(): number | null;
}

export function sampleRss(pid: number, intervalMs = 200): RssSampler {
  let peak: number | null = null;
  const sample = (): void => {
    const mb = readRssMb(pid);
    if (mb !== null && (peak === null || mb > peak)) peak = mb;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
