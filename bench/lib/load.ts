// Parent side of the load generator: spawns bench/load-worker.ts in its own
// process and reads its single JSON line back.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { LoadConfig, LoadResult, PairedLoadConfig, PairedLoadResult, RequestSpec } from './types.ts';

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

async function runWorker<T>(benchDir: string, config: LoadConfig | PairedLoadConfig, limitSec: number): Promise<T> {
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
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
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
