import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startBaseline } from '../../bench/lib/baselines.ts';
import { emptyResult, renderMarkdownSection, renderStaticTable } from '../../bench/lib/report.ts';
import { STATIC_SIDES, staticSideResults, TARGET_NGINX_SIDE, type StaticSide } from '../../bench/lib/static-sides.ts';
import type { LoadResult, PairedSide, ScenarioResult } from '../../bench/lib/types.ts';

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

const side = (rates: number[], over: Partial<LoadResult> = {}): PairedSide => {
  const rounds = rates.map((r) => round(r));
  const total = rates.reduce((a, b) => a + b, 0);
  return { rounds, combined: round(total / rates.length, { totalRequests: total, durationSec: rates.length, ...over }) };
};

// Only the id, label and whether it ran matter to the results; a RunningChild is never touched.
const up = (i: number): StaticSide => ({ ...STATIC_SIDES[i]!, server: {} as never, request: { method: 'GET', path: '/body' } });
const skipped = (i: number): StaticSide => ({ ...STATIC_SIDES[i]!, skipped: 'nginx baseline skipped: /usr/sbin/nginx not found (install: …)' });

describe('bench: the servers of the same bytes', () => {
  it('measures nginx with apr1, with {SHA} and without auth, then bare node:http, and aims the nginx target at apr1', () => {
    expect(STATIC_SIDES.map((s) => [s.id, s.nginx ?? 'node:http'])).toEqual([
      ['nginx-apr1', 'apr1'],
      ['nginx-sha', 'sha'],
      ['nginx-none', 'none'],
      ['node-http-body', 'node:http'],
    ]);
    expect(TARGET_NGINX_SIDE).toBe('nginx-apr1');
  });

  it("gives each side the median of the scenario's per-round ratios to it, in the order of the sides", () => {
    const scenario = [round(600), round(60), round(660)];
    const results = staticSideResults([up(0), up(1), up(2), up(3)], scenario, [
      side([400, 400, 440]),
      side([1200, 1200, 1320]),
      side([1500, 1500, 1650]),
      side([1200, 100, 1320]),
    ]);
    expect(results.map((r) => [r.id, r.ratio])).toEqual([
      ['nginx-apr1', 1.5],
      ['nginx-sha', 0.5],
      ['nginx-none', 0.4],
      ['node-http-body', 0.5],
    ]);
    // A round in which the machine stalled one side (0.6 here) shows in the per-round ratios, not in the median.
    expect(results[3]!.roundRatios).toEqual([0.5, 0.6, 0.5]);
    expect(results[0]!.requestsPerSec).toBeCloseTo(413.33, 2);
    // Without CPU figures (no /proc) there is no cost ratio.
    expect(results[0]!.cpuRatio).toBeNull();
  });

  it('keeps a skipped nginx side with its reason and pairs the measured ones with their own rounds', () => {
    const results = staticSideResults([skipped(0), skipped(1), skipped(2), up(3)], [round(500)], [side([1000])]);
    expect(results.slice(0, 3).map((r) => [r.id, r.ratio, r.requestsPerSec])).toEqual([
      ['nginx-apr1', null, null],
      ['nginx-sha', null, null],
      ['nginx-none', null, null],
    ]);
    expect(results[0]!.skipped).toContain('not found');
    expect(results[3]).toMatchObject({ id: 'node-http-body', ratio: 0.5, requestsPerSec: 1000, failed: 0 });
  });

  it('counts the requests a side failed or did not answer 2xx (nginx refusing the password)', () => {
    const [r] = staticSideResults([up(1)], [round(500)], [side([1000], { non2xx: 1000, errors: 2 })]);
    expect(r).toMatchObject({ failed: 1002, totalRequests: 1000 });
  });

  it('reports one row per scenario and server of the same bytes, in the console and in latest.md', () => {
    const e1: ScenarioResult = {
      ...emptyResult('codeblock-e1-basic', 'http'),
      requestsPerSec: 500,
      staticSides: staticSideResults([up(0), skipped(1), up(2), up(3)], [round(500), round(520)], [side([250, 260]), side([1000, 1040]), side([1000, 1000])]),
    };
    const table = renderStaticTable([{ ...emptyResult('bearer-myself', 'http') }, e1]);
    const rows = table.split('\n').filter((l) => l.startsWith('| codeblock-e1-basic'));
    expect(rows).toEqual([
      '| codeblock-e1-basic | nginx + auth_basic, apr1 | 255 | 2.00 | 2.00 2.00 | — |',
      '| codeblock-e1-basic | nginx + auth_basic, {SHA} | skipped | — | nginx baseline skipped: /usr/sbin/nginx not found (install: …) | — |',
      '| codeblock-e1-basic | nginx, no auth | 1020 | 0.50 | 0.50 0.50 | — |',
      '| codeblock-e1-basic | node:http, same bytes | 1000 | 0.51 | 0.50 0.52 | — |',
    ]);
    expect(renderStaticTable([{ ...emptyResult('bearer-myself', 'http') }])).toBe('');
    const meta = {
      startedAt: '2026-01-01T00:00:00.000Z',
      storage: 'postgres' as const,
      storageDetail: 'x',
      durationSec: 10,
      warmupSec: 5,
      rounds: 10,
      connections: 32,
      only: null,
      node: 'v22',
      cpu: 'cpu',
      cores: 2,
      loadAverage: 1,
      serverEntry: 'dist/main.mjs',
      serverEnv: {},
    };
    expect(renderMarkdownSection(meta, [e1])).toContain(rows[0]);
  });

  it('serves the bytes and content type it is given from bare node:http, on any path and whatever the headers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bench-static-sides-test-'));
    const body = Buffer.from('[host]\nname = a.example.org\n\u00e9\n');
    await writeFile(join(dir, 'body'), body);
    const server = await startBaseline(join(import.meta.dirname, '../../bench'), 'node-http-body.ts', 'test body', {
      BENCH_BODY_FILE: join(dir, 'body'),
      BENCH_CONTENT_TYPE: 'text/plain; charset=utf-8',
    });
    try {
      const res = await fetch(`${server.baseUrl}/anything?x=1`, { headers: { authorization: 'Basic YWRtaW46eA==' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
