import { describe, expect, it } from 'vitest';
import { cpuRoundRatios, finiteMedian, median, roundOrder, roundRatios, scenarioFirst } from '../../bench/lib/paired.ts';
import type { LoadResult } from '../../bench/lib/types.ts';

const round = (requests: number, over: Partial<LoadResult> = {}): LoadResult => ({
  requestsPerSec: requests,
  totalRequests: requests,
  durationSec: 1,
  latencyP50Ms: 2,
  latencyP99Ms: 10,
  latencyMaxMs: 20,
  errors: 0,
  timeouts: 0,
  non2xx: 0,
  statusCodes: { '200': requests },
  settleAfterWarmupMs: 0,
  ...over,
});

describe('paired bench rounds', () => {
  it('alternates the order of the pair from round to round', () => {
    expect([0, 1, 2, 3].map(scenarioFirst)).toEqual([true, false, true, false]);
  });

  it('gives each round the ratio of its own two measurements, and their median is robust to one stalled round', () => {
    const ratios = roundRatios([round(600), round(70), round(660)], [round(1000), round(1000), round(1100)]);
    expect(ratios).toEqual([0.6, 0.07, 0.6]);
    expect(median(ratios)).toBe(0.6);
    expect(median([1, 2, 3, 4])).toBe(2.5);
  });

  it('runs every side once a round, forward then backward, so that with six sides each one’s mean place is the same', () => {
    // The scenario, Express, nginx apr1, nginx {SHA}, nginx without auth, node:http with the same bytes.
    const rounds = [0, 1, 2, 3].map((r) => roundOrder(r, 6));
    expect(rounds[0]).toEqual([0, 1, 2, 3, 4, 5]);
    expect(rounds[1]).toEqual([5, 4, 3, 2, 1, 0]);
    expect(rounds[2]).toEqual(rounds[0]);
    for (const order of rounds) expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    // A steady drift over a pair of rounds hits every side alike: each side's places add up to the same.
    const placeSums = [0, 1, 2, 3, 4, 5].map((side) => rounds[0]!.indexOf(side) + rounds[1]!.indexOf(side));
    expect(new Set(placeSums)).toEqual(new Set([5]));
  });

  it('keeps the two- and three-side orders (A B, B A; A B C, C B A)', () => {
    expect([0, 1].map((r) => roundOrder(r, 2))).toEqual([[0, 1], [1, 0]]);
    expect([0, 1].map((r) => roundOrder(r, 3))).toEqual([[0, 1, 2], [2, 1, 0]]);
  });

  it('compares requests per server CPU second round by round, and leaves a round without CPU figures out of the median', () => {
    // Round 2: the machine took the CPU away from the first side (a third of its rate), but each request cost it the same.
    const a = [round(600, { serverCpuSec: 0.5 }), round(200, { serverCpuSec: 0.5 / 3 }), round(660, { serverCpuSec: 0.55 })];
    const b = [round(1000, { serverCpuSec: 0.5 }), round(1000, { serverCpuSec: 0.5 }), round(1000)];
    expect(roundRatios(a, b).map((x) => +x.toFixed(2))).toEqual([0.6, 0.2, 0.66]);
    const cpu = cpuRoundRatios(a, b);
    expect(cpu.slice(0, 2).map((x) => +x.toFixed(6))).toEqual([0.6, 0.6]);
    expect(cpu[2]).toBeNaN();
    expect(finiteMedian(cpu)).toBeCloseTo(0.6, 6);
    expect(finiteMedian([Number.NaN])).toBeNull();
  });
});
