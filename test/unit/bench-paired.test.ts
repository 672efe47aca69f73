import { describe, expect, it } from 'vitest';
import { median, roundRatios, scenarioFirst } from '../../bench/lib/paired.ts';
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
});
