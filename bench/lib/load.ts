// Parent side of the load generator: spawns bench/load-worker.ts in its own
// process and reads its single JSON line back.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { LoadConfig, LoadResult, MultiLoadConfig, MultiLoadResult, PairedLoadConfig, PairedLoadResult, RequestSpec } from './types.ts';

export function toLoadConfig(
  baseUrl: string,
  request: RequestSpec,
  options: { connections: number; durationSec: number; warmupSec: number; serverPid?: number },
): LoadConfig {
  const headers: Record<string, string> = { ...request.headers };
  let body: string | undefined;
  if (typeof request.body === 'string') body = request.body;
  else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }
  return { url: baseUrl + request.path, method: request.method, headers, body, ...options };
}

export function runLoad(benchDir: string, config: LoadConfig): Promise<LoadResult> {
  // Generous guard: warm-up + settling (≤ 60 s) + run + tsx start-up + autocannon's request time-out.
  return runWorker<LoadResult>(benchDir, config, config.warmupSec + config.durationSec + 120);
}

export function runPairedLoad(benchDir: string, config: PairedLoadConfig): Promise<PairedLoadResult> {
  const { rounds, roundSec } = config;
  const sides = [config.scenario, config.baseline, ...(config.others ?? [])];
  const warmups = sides.reduce((n, s) => n + s.warmupSec, 0);
  const settling = sides.length * rounds * 60;
  return runWorker<PairedLoadResult>(benchDir, config, warmups + sides.length * rounds * roundSec + settling + 120);
}

/** Every target at once (bench/lib/cluster.ts); `onStarted` is called when the warm-up ends and measuring begins. */
export function runMultiLoad(benchDir: string, config: MultiLoadConfig, onStarted: () => void): Promise<MultiLoadResult> {
  return runWorker<MultiLoadResult>(benchDir, config, config.warmupSec + config.durationSec + 120, (line) => {
    if (line.includes('"started":true')) onStarted();
  });
}

async function runWorker<T>(
  benchDir: string,
  config: LoadConfig | PairedLoadConfig | MultiLoadConfig,
  limitSec: number,
  onLine?: (line: string) => void,
): Promise<T> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(benchDir, 'load-worker.ts'), JSON.stringify(config)],
    {
      cwd: join(benchDir, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const before = stdout.length;
    stdout += chunk.toString('utf8');
    if (!onLine) return;
    // Whole lines completed by this chunk (the worker writes one JSON object per line).
    const start = stdout.lastIndexOf('\n', before - 1) + 1;
    const end = stdout.lastIndexOf('\n');
    if (end >= start) for (const line of stdout.slice(start, end).split('\n')) if (line) onLine(line);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));

  const timer = setTimeout(() => child.kill('SIGKILL'), limitSec * 1000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => resolve(exitCode));
  }).finally(() => clearTimeout(timer));

  const line = stdout.trim().split('\n').pop();
  if (code !== 0 || !line) {
    throw new Error(`load worker failed (exit ${code}): ${stderr.trim() || stdout.trim() || 'no output'}`);
  }
  return JSON.parse(line) as T;
}
