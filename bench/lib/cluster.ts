// The multi-process scenario (issue 15, point 6): N server processes of the built bundle on one PostgreSQL
// database, E1 downloads on all of them at once (one load worker, the connections spread over the nodes), and
// from the harness option creates, spread over the nodes, each timed. Reported by N: the
// total read rate and the creates' p50/p99 (WRITERS writers at once, for enough samples). Target: the creates' p99 with 4 nodes at most 2× that with 1.
//
// Why it matters: a write answers after every other listening node acknowledged its change-feed message
// (src/platform/events/change-feed.ts), so a node busy with reads can hold up every other node's writes.
//
// The node counts are measured in rounds, forward then backward (1 2 4, 4 2 1, …; `--cluster-rounds`), so a
// machine that slows down during the scenario slows the small and the large clusters alike. Nodes are started
// and stopped between steps (a stopped node leaves the feed; an idle one would still be waited for).
import { e1Path, ensureData } from '../scenarios/codeblocks.ts';
import type { RunningChild } from './child.ts';
import { bearer, createContext, expectStatus } from './context.ts';
import { createThrowAwayDatabase } from './database.ts';
import { waitForIdle } from './idle.ts';
import { percentile } from './latency.ts';
import { runMultiLoad, toLoadConfig } from './load.ts';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startAppServer } from './server-process.ts';
import type { BenchContext, LoadResult, TargetCheck } from './types.ts';

export const CLUSTER_SCENARIO = 'cluster-e1-reads-option-creates';
/** The target: p99 of an option create with TARGET_NODES nodes ≤ MAX_P99_RATIO × its p99 with one node. */
export const TARGET_NODES = 4;
export const MAX_P99_RATIO = 2;
/**
 * Writers at once, each creating options one after another on a field of its own (so they never wait for each
 * other's row locks), round-robin over the nodes from a different node each: more samples for the p99.
 */
export const WRITERS = 4;

export interface ClusterOptions {
  /** Node counts to measure, e.g. [1, 2, 4] (`--cluster-nodes 1,2,4,8`). */
  nodes: number[];
  /** Forward and backward passes over `nodes` (`--cluster-rounds`). */
  rounds: number;
  /** Measured seconds per step (one node count in one round). */
  stepSec: number;
  /** Read load before each step's measured seconds; writes during it are not counted. */
  warmupSec: number;
  /** Read connections in total, spread over the nodes (the offered read load does not grow with N). */
  connections: number;
}

/** One node count in one round. */
export interface ClusterStep {
  round: number;
  nodes: number;
  /** E1 responses per second, all nodes together. */
  readRps: number;
  readP99Ms: number;
  readErrors: number;
  /** Wall time of each option create, ms, in the order they ran. */
  writeMs: number[];
  writeErrors: number;
}

export interface ClusterRow {
  nodes: number;
  readRps: number;
  readP99Ms: number;
  readErrors: number;
  writes: number;
  writeErrors: number;
  writeP50Ms: number;
  writeP99Ms: number;
  writeMaxMs: number;
  /** The p99 of each round's step, in round order. */
  roundP99Ms: number[];
}

/** The node counts in the order they are measured: forward in even rounds, backward in odd ones. */
export function clusterSchedule(nodes: readonly number[], rounds: number): Array<{ round: number; nodes: number }> {
  const steps: Array<{ round: number; nodes: number }> = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [...nodes] : [...nodes].reverse();
    for (const n of order) steps.push({ round, nodes: n });
  }
  return steps;
}

/** One row per node count: the rounds' writes pooled (one p99 over all of them), the read rates averaged. */
export function summarizeCluster(steps: readonly ClusterStep[]): ClusterRow[] {
  const counts = [...new Set(steps.map((s) => s.nodes))].sort((a, b) => a - b);
  return counts.map((nodes) => {
    const mine = steps.filter((s) => s.nodes === nodes).sort((a, b) => a.round - b.round);
    const writes = mine.flatMap((s) => s.writeMs).sort((a, b) => a - b);
    const p99 = (xs: readonly number[]) => percentile([...xs].sort((a, b) => a - b), 99);
    return {
      nodes,
      readRps: mine.reduce((n, s) => n + s.readRps, 0) / mine.length,
      readP99Ms: Math.max(...mine.map((s) => s.readP99Ms)),
      readErrors: mine.reduce((n, s) => n + s.readErrors, 0),
      writes: writes.length,
      writeErrors: mine.reduce((n, s) => n + s.writeErrors, 0),
      writeP50Ms: percentile(writes, 50),
      writeP99Ms: percentile(writes, 99),
      writeMaxMs: writes[writes.length - 1] ?? 0,
      roundP99Ms: mine.map((s) => p99(s.writeMs)),
    };
  });
}

/** p99(TARGET_NODES) / p99(1) ≤ MAX_P99_RATIO; SKIP when either count was not measured. */
export function clusterTarget(rows: readonly ClusterRow[]): TargetCheck {
  const label = `option create p99 with ${TARGET_NODES} nodes ≤ ${MAX_P99_RATIO}× with 1 node, under E1 load on every node`;
  const one = rows.find((r) => r.nodes === 1);
  const many = rows.find((r) => r.nodes === TARGET_NODES);
  if (!one || !many || one.writes === 0 || many.writes === 0) {
    return { label, verdict: 'SKIP', detail: `--cluster-nodes must include 1 and ${TARGET_NODES}` };
  }
  if (one.writeErrors + many.writeErrors > 0) {
    return { label, verdict: 'FAIL', detail: `${one.writeErrors + many.writeErrors} creates failed` };
  }
  const ratio = many.writeP99Ms / one.writeP99Ms;
  // Each round's own ratio too: on a drifting machine their spread says how far to trust the pooled one.
  const perRound = many.roundP99Ms.map((p, i) => p / (one.roundP99Ms[i] ?? Number.NaN)).map((r) => `${r.toFixed(2)}×`);
  return {
    label,
    verdict: ratio <= MAX_P99_RATIO ? 'PASS' : 'FAIL',
    detail: `${ratio.toFixed(2)}×: ${many.writeP99Ms.toFixed(1)} ms vs ${one.writeP99Ms.toFixed(1)} ms; per round ${perRound.join(' ')}`,
  };
}

export function renderCluster(rows: readonly ClusterRow[], options: ClusterOptions): string[] {
  return [
    `Multi-process (\`${CLUSTER_SCENARIO}\`): N server processes on one PostgreSQL database, E1 with a token on all of them ` +
      `(${options.connections} connections in total, spread over the nodes), and from the harness ${WRITERS} writers, each creating ` +
      `options one after another on a field of its own, round-robin over the nodes; ${options.stepSec} s measured per step after ${options.warmupSec} s warm-up, ` +
      `${options.rounds} round(s) over N = ${options.nodes.join(', ')} (forward, then backward).`,
    '',
    '| nodes | E1 req/s (all nodes) | E1 p99 ms (worst step) | E1 errors + non-2xx | creates | failed | create p50 ms | create p99 ms | create max ms | create p99 per round |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map((r) =>
      [
        r.nodes,
        r.readRps.toFixed(0),
        r.readP99Ms.toFixed(0),
        r.readErrors,
        r.writes,
        r.writeErrors,
        r.writeP50Ms.toFixed(1),
        r.writeP99Ms.toFixed(1),
        r.writeMaxMs.toFixed(1),
        r.roundP99Ms.map((x) => x.toFixed(1)).join(' '),
      ].join(' | '),
    ).map((line) => `| ${line} |`),
  ];
}

const FE = '/rest/trackercustomfieldeditorplugin/1';
const SELECT = 'com.atlassian.jira.plugin.system.customfieldtypes:select';

interface ClusterData {
  e1: string;
  readAuth: string;
  /** One options path per writer. */
  optionsPaths: string[];
  writeAuth: string;
}

/** The E1 page and token (as in scenarios/codeblocks.ts) and WRITERS select fields the admin may edit. */
async function setUp(ctx: BenchContext): Promise<ClusterData> {
  const cb = await ensureData(ctx);
  const optionsPaths: string[] = [];
  for (let w = 0; w < WRITERS; w++) {
    const field = await ctx.http('POST', '/rest/api/2/field', { auth: ctx.adminAuth, body: { name: `Bench Cluster ${Date.now()} ${w}`, type: SELECT } });
    expectStatus(field, 201, 'creating a cluster bench field');
    const fieldId = Number((field.body as { schema: { customId: number } }).schema.customId);
    const contexts = await ctx.http('GET', `${FE}/admin/customfields/${fieldId}/contexts`, { auth: ctx.adminAuth });
    expectStatus(contexts, 200, 'reading its contexts');
    const contextId = (contexts.body as { contextId: number }[])[0]!.contextId;
    expectStatus(
      await ctx.http('PUT', `${FE}/admin/customfields/${fieldId}`, { auth: ctx.adminAuth, body: { userlist: [ctx.adminUsername], grouplist: [] } }),
      200,
      'granting the admin',
    );
    optionsPaths.push(`${FE}/user/customfields/${fieldId}/contexts/${contextId}/options`);
  }
  return {
    e1: e1Path(cb),
    readAuth: bearer(cb.token),
    optionsPaths,
    // A token, so that a create's time is the create's and the change feed's, not a password check's.
    writeAuth: bearer(cb.token),
  };
}

/** The writers, until `stop()`; only creates begun after `measure()` count. */
function writers(nodes: readonly RunningChild[], data: ClusterData): { measure(): void; stop(): Promise<{ ms: number[]; errors: number }> } {
  let measuring = false;
  let stopped = false;
  const ms: number[] = [];
  let errors = 0;
  const loop = async (w: number) => {
    const optionsPath = data.optionsPaths[w]!;
    for (let i = w; !stopped; i++) {
      const node = nodes[i % nodes.length]!;
      const counted = measuring;
      const t0 = performance.now();
      try {
        const res = await fetch(node.baseUrl + optionsPath, {
          method: 'POST',
          headers: { authorization: data.writeAuth, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ optionvalue: `Cluster ${Date.now()} ${i}` }),
        });
        await res.arrayBuffer();
        if (counted && !stopped) {
          if (res.status === 200) ms.push(performance.now() - t0);
          else errors++;
        }
      } catch {
        if (counted && !stopped) errors++;
      }
    }
  };
  const loops = data.optionsPaths.map((_, w) => loop(w));
  return {
    measure: () => void (measuring = true),
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return { ms, errors };
    },
  };
}

async function measureStep(
  benchDir: string,
  nodes: readonly RunningChild[],
  data: ClusterData,
  options: ClusterOptions,
): Promise<Omit<ClusterStep, 'round'>> {
  await Promise.all(nodes.map((n) => waitForIdle(n.pid)));
  const per = Math.max(1, Math.round(options.connections / nodes.length));
  const targets = nodes.map((n) => ({
    ...toLoadConfig(n.baseUrl, { method: 'GET', path: data.e1, headers: { authorization: data.readAuth } }, {
      connections: per,
      durationSec: options.stepSec,
      warmupSec: 0,
    }),
  }));
  const writes = writers(nodes, data);
  // The writes run from the start (so the write path warms up too) and count from the end of the warm-up;
  // the load worker ends stepSec after that, and the writer stops with it.
  const loaded = runMultiLoad(benchDir, { multi: targets, warmupSec: options.warmupSec, durationSec: options.stepSec }, () => writes.measure());
  const settled = await Promise.allSettled([loaded]);
  const written = await writes.stop();
  if (settled[0].status === 'rejected') throw settled[0].reason;
  const result: { targets: LoadResult[] } = settled[0].value;
  const total = result.targets.reduce((n, t) => n + t.totalRequests, 0);
  const seconds = Math.max(...result.targets.map((t) => t.durationSec), options.stepSec);
  return {
    nodes: nodes.length,
    readRps: total / seconds,
    readP99Ms: Math.max(...result.targets.map((t) => t.latencyP99Ms)),
    readErrors: result.targets.reduce((n, t) => n + t.errors + t.non2xx, 0),
    writeMs: written.ms,
    writeErrors: written.errors,
  };
}

/**
 * Runs the scenario on a throw-away database of its own (created through `adminUrl`, dropped at the end),
 * with the bundle `entry`. `onCleanup` registers a step for Ctrl-C.
 */
export async function measureCluster(
  repoRoot: string,
  benchDir: string,
  entry: string,
  adminUrl: string,
  options: ClusterOptions,
  onCleanup: (step: () => Promise<void>) => void,
): Promise<{ rows: ClusterRow[]; steps: ClusterStep[]; check: TargetCheck }> {
  const db = await createThrowAwayDatabase(adminUrl);
  onCleanup(() => db.drop());
  const storage = { kind: 'postgres' as const, databaseUrl: db.url };
  const running: RunningChild[] = [];
  onCleanup(async () => {
    for (const n of running) await n.stop();
  });
  const resize = async (count: number): Promise<void> => {
    while (running.length > count) await running.pop()!.stop();
    // One at a time: the first start migrates the empty database.
    while (running.length < count) running.push(await startAppServer(repoRoot, storage, entry, {}, `cluster-node-${running.length + 1}`));
  };
  try {
    await resize(1);
    const data = await setUp(createContext(running[0]!.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD, db.url));
    const steps: ClusterStep[] = [];
    for (const { round, nodes } of clusterSchedule(options.nodes, options.rounds)) {
      await resize(nodes);
      const step = { round, ...(await measureStep(benchDir, running, data, options)) };
      steps.push(step);
      const p99 = percentile([...step.writeMs].sort((a, b) => a - b), 99);
      console.log(
        `  round ${round + 1}, ${nodes} node(s): E1 ${step.readRps.toFixed(0)} req/s, ${step.writeMs.length} creates, p99 ${p99.toFixed(1)} ms` +
          (step.writeErrors + step.readErrors > 0 ? `, ${step.writeErrors} failed creates, ${step.readErrors} failed reads` : ''),
      );
    }
    const rows = summarizeCluster(steps);
    return { rows, steps, check: clusterTarget(rows) };
  } finally {
    await resize(0);
    await db.drop();
  }
}
