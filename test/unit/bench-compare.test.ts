import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../bench/lib/args.ts';
import { COMPARE_MIN_RATIO, compareScenarios } from '../../bench/lib/compare.ts';
import { emptyResult } from '../../bench/lib/report.ts';
import { evaluateTarget } from '../../bench/lib/targets.ts';
import type { Scenario } from '../../bench/lib/types.ts';

const scenarios: Scenario[] = [
  {
    name: 'codeblock-e1-basic',
    request: { method: 'GET', path: '/e1' },
    expectStatus: 200,
    pairWithNginx: true,
    targets: [{ minRatioToExpress: 0.8 }, { minRatioToNginx: 1.0 }],
  },
  {
    name: 'fieldeditor-options-u4-demo-field',
    request: { method: 'GET', path: '/u4' },
    pairedRequest: { label: 'E1 with a token', request: () => ({ method: 'GET', path: '/e1' }) },
    targets: [{ minRatioToPaired: 0.8 }],
  },
  { name: 'metrics-on-codeblock-e1-bearer', request: { method: 'GET', path: '/e1' }, variant: { name: 'metrics-on', env: { METRICS_TOKEN: 'x' } }, targets: [{ minRatioToMain: 0.95 }] },
  { kind: 'latency', name: 'fieldeditor-options-create', call: async () => {}, targets: [{ maxMedianMs: 15 }] },
  {
    name: 'wrong-logins-1ps-codeblock-e1-basic',
    request: { method: 'GET', path: '/e1' },
    runOn: { name: 'login-defaults', env: { MAX_AUTH_ATTEMPTS: '3' } },
    alongside: { perSecond: 1, localAddress: '127.0.0.2' },
    pairedRequest: { label: 'E1 without the wrong logins', request: () => ({ method: 'GET', path: '/e1' }) },
    targets: [{ minRatioToPaired: 0.8 }],
  },
];

describe('bench --compare: two builds in turns', () => {
  it('reads the other build’s entry, and is off by default', () => {
    expect(parseArgs([]).compareEntry).toBeNull();
    expect(parseArgs(['--compare', '/tmp/after/dist/main.mjs', '--only', 'codeblock-e1']).compareEntry).toBe('/tmp/after/dist/main.mjs');
    expect(() => parseArgs(['--compare'])).toThrow(/--compare needs a server entry/);
  });

  it('gives the compared server alone the environment of --compare-env (repeatable, the last value wins)', () => {
    expect(parseArgs([]).compareEnv).toEqual({});
    const options = parseArgs(['--compare', '/a.mjs', '--compare-env', 'RATE_LIMITS=on', '--compare-env', 'X=a=b', '--compare-env', 'X=c=d', '--compare-env', 'EMPTY=']);
    expect(options.compareEnv).toEqual({ RATE_LIMITS: 'on', X: 'c=d', EMPTY: '' });
    expect(() => parseArgs(['--compare-env'])).toThrow(/--compare-env needs KEY=VALUE/);
    expect(() => parseArgs(['--compare-env', 'RATE_LIMITS'])).toThrow(/--compare-env needs KEY=VALUE/);
    expect(() => parseArgs(['--compare-env', '=off'])).toThrow(/--compare-env needs KEY=VALUE/);
    const compared = compareScenarios(scenarios, '/a.mjs', options.compareEnv);
    expect(compared.map((s) => (s.kind === 'latency' ? null : s.variant))).toEqual([
      { name: 'compare', env: { RATE_LIMITS: 'on', X: 'c=d', EMPTY: '' }, entry: '/a.mjs' },
      { name: 'compare', env: { RATE_LIMITS: 'on', X: 'c=d', EMPTY: '' }, entry: '/a.mjs' },
    ]);
    // Each scenario has its own copy: the servers are started from it, not from the options.
    const first = compared[0]!;
    expect(first.kind === 'latency' ? null : first.variant?.env).not.toBe(options.compareEnv);
  });

  it('measures each HTTP scenario on the other build against the main server, with the 10 % checks (rate and cost) as its targets', () => {
    const compared = compareScenarios(scenarios, '/tmp/after/dist/main.mjs');
    expect(compared.map((s) => s.name)).toEqual(['codeblock-e1-basic', 'fieldeditor-options-u4-demo-field']);
    expect(COMPARE_MIN_RATIO).toBe(0.9);
    for (const s of compared) {
      expect(s.kind).toBeUndefined();
      if (s.kind === 'latency') continue;
      expect(s.variant).toEqual({ name: 'compare', env: {}, entry: '/tmp/after/dist/main.mjs' });
      expect(s.targets).toEqual([{ minRatioToMain: 0.9 }, { minCpuRatioToMain: 0.9 }]);
      // Their third sides (nginx, a paired request) belong to a one-build run.
      expect(s.pairWithNginx).toBeUndefined();
      expect(s.pairedRequest).toBeUndefined();
    }
    // The request and its expected status are the scenario's own.
    expect(compared[0]).toMatchObject({ request: { method: 'GET', path: '/e1' }, expectStatus: 200 });
    // The scenarios of the run are left as they were.
    expect(scenarios[0]!.targets).toHaveLength(2);
  });

  it('checks the cost per server CPU second against the main server, and skips it without CPU figures', () => {
    const result = { ...emptyResult('codeblock-e1-basic', 'http' as const), requestsPerSec: 900, ratioToMain: 0.8, cpuRatioToMain: 0.95 };
    expect(evaluateTarget({ minRatioToMain: 0.9 }, result, new Map())).toMatchObject({ verdict: 'FAIL', detail: '0.80×' });
    expect(evaluateTarget({ minCpuRatioToMain: 0.9 }, result, new Map())).toMatchObject({ verdict: 'PASS', detail: '0.95×' });
    expect(evaluateTarget({ minCpuRatioToMain: 0.9 }, { ...result, cpuRatioToMain: null }, new Map()).verdict).toBe('SKIP');
  });
});
