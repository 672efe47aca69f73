// Runner for `kind: 'latency'` scenarios: one call at a time, timed individually.
// Runs in the orchestrator process; with no concurrent load there is nothing for
// the timing code to compete with, so no separate process is needed.
import type { BenchContext, LatencyScenario } from './types.ts';

export interface LatencyResult {
  iterations: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
  callsPerSec: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? 0;
}

export async function runLatency(scenario: LatencyScenario, ctx: BenchContext): Promise<LatencyResult> {
  const iterations = scenario.iterations ?? 200;
  const warmup = scenario.warmupIterations ?? 10;
  for (let i = 0; i < warmup; i++) await scenario.call(ctx, -1 - i);

  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await scenario.call(ctx, i);
    times.push(performance.now() - t0);
  }
  const elapsedSec = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    iterations,
    medianMs: percentile(times, 50),
    p99Ms: percentile(times, 99),
    maxMs: times[times.length - 1] ?? 0,
    callsPerSec: elapsedSec > 0 ? iterations / elapsedSec : 0,
  };
}
