import { describe, expect, it } from 'vitest';
import { scaleChecks, type ScaleStep } from '../../bench/scale/scale.ts';
import { corePlan, pinned } from '../../bench/scale/wrk.ts';

const step = (nodes: number, creates: number, reads: number, failed = 0): ScaleStep => ({
  nodes,
  serverCores: Array.from({ length: nodes }, (_, i) => i),
  creates: { rps: creates, perNode: [], p50Ms: 1, worstP99Ms: 2, failed, loadAvg: '0 0 0' },
  reads: { rps: reads, perNode: [], worstP99Ms: 1, failed: 0, loadAvg: '0 0 0' },
});

describe('bench/scale: the targets of issue 40', () => {
  it('passes 8 nodes at 3× one node and reads at 0.85 × N', () => {
    const lines = scaleChecks([step(1, 600, 35_000), step(2, 1100, 68_000), step(8, 1800, 238_000)]);
    expect(lines[0]).toMatch(/^- PASS {2}creates\(8\) ≥ 3 × creates\(1\): 3\.00×/);
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^- PASS .*reads\(2\).*0\.97$/), expect.stringMatching(/^- PASS .*reads\(8\).*0\.85$/)]);
  });

  it('fails too few creates, failed creates and reads below 0.85 × N; skips without N = 8', () => {
    expect(scaleChecks([step(1, 600, 35_000), step(8, 1700, 200_000)])).toEqual([
      expect.stringMatching(/^- FAIL {2}creates\(8\)/),
      expect.stringMatching(/^- FAIL .*reads\(8\).*0\.71$/),
    ]);
    expect(scaleChecks([step(1, 600, 1), step(8, 6000, 8, 1)])[0]).toMatch(/^- FAIL/);
    expect(scaleChecks([step(1, 600, 1), step(4, 2000, 4)])[0]).toMatch(/^- SKIP/);
  });

  it('puts the servers on the lower half of the cores and keeps the pinned pid the command', () => {
    const { servers, load } = corePlan();
    expect(servers.length).toBeGreaterThanOrEqual(1);
    expect(load.length).toBeGreaterThanOrEqual(1);
    const [cmd, args] = pinned(3, 'node', ['x.mjs']);
    expect(cmd === 'taskset' ? args : args.slice(-3)).toEqual(cmd === 'taskset' ? ['-c', '3', 'node', 'x.mjs'] : ['3', 'node', 'x.mjs']);
  });
});
