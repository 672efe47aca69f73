// Helpers for a paired measurement (see measurePaired in run.ts): the scenario and the Express baseline
// take turns in short rounds, so that both see the same machine. On this shared VM the speed of the whole
// machine drifts by tens of percent within a minute; one baseline taken before the scenario still compares
// two different machines.
import type { LoadResult } from './types.ts';

/** Order of the pair in round `i`: A B, B A, A B, … so that a steady drift hits both sides alike. */
export const scenarioFirst = (round: number): boolean => round % 2 === 0;

/**
 * The order of `sides` sides (0 = the scenario) in round `i`: forward in even rounds, backward in odd ones
 * (A B C, C B A, A B C, …). With two sides it is scenarioFirst's A B, B A; with three (scenario, Express,
 * nginx) the two outer sides take turns at the front, and a steady drift still hits every side alike.
 */
export function roundOrder(round: number, sides: number): number[] {
  const forward = Array.from({ length: sides }, (_, i) => i);
  return scenarioFirst(round) ? forward : forward.reverse();
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * Each round's requests per server CPU second of one side over the other's (NaN where a round has no CPU
 * figure). What a request costs the server moves much less with a busy machine than what it gets done per
 * second: other processes take the CPU away from both sides, but not in the same share from round to round.
 */
export function cpuRoundRatios(scenario: readonly LoadResult[], other: readonly LoadResult[]): number[] {
  const perCpuSec = (r: LoadResult | undefined): number => (r?.serverCpuSec ? r.totalRequests / r.serverCpuSec : Number.NaN);
  return scenario.map((s, i) => perCpuSec(s) / perCpuSec(other[i]));
}

/** The median of the finite values, or null when there is none. */
export function finiteMedian(xs: readonly number[]): number | null {
  const finite = xs.filter(Number.isFinite);
  return finite.length > 0 ? median(finite) : null;
}

/** Each round's scenario rate over its Express rate: their spread shows how noisy the run was. */
export function roundRatios(scenario: readonly LoadResult[], express: readonly LoadResult[]): number[] {
  return scenario.map((s, i) => {
    const e = express[i];
    return e && e.requestsPerSec > 0 ? s.requestsPerSec / e.requestsPerSec : Number.NaN;
  });
}
