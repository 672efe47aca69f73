// Runner for `kind: 'latency'` scenarios: one call at a time, timed individually.
// Runs in the orchestrator process; with no concurrent load there is nothing for
// the timing code to compete with, so no separate process is needed.
import type { BenchContext, LatencyScenario } from './types.ts';

export interface LatencyResult {
  iterations: number;
  medianMs: number;
  p90Ms: number;
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
    p90Ms: percentile(sorted, 90),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? 0,
    callsPerSec: seconds > 0 ? times.length / seconds : 0,
  };
}

/**
 * Two callers call for call in alternating order (`b` first in even rounds: A B, B A, …), after as many warm-up
 * calls of each, so that a machine that slows down for a while slows both alike: each one's time per call.
 */
async function inTurns(
  a: (i: number) => Promise<void>,
  b: (i: number) => Promise<void>,
  iterations: number,
  warmup: number,
): Promise<{ a: number[]; b: number[] }> {
  for (let i = 0; i < warmup; i++) {
    await b(-1 - i);
    await a(-1 - i);
  }
  const timed = async (f: (i: number) => Promise<void>, i: number) => {
    const t0 = performance.now();
    await f(i);
    return performance.now() - t0;
  };
  const times = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < iterations; i++) {
    if (i % 2 === 0) {
      times.b.push(await timed(b, i));
      times.a.push(await timed(a, i));
    } else {
      times.a.push(await timed(a, i));
      times.b.push(await timed(b, i));
    }
  }
  return times;
}

const ownSeconds = (times: readonly number[]) => times.reduce((sum, t) => sum + t, 0) / 1000;

/**
 * `scenario` and `partner` call for call, in turns (`inTurns`, partner first in even rounds): the scenario's own
 * figures, and each round's ratio of the partner's time to the scenario's (above 1: the scenario is the faster).
 */
export async function runLatencyInTurns(scenario: LatencyScenario, partner: LatencyScenario, ctx: BenchContext): Promise<LatencyResult & { roundRatios: number[] }> {
  const times = await inTurns((i) => scenario.call(ctx, i), (i) => partner.call(ctx, i), scenario.iterations ?? 200, scenario.warmupIterations ?? 10);
  return { ...summary(times.a, ownSeconds(times.a)), roundRatios: times.a.map((own, i) => times.b[i]! / own) };
}

/**
 * `--compare` (bench/lib/compare.ts): the same scenario on two servers, call for call in turns (`inTurns`, the
 * second server first in even rounds), each with its own setup and state (`main` and `other` contexts).
 */
export async function runLatencyOnTwoServers(scenario: LatencyScenario, main: BenchContext, other: BenchContext): Promise<{ main: LatencyResult; other: LatencyResult }> {
  const times = await inTurns((i) => scenario.call(main, i), (i) => scenario.call(other, i), scenario.iterations ?? 200, scenario.warmupIterations ?? 10);
  return { main: summary(times.a, ownSeconds(times.a)), other: summary(times.b, ownSeconds(times.b)) };
}
