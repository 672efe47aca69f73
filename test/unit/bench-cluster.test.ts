import { describe, expect, it } from 'vitest';
import { parseNodeList } from '../../bench/lib/args.ts';
import { clusterSchedule, clusterTarget, summarizeCluster, type ClusterStep } from '../../bench/lib/cluster.ts';
import { roundOrder } from '../../bench/lib/paired.ts';

const step = (round: number, nodes: number, writeMs: number[], over: Partial<ClusterStep> = {}): ClusterStep => ({
  round,
  nodes,
  readRps: 1000 * nodes,
  readP99Ms: 10 * nodes,
  readErrors: 0,
  writeMs,
  writeErrors: 0,
  ...over,
});

describe('bench: paired rounds with more than two sides', () => {
  it('runs the sides forward, then backward (A B C, C B A, …); two sides stay A B, B A', () => {
    expect([0, 1, 2].map((r) => roundOrder(r, 3))).toEqual([
      [0, 1, 2],
      [2, 1, 0],
      [0, 1, 2],
    ]);
    expect([0, 1].map((r) => roundOrder(r, 2))).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });
});

describe('bench: the multi-process scenario', () => {
  it('measures the node counts forward, then backward', () => {
    expect(clusterSchedule([1, 2, 4], 2).map((s) => `${s.round}:${s.nodes}`)).toEqual(['0:1', '0:2', '0:4', '1:4', '1:2', '1:1']);
  });

  it('pools each node count’s writes over the rounds for one p99, and averages the read rates', () => {
    const writes = (base: number) => Array.from({ length: 100 }, (_, i) => base + i);
    const rows = summarizeCluster([step(0, 1, writes(0)), step(0, 4, writes(100)), step(1, 4, writes(300)), step(1, 1, writes(0), { readRps: 3000 })]);
    expect(rows.map((r) => r.nodes)).toEqual([1, 4]);
    const [one, four] = rows;
    expect(one!.writes).toBe(200);
    expect(one!.readRps).toBe(2000);
    expect(one!.writeP99Ms).toBe(98);
    expect(four!.writeP50Ms).toBe(199);
    expect(four!.writeP99Ms).toBe(397);
    expect(four!.roundP99Ms).toEqual([198, 398]);
  });

  it('passes when p99 with 4 nodes is at most twice that with 1, and skips without both counts', () => {
    const rows = (p1: number, p4: number) =>
      summarizeCluster([step(0, 1, Array(100).fill(p1) as number[]), step(0, 4, Array(100).fill(p4) as number[])]);
    expect(clusterTarget(rows(10, 20)).verdict).toBe('PASS');
    expect(clusterTarget(rows(10, 21))).toMatchObject({ verdict: 'FAIL', detail: '2.10×: 21.0 ms vs 10.0 ms; per round 2.10×' });
    expect(clusterTarget(summarizeCluster([step(0, 1, [5]), step(0, 2, [5])])).verdict).toBe('SKIP');
    const failed = summarizeCluster([step(0, 1, [5]), step(0, 4, [5], { writeErrors: 3 })]);
    expect(clusterTarget(failed)).toMatchObject({ verdict: 'FAIL', detail: '3 creates failed' });
  });

  it('reads --cluster-nodes as distinct ascending counts and refuses anything else', () => {
    expect(parseNodeList('4,1,2,2')).toEqual([1, 2, 4]);
    expect(parseNodeList(' 1, 8 ')).toEqual([1, 8]);
    for (const bad of [undefined, '', '0', '1,,2', 'a', '1.5', '65']) expect(() => parseNodeList(bad)).toThrow(/--cluster-nodes/);
  });
});
