// Issue 40, "Scale": N server processes on one PostgreSQL, each pinned to a core of its own, for N = 1, 2, 4, 8.
// Per N, two phases one after the other, so that each figure is about one thing:
//   writes: every node gets its own option list and its own user (with a grant on that list, a token), and
//           4 clients (one wrk per node, on a load core) create options on it; total creates/s of all nodes.
//   reads:  E1 (the code-block download of scenarios/codeblocks.ts, with a token) on every node at once,
//           one wrk per node on a load core; total reads/s.
// Targets: creates(8)/creates(1) ≥ 3 and reads(N)/(N × reads(1)) ≥ 0.85.
// Nodes are only ever added (1 → 2 → 4 → 8), each new one started while the others idle; every node that is up
// takes part in the step, as every listening node is part of a write's change announcement.
import { setTimeout as sleep } from 'node:timers/promises';
import { e1Path, ensureData } from '../scenarios/codeblocks.ts';
import { bearer } from '../lib/context.ts';
import { grantedList, makeWriter, startNode, type List, type Node, type Writer } from './nodes.ts';
import { runWrk, type WrkResult } from './wrk.ts';

export interface ScaleOptions {
  entry: string;
  databaseUrl: string;
  nodes: number[];
  writeSec: number;
  readSec: number;
  warmupSec: number;
  writeClients: number;
  readConnections: number;
  cores: { servers: number[]; load: number[] };
  log: (line: string) => void;
}

export interface ScaleStep {
  nodes: number;
  serverCores: number[];
  creates: { rps: number; perNode: number[]; p50Ms: number; worstP99Ms: number; failed: number; loadAvg: string };
  reads: { rps: number; perNode: number[]; worstP99Ms: number; failed: number; loadAvg: string };
}

const loadAvg = async () => (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const failed = (r: WrkResult) => r.socketErrors + r.non2xx + r.timeouts;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;

/** Fills `steps` as it goes (a run stopped by its budget reports the steps it finished). */
export async function measureScale(o: ScaleOptions, cleanups: Array<() => Promise<void>>, steps: ScaleStep[] = []): Promise<ScaleStep[]> {
  const nodes: Node[] = [];
  // All at once: a run stopped by its time budget has seconds, not 5 s per node, to stop them.
  cleanups.push(async () => void (await Promise.all(nodes.splice(0).map((n) => n.stop()))));
  const coreOf = (k: number) => o.cores.servers[k % o.cores.servers.length]!;
  const loadCore = (k: number) => o.cores.load[k % o.cores.load.length]!;
  // The first node migrates the empty database; the E1 page and the writers are made through it.
  nodes.push(await startNode(o.entry, o.databaseUrl, coreOf(0), 'scale-node-1'));
  const admin = nodes[0]!.ctx;
  const e1 = await ensureData(admin);
  const readAuth = bearer(e1.token);
  const writers: Writer[] = [];
  for (const n of o.nodes) {
    // New nodes start together: the schema is there, and none of them is loaded yet.
    const starting: Array<Promise<Node>> = [];
    for (let k = nodes.length; k < n; k++) starting.push(startNode(o.entry, o.databaseUrl, coreOf(k), `scale-node-${k + 1}`));
    nodes.push(...(await Promise.all(starting)));
    while (writers.length < n) writers.push(await makeWriter(admin, `scale-writer-${writers.length + 1}-${Date.now()}`));
    // Fresh lists per step, so that every N starts from empty lists. Made and granted through node 1: the write
    // on node k must see the grant at once (the read-your-writes promise across nodes).
    const lists: List[] = [];
    for (let k = 0; k < n; k++) lists.push(await grantedList(admin, writers[k]!, `n${n} k${k + 1}`));
    const writeLoad = (k: number, seconds: number, prefix: string) =>
      runWrk({ core: loadCore(k), baseUrl: nodes[k]!.baseUrl, auth: writers[k]!.auth, mode: 'create', path: lists[k]!.path, connections: o.writeClients, seconds, prefix });
    const readLoad = (k: number, seconds: number) =>
      runWrk({ core: loadCore(k), baseUrl: nodes[k]!.baseUrl, auth: readAuth, mode: 'get', path: e1Path(e1), connections: o.readConnections, seconds });
    const all = (f: (k: number) => Promise<WrkResult>) => Promise.all(nodes.slice(0, n).map((_, k) => f(k)));

    await all((k) => writeLoad(k, o.warmupSec, `warm-${k}`));
    await sleep(500);
    const w = await all((k) => writeLoad(k, o.writeSec, `m-${k}`));
    const wLoad = await loadAvg();
    await sleep(500);
    await all((k) => readLoad(k, o.warmupSec));
    await sleep(500);
    const r = await all((k) => readLoad(k, o.readSec));
    const rLoad = await loadAvg();
    const step: ScaleStep = {
      nodes: n,
      serverCores: nodes.slice(0, n).map((x) => x.core),
      creates: {
        rps: w.reduce((s, x) => s + x.rps, 0),
        perNode: w.map((x) => x.rps),
        p50Ms: median(w.map((x) => x.p50Us / 1000)),
        worstP99Ms: Math.max(...w.map((x) => x.p99Us / 1000)),
        failed: w.reduce((s, x) => s + failed(x), 0),
        loadAvg: wLoad,
      },
      reads: {
        rps: r.reduce((s, x) => s + x.rps, 0),
        perNode: r.map((x) => x.rps),
        worstP99Ms: Math.max(...r.map((x) => x.p99Us / 1000)),
        failed: r.reduce((s, x) => s + failed(x), 0),
        loadAvg: rLoad,
      },
    };
    steps.push(step);
    o.log(
      `  ${n} node(s) on cores ${step.serverCores.join(',')}: ${step.creates.rps.toFixed(0)} creates/s (p99 ${step.creates.worstP99Ms.toFixed(1)} ms, ` +
        `${step.creates.failed} failed), ${step.reads.rps.toFixed(0)} E1 reads/s (${step.reads.failed} failed); load ${wLoad} / ${rLoad}`,
    );
    if (step.creates.failed + step.reads.failed > 0) {
      for (const x of nodes) o.log(`    ${x.name} log tail:\n${x.tail().split('\n').slice(-5).join('\n')}`);
    }
  }
  await Promise.all(nodes.splice(0).map((n) => n.stop()));
  return steps;
}

export const WRITE_TARGET = { nodes: 8, min: 3 };
export const READ_TARGET = 0.85;

/** The table and the two targets. */
export function renderScale(steps: readonly ScaleStep[], o: Omit<ScaleOptions, 'log' | 'entry' | 'databaseUrl'>): string[] {
  const one = steps.find((s) => s.nodes === 1);
  const lines = [
    `N server processes, each pinned to its own core (server cores ${o.cores.servers.join(',')}), one PostgreSQL; load generators (wrk, one thread per node) on cores ${o.cores.load.join(',')}.`,
    `Writes: ${o.writeClients} clients per node, each node its own list and user (token, grant), ${o.writeSec} s after ${o.warmupSec} s warm-up. ` +
      `Reads: E1 with a token, ${o.readConnections} connections per node, ${o.readSec} s after ${o.warmupSec} s warm-up. Phases one after the other.`,
    '',
    '| nodes | server cores | creates/s (all) | × 1 node | creates/s per node | create p50 ms (median node) | create p99 ms (worst node) | failed | E1 reads/s (all) | ÷ (N × 1 node) | E1 p99 ms (worst) | failed | load avg (writes / reads) |',
    '|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...steps.map((s) =>
      [
        s.nodes,
        s.serverCores.join(','),
        s.creates.rps.toFixed(0),
        one ? (s.creates.rps / one.creates.rps).toFixed(2) : '–',
        s.creates.perNode.map((x) => x.toFixed(0)).join(' '),
        s.creates.p50Ms.toFixed(1),
        s.creates.worstP99Ms.toFixed(1),
        s.creates.failed,
        s.reads.rps.toFixed(0),
        one ? (s.reads.rps / (s.nodes * one.reads.rps)).toFixed(2) : '–',
        s.reads.worstP99Ms.toFixed(1),
        s.reads.failed,
        `${s.creates.loadAvg} / ${s.reads.loadAvg}`,
      ].join(' | '),
    ).map((l) => `| ${l} |`),
    '',
    ...scaleChecks(steps),
  ];
  return lines;
}

export function scaleChecks(steps: readonly ScaleStep[]): string[] {
  const one = steps.find((s) => s.nodes === 1);
  const many = steps.find((s) => s.nodes === WRITE_TARGET.nodes);
  const out: string[] = [];
  if (!one || !many) out.push(`SKIP  creates(${WRITE_TARGET.nodes}) ≥ ${WRITE_TARGET.min} × creates(1): needs N = 1 and ${WRITE_TARGET.nodes}`);
  else {
    const r = many.creates.rps / one.creates.rps;
    const ok = r >= WRITE_TARGET.min && many.creates.failed + one.creates.failed === 0;
    out.push(`${ok ? 'PASS' : 'FAIL'}  creates(${WRITE_TARGET.nodes}) ≥ ${WRITE_TARGET.min} × creates(1): ${r.toFixed(2)}× (${many.creates.rps.toFixed(0)} / ${one.creates.rps.toFixed(0)} per s)`);
  }
  for (const s of steps) {
    if (!one || s.nodes === 1) continue;
    const r = s.reads.rps / (s.nodes * one.reads.rps);
    out.push(`${r >= READ_TARGET && s.reads.failed === 0 ? 'PASS' : 'FAIL'}  E1 reads(${s.nodes}) ≥ ${READ_TARGET} × ${s.nodes} × reads(1): ${r.toFixed(2)}`);
  }
  return out.map((l) => `- ${l}`);
}
