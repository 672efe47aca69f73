// What a process test of an attack watches while it runs (docs/security.md): the server's resident memory (VmRSS
// from /proc, sampled every 50 ms) and how long GET /status takes, asked every 100 ms by a process of its own, so
// that the test's own work (building and sending the attack) cannot delay the probe.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { expect } from 'vitest';
import type { ServerProcess } from './server-process.ts';

/** GET /status every 100 ms, printing how long each took (ms), one a line. */
const PROBE = `
const url = process.argv[1] + '/status';
(async () => {
  for (;;) {
    const started = Date.now();
    try { await (await fetch(url)).arrayBuffer(); } catch { }
    process.stdout.write(String(Date.now() - started) + '\\n');
    await new Promise((r) => setTimeout(r, 100));
  }
})();`;

/** The resident memory of a process, in bytes. */
export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}

export interface Watched {
  /** The highest RSS sampled. */
  rss: number;
  slowestStatus: number;
  p95Status: number;
}

/** Samples the server's RSS and the time /status takes while `attack` runs. */
export async function watch(server: ServerProcess, attack: () => Promise<void>): Promise<Watched> {
  let peak = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      peak = Math.max(peak, rssOf(server.child.pid!));
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const prober = spawn(process.execPath, ['-e', PROBE, server.url], { stdio: ['ignore', 'pipe', 'inherit'] });
  let probes = '';
  prober.stdout.on('data', (d) => (probes += String(d)));
  // Its first request (a fresh process's) is its own warm-up: the attack starts once it has answered.
  while (!probes.includes('\n')) await new Promise((r) => setTimeout(r, 50));
  try {
    await attack();
  } finally {
    done = true;
    prober.kill();
    await Promise.all([sampler, new Promise((r) => prober.once('exit', r))]);
  }
  const times = probes.trim().split('\n').filter(Boolean).map(Number).slice(1);
  expect(times.length).toBeGreaterThan(3);
  console.log(`/status times (ms): ${times.join(' ')}`);
  const sorted = [...times].sort((a, b) => a - b);
  return { rss: peak, slowestStatus: sorted.at(-1)!, p95Status: sorted[Math.floor(sorted.length * 0.95)]! };
}
