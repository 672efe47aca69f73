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
  return summary(times, (performance.now() - started) / 1000);
}

/** The figures of `times` (one per call, in ms), called over `seconds`. */
function summary(times: number[], seconds: number): LatencyResult {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    iterations: times.length,
    medianMs: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? 0,
    callsPerSec: seconds > 0 ? times.length / seconds : 0,
  };
}

/**
 * `scenario` and `partner` call for call, in alternating order (partner first in even rounds), after as many
 * warm-up calls of each: the scenario's own figures, and each round's ratio of the partner's time to the
 * scenario's (above 1: the scenario is the faster).
 */
export async function runLatencyInTurns(scenario: LatencyScenario, partner: LatencyScenario, ctx: BenchContext): Promise<LatencyResult & { roundRatios: number[] }> {
  const iterations = scenario.iterations ?? 200;
  const warmup = scenario.warmupIterations ?? 10;
  for (let i = 0; i < warmup; i++) {
    await partner.call(ctx, -1 - i);
    await scenario.call(ctx, -1 - i);
  }
  const times: number[] = [];
  const roundRatios: number[] = [];
  let ownSec = 0;
  const timed = async (s: LatencyScenario, i: number) => {
    const t0 = performance.now();
    await s.call(ctx, i);
    return performance.now() - t0;
  };
  for (let i = 0; i < iterations; i++) {
    let own: number;
    let other: number;
    if (i % 2 === 0) {
      other = await timed(partner, i);
      own = await timed(scenario, i);
    } else {
      own = await timed(scenario, i);
      other = await timed(partner, i);
    }
    times.push(own);
    ownSec += own / 1000;
    roundRatios.push(other / own);
  }
  return { ...summary(times, ownSec), roundRatios };
}
