import { describe, expect, it } from 'vitest';
import { onlyMatches, parseArgs } from '../../bench/lib/args.ts';
import { COMPARE_MIN_RATIO, compareScenarios } from '../../bench/lib/compare.ts';
import { runLatencyOnTwoServers } from '../../bench/lib/latency.ts';
import { emptyResult, renderBuildsTable } from '../../bench/lib/report.ts';
import { evaluateTarget } from '../../bench/lib/targets.ts';
import type { BenchContext, LatencyScenario, Scenario } from '../../bench/lib/types.ts';

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
    kind: 'latency',
    name: 'fieldeditor-options-create-4-writers',
    call: async () => {},
    inTurnsWith: { kind: 'latency', name: 'floor', call: async () => {}, targets: [] },
    targets: [{ minRatioToPaired: 0.5 }],
  },
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
    const variant = { name: 'compare', env: { RATE_LIMITS: 'on', X: 'c=d', EMPTY: '' }, entry: '/a.mjs' };
    expect(compared.map((s) => s.variant)).toEqual([variant, variant, variant, variant]);
    // Each scenario has its own copy: the servers are started from it, not from the options.
    const first = compared[0]!;
    expect(first.kind === 'latency' ? null : first.variant?.env).not.toBe(options.compareEnv);
  });

  it('measures each HTTP scenario on the other build against the main server, with the 10 % checks (rate and cost) as its targets', () => {
    const compared = compareScenarios(scenarios, '/tmp/after/dist/main.mjs').flatMap((s) => (s.kind === 'latency' ? [] : [s]));
    expect(compared.map((s) => s.name)).toEqual(['codeblock-e1-basic', 'fieldeditor-options-u4-demo-field']);
    expect(COMPARE_MIN_RATIO).toBe(0.9);
    for (const s of compared) {
      expect(s.kind).toBeUndefined();
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

  it('measures each latency scenario on both builds, without its partner, with the 10 % check of rates as its target', () => {
    const compared = compareScenarios(scenarios, '/tmp/after/dist/main.mjs').filter((s) => s.kind === 'latency');
    expect(compared.map((s) => s.name)).toEqual(['fieldeditor-options-create', 'fieldeditor-options-create-4-writers']);
    for (const s of compared) {
      expect(s.variant).toEqual({ name: 'compare', env: {}, entry: '/tmp/after/dist/main.mjs' });
      expect(s.targets).toEqual([{ minRatioToMain: 0.9 }]);
      // Its partner (the floor, another request) belongs to a one-build run: the other build is the partner now.
      expect(s.kind === 'latency' && s.inTurnsWith).toBeFalsy();
    }
    expect(parseArgs([]).iterations).toBeNull();
    expect(parseArgs(['--iterations', '20']).iterations).toBe(20);
    expect(() => parseArgs(['--iterations', '0'])).toThrow(/--iterations needs a positive number/);
    // `=name` selects that scenario alone, not the 4-writer and 1000-option ones its name starts.
    const only = '=fieldeditor-options-create,=fieldeditor-options-move,rename';
    const names = ['fieldeditor-options-create', 'fieldeditor-options-create-4-writers', 'fieldeditor-options-move', 'fieldeditor-options-move-4-writers', 'fieldeditor-options-rename-4-writers'];
    expect(names.filter((n) => onlyMatches(only, n))).toEqual(['fieldeditor-options-create', 'fieldeditor-options-move', 'fieldeditor-options-rename-4-writers']);
  });

  it('alternates a latency scenario’s calls between the two servers (A B, B A, …), each with its own context, and reports both builds', async () => {
    const calls: string[] = [];
    const main = { baseUrl: 'main' } as BenchContext;
    const other = { baseUrl: 'other' } as BenchContext;
    const scenario: LatencyScenario = {
      kind: 'latency',
      name: 'fieldeditor-options-create',
      iterations: 4,
      warmupIterations: 1,
      targets: [],
      call: async (ctx, i) => void calls.push(`${ctx.baseUrl}${i}`),
    };
    const figures = await runLatencyOnTwoServers(scenario, main, other);
    expect(calls).toEqual(['other-1', 'main-1', 'other0', 'main0', 'main1', 'other1', 'other2', 'main2', 'main3', 'other3']);
    expect(figures.main.iterations).toBe(4);
    expect(figures.other.iterations).toBe(4);
    expect(figures.main.p90Ms).toBeGreaterThanOrEqual(figures.main.medianMs);

    const result = {
      ...emptyResult('fieldeditor-options-create', 'latency' as const),
      totalRequests: 4,
      ratioToMain: 2 / 2.5,
      builds: { main: { p50Ms: 2, p90Ms: 3 }, compared: { p50Ms: 2.5, p90Ms: 4 } },
    };
    expect(evaluateTarget({ minRatioToMain: 0.9 }, result, new Map())).toMatchObject({ verdict: 'FAIL', detail: '0.80×' });
    result.checks.push(evaluateTarget({ minRatioToMain: 0.9 }, result, new Map()));
    expect(renderBuildsTable([result]).split('\n').at(-1)).toBe('| fieldeditor-options-create | 4 | 2.00 | 3.00 | 2.50 | 4.00 | 0.80 | **FAIL** (1) |');
    expect(renderBuildsTable([emptyResult('x', 'latency')])).toBe('');
  });

  it('checks the cost per server CPU second against the main server, and skips it without CPU figures', () => {
    const result = { ...emptyResult('codeblock-e1-basic', 'http' as const), requestsPerSec: 900, ratioToMain: 0.8, cpuRatioToMain: 0.95 };
    expect(evaluateTarget({ minRatioToMain: 0.9 }, result, new Map())).toMatchObject({ verdict: 'FAIL', detail: '0.80×' });
    expect(evaluateTarget({ minCpuRatioToMain: 0.9 }, result, new Map())).toMatchObject({ verdict: 'PASS', detail: '0.95×' });
    expect(evaluateTarget({ minCpuRatioToMain: 0.9 }, { ...result, cpuRatioToMain: null }, new Map()).verdict).toBe('SKIP');
  });
});
