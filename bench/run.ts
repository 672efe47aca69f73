// `npm run bench`: measures the two baselines, then the addon-pair server under
// every scenario in bench/scenarios/, and writes a report. See bench/README.md.
//
// Everything is sequential on purpose: the machine has 2 cores, one for the server
// under test and one for the load-generator process. Running two things at once
// would measure the scheduler, not the server.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onlyMatches, parseArgs, type BenchOptions } from './lib/args.ts';
import { BASELINES, EXPRESS_BASELINE, NODE_HTTP_BASELINE, startBaseline } from './lib/baselines.ts';
import type { RunningChild } from './lib/child.ts';
import { createContext } from './lib/context.ts';
import {
  createThrowAwayDatabase,
  DEFAULT_BENCH_DATABASE_URL,
  type ThrowAwayDatabase,
} from './lib/database.ts';
import { waitForIdle } from './lib/idle.ts';
import { runLatency, runLatencyInTurns, runLatencyOnTwoServers, type LatencyResult } from './lib/latency.ts';
import { acquireRunLock } from './lib/run-lock.ts';
import { runLoad, runPairedLoad, toLoadConfig } from './lib/load.ts';
import { emptyResult, renderBuildsTable, renderChecks, renderStaticTable, renderTable, writeResults, type RunMeta } from './lib/report.ts';
import { sampleRss } from './lib/rss.ts';
import { cpuRoundRatios, finiteMedian, median, roundRatios } from './lib/paired.ts';
import { loadScenarios } from './lib/scenarios.ts';
import { staticServers, staticSideResults, TARGET_NGINX_SIDE, type StaticServers, type StaticSide } from './lib/static-sides.ts';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  BENCH_MAX_AUTH_ATTEMPTS,
  SERVER_MALLOC_ARENA_MAX,
  SERVER_MALLOC_MMAP_THRESHOLD,
  SERVER_UV_THREADPOOL_SIZE,
  startAppServer,
  type Storage,
} from './lib/server-process.ts';
import { evaluateTarget, statusCheck } from './lib/targets.ts';
import { measureEmbeddedDefault, renderEmbeddedMemory } from './lib/embedded-memory.ts';
import { CLUSTER_SCENARIO, measureCluster, renderCluster, type ClusterOptions } from './lib/cluster.ts';
import { CLI_RUNS, CLI_SCENARIO, measureCliTiming, renderCliTiming } from './lib/cli-timing.ts';
import { compareScenarios } from './lib/compare.ts';
import { runScaleBench } from './scale/run-scale.ts';
import type { BenchContext, HttpScenario, LatencyScenario, LoadConfig, LoadResult, RequestSpec, Scenario, ScenarioResult, ServerVariant } from './lib/types.ts';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(benchDir, '..');
const resultsDir = join(benchDir, 'results');

// Cleanup steps (stop children, drop the database) also run on Ctrl-C.
const cleanups: Array<() => Promise<void>> = [];
async function runCleanups(): Promise<void> {
  while (cleanups.length > 0) {
    const step = cleanups.pop();
    await step?.().catch((err: unknown) => console.error('cleanup failed:', err));
  }
}
// The children get the same Ctrl-C, so the run's own promises fail meanwhile: the flag
// stops main() from carrying on and writing a report made of those failures.
let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  console.error('\ninterrupted, cleaning up…');
  void runCleanups().finally(() => process.exit(130));
});
class Interrupted extends Error {}
function checkInterrupted(): void {
  if (interrupted) throw new Interrupted('interrupted');
}

function fromLoad(
  name: string,
  kind: ScenarioResult['kind'],
  raw: LoadResult,
  peakRssMb: number | null,
): ScenarioResult {
  return {
    ...emptyResult(name, kind),
    requestsPerSec: raw.requestsPerSec,
    p50Ms: raw.latencyP50Ms,
    p99Ms: raw.latencyP99Ms,
    errorsAndNon2xx: raw.errors + raw.non2xx,
    totalRequests: raw.totalRequests,
    peakRssMb,
    raw,
  };
}

/** Load against `target` while sampling the server's RSS (warm-up included: a peak is a peak). */
async function measureHttp(
  target: RunningChild,
  name: string,
  kind: ScenarioResult['kind'],
  config: ReturnType<typeof toLoadConfig>,
): Promise<ScenarioResult> {
  // Start from a quiet server: the previous scenario may have left slow requests queued.
  await settle(target);
  const rss = sampleRss(target.pid);
  try {
    const raw = await runLoad(benchDir, { ...config, serverPid: target.pid });
    return fromLoad(name, kind, raw, rss.stop());
  } finally {
    rss.stop();
  }
}

async function settle(target: RunningChild): Promise<void> {
  const waited = await waitForIdle(target.pid);
  if (waited < 0) console.warn(`  ${target.name} still busy after 60 s; measuring anyway`);
  else if (waited > 1000) console.log(`  waited ${(waited / 1000).toFixed(1)} s for the server to go idle`);
}

async function runBaselines(options: BenchOptions): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const baseline of BASELINES) {
    checkInterrupted();
    console.log(`▶ ${baseline.name}`);
    const server = await startBaseline(benchDir, baseline.script, baseline.name);
    cleanups.push(() => server.stop());
    try {
      const config = toLoadConfig(server.baseUrl, { method: 'GET', path: '/' }, loadOptions(options));
      results.push(await measureHttp(server, baseline.name, 'baseline', config));
    } finally {
      await server.stop();
    }
  }
  return results;
}

function loadOptions(options: BenchOptions): { connections: number; durationSec: number; warmupSec: number } {
  return { connections: options.connections, durationSec: options.durationSec, warmupSec: options.warmupSec };
}

/**
 * The scenario and the Express baseline in turns (`--rounds`, default 10, of duration/rounds seconds each;
 * order A B, B A, …), by one load worker. The ratio is the scenario's requests over Express's in the same
 * rounds, so a machine that slows down for a while slows both sides of the ratio. `statics` (the servers of
 * the same bytes) or `paired` (another request of the server) are further sides of the same rounds.
 */
async function measurePaired(
  server: RunningChild,
  expressServer: RunningChild,
  name: string,
  config: LoadConfig,
  options: BenchOptions,
  statics?: StaticSide[],
  paired?: { label: string; request: RequestSpec },
): Promise<ScenarioResult> {
  await settle(server);
  const baseline = {
    ...toLoadConfig(expressServer.baseUrl, { method: 'GET', path: '/' }, loadOptions(options)),
    // Its process has served every earlier scenario's rounds: a short warm-up reopens the connections.
    warmupSec: 1,
    serverPid: expressServer.pid,
  };
  // The servers of the same bytes, or another request of the same server: further sides of the same rounds
  // (A B C …, … C B A, …; roundOrder in lib/paired.ts).
  const measured = statics?.flatMap((side) => ('server' in side ? [side] : [])) ?? [];
  const thirds = statics ? measured : paired ? [{ server, request: paired.request }] : [];
  const others = thirds.map((t) => ({ ...toLoadConfig(t.server.baseUrl, t.request, loadOptions(options)), warmupSec: 1, serverPid: t.server.pid }));
  const rss = sampleRss(server.pid);
  try {
    const run = await runPairedLoad(benchDir, {
      scenario: { ...config, serverPid: server.pid },
      baseline,
      others,
      rounds: options.rounds,
      roundSec: options.durationSec / options.rounds,
    });
    const result = fromLoad(name, 'http', run.scenario.combined, rss.stop());
    result.pairedExpressRps = run.baseline.combined.requestsPerSec;
    result.roundRatios = roundRatios(run.scenario.rounds, run.baseline.rounds);
    if (statics) {
      result.staticSides = staticSideResults(statics, run.scenario.rounds, run.others);
      for (const side of result.staticSides) {
        // nginx must have authenticated every request, or its rate means nothing.
        if (side.failed > 0) result.checks.push({ label: `${side.label} answered every request 2xx`, verdict: 'FAIL', detail: `${side.failed} of ${side.totalRequests} not 2xx or failed` });
      }
      // Issue 15's target and the main table's nginx columns: the apr1 nginx.
      const target = result.staticSides.find((side) => side.id === TARGET_NGINX_SIDE);
      if (target?.skipped) result.nginxSkipped = target.skipped;
      else if (target) {
        result.pairedNginxRps = target.requestsPerSec;
        result.nginxRoundRatios = target.roundRatios;
        result.ratioToNginx = target.ratio;
      }
    }
    const pairedSide = run.others[0];
    if (!statics && paired && pairedSide) {
      result.pairedLabel = paired.label;
      result.pairedRps = pairedSide.combined.requestsPerSec;
      result.pairedRoundRatios = roundRatios(run.scenario.rounds, pairedSide.rounds);
      result.ratioToPaired = median(result.pairedRoundRatios);
      const bad = pairedSide.combined.errors + pairedSide.combined.non2xx;
      if (bad > 0) result.checks.push({ label: `${paired.label} answered every request 2xx`, verdict: 'FAIL', detail: `${bad} of ${pairedSide.combined.totalRequests} not 2xx or failed` });
    }
    return result;
  } finally {
    rss.stop();
  }
}

/** The scenario's request for one server, after one probe request checked it gets the expected status. */
async function probedRequest(scenario: HttpScenario, ctx: BenchContext): Promise<RequestSpec> {
  const request = typeof scenario.request === 'function' ? scenario.request(ctx) : scenario.request;
  // One probe request first: a wrong path or missing token should fail with a readable
  // message, not as 300 000 non-2xx responses.
  const probe = await ctx.http(request.method, request.path, {
    headers: request.headers,
    body: request.body,
  });
  const expected = scenario.expectStatus;
  if (expected === undefined ? probe.status < 200 || probe.status > 299 : probe.status !== expected) {
    const body = typeof probe.body === 'string' ? probe.body : JSON.stringify(probe.body);
    throw new Error(
      `probe ${request.method} ${request.path} answered ${probe.status} (expected ${expected ?? '2xx'}): ${body.slice(0, 200)}`,
    );
  }
  return request;
}

/** A second server of the run (see ServerVariant), started on first use and kept for later scenarios. */
interface VariantServers {
  get(variant: ServerVariant): Promise<{ server: RunningChild; ctx: BenchContext }>;
}

/**
 * A variant scenario: the same request on the variant server and on the main server, in turns (A B, B A, …)
 * by one load worker, as measurePaired does with Express. The ratio is the variant's rate over the main
 * server's in the same rounds; its median is `ratioToMain`.
 */
async function runVariantScenario(
  scenario: HttpScenario,
  variant: ServerVariant,
  ctx: BenchContext,
  server: RunningChild,
  variants: VariantServers,
  options: BenchOptions,
): Promise<ScenarioResult> {
  const other = await variants.get(variant);
  await scenario.setup?.(other.ctx);
  const mainRequest = await probedRequest(scenario, ctx);
  const variantRequest = await probedRequest(scenario, other.ctx);
  await settle(server);
  await settle(other.server);
  const rss = sampleRss(other.server.pid);
  try {
    const run = await runPairedLoad(benchDir, {
      scenario: { ...toLoadConfig(other.server.baseUrl, variantRequest, loadOptions(options)), serverPid: other.server.pid },
      baseline: { ...toLoadConfig(server.baseUrl, mainRequest, loadOptions(options)), serverPid: server.pid },
      rounds: options.rounds,
      roundSec: options.durationSec / options.rounds,
    });
    const result = fromLoad(scenario.name, 'http', run.scenario.combined, rss.stop());
    result.roundRatios = roundRatios(run.scenario.rounds, run.baseline.rounds);
    result.ratioToMain = median(result.roundRatios);
    result.cpuRoundRatios = cpuRoundRatios(run.scenario.rounds, run.baseline.rounds);
    result.cpuRatioToMain = finiteMedian(result.cpuRoundRatios);
    const implicit = statusCheck(result, scenario.expectStatus);
    if (implicit) result.checks.push(implicit);
    return result;
  } finally {
    rss.stop();
  }
}

async function runHttpScenario(
  scenario: HttpScenario,
  ctx: BenchContext,
  server: RunningChild,
  expressServer: RunningChild,
  statics: StaticServers,
  options: BenchOptions,
): Promise<ScenarioResult> {
  const request = await probedRequest(scenario, ctx);
  const sides = scenario.pairWithNginx ? await statics.forRequest(ctx, request) : undefined;
  const config = toLoadConfig(server.baseUrl, request, loadOptions(options));
  // Wrong logins beside the scenario's own load only (bench/lib/alongside.ts).
  const alongside = scenario.alongside && { ...scenario.alongside, url: server.baseUrl, path: '/rest/api/2/myself' };
  const result = await measurePaired(
    server,
    expressServer,
    scenario.name,
    alongside ? { ...config, alongside } : config,
    options,
    sides,
    scenario.pairedRequest && { label: scenario.pairedRequest.label, request: scenario.pairedRequest.request(ctx) },
  );
  const implicit = statusCheck(result, scenario.expectStatus);
  if (implicit) result.checks.push(implicit);
  return result;
}

/**
 * A latency scenario under `--compare` (bench/lib/compare.ts): its setup on the second server too (the main
 * server's ran already), then its calls alternate between the two servers, A B, B A, … The row is the second
 * build's (median, p99); `builds` holds both builds' median and p90, and `ratioToMain` the second build's rate
 * over the main build's, a rate being 1 / median.
 */
async function runLatencyOnTwoBuilds(
  scenario: LatencyScenario,
  variant: ServerVariant,
  ctx: BenchContext,
  server: RunningChild,
  variants: VariantServers,
): Promise<ScenarioResult> {
  const other = await variants.get(variant);
  await scenario.setup?.(other.ctx);
  await settle(server);
  await settle(other.server);
  const { main, other: compared } = await runLatencyOnTwoServers(scenario, ctx, other.ctx);
  return {
    ...emptyResult(scenario.name, 'latency'),
    p50Ms: compared.medianMs,
    p99Ms: compared.p99Ms,
    totalRequests: compared.iterations,
    ratioToMain: compared.medianMs > 0 ? main.medianMs / compared.medianMs : null,
    builds: { main: { p50Ms: main.medianMs, p90Ms: main.p90Ms }, compared: { p50Ms: compared.medianMs, p90Ms: compared.p90Ms } },
  };
}

async function runScenario(
  scenario: Scenario,
  ctx: BenchContext,
  server: RunningChild,
  expressServer: RunningChild,
  variants: VariantServers,
  statics: StaticServers,
  options: BenchOptions,
): Promise<ScenarioResult> {
  await scenario.setup?.(ctx);
  if (scenario.kind !== 'latency' && scenario.runOn) {
    // On a server of its own settings, paired with Express and its other sides as on the main server.
    const other = await variants.get(scenario.runOn);
    await scenario.setup?.(other.ctx);
    return runHttpScenario(scenario, other.ctx, other.server, expressServer, statics, options);
  }
  if (scenario.kind !== 'latency' && scenario.variant) return runVariantScenario(scenario, scenario.variant, ctx, server, variants, options);
  if (scenario.kind === 'latency' && scenario.variant) return runLatencyOnTwoBuilds(scenario, scenario.variant, ctx, server, variants);
  if (scenario.kind === 'latency') {
    await settle(server);
    const rss = sampleRss(server.pid);
    const partner = scenario.inTurnsWith;
    if (partner) await partner.setup?.(ctx);
    const latency: LatencyResult & { roundRatios?: number[] } = await (partner ? runLatencyInTurns(scenario, partner, ctx) : runLatency(scenario, ctx)).finally(() => rss.stop());
    const result: ScenarioResult = {
      ...emptyResult(scenario.name, 'latency'),
      p50Ms: latency.medianMs,
      p99Ms: latency.p99Ms,
      totalRequests: latency.iterations,
      peakRssMb: rss.stop(),
    };
    if (partner && latency.roundRatios) {
      result.pairedLabel = partner.name;
      result.pairedRoundRatios = latency.roundRatios;
      result.ratioToPaired = median(latency.roundRatios);
    }
    return result;
  }
  return runHttpScenario(scenario, ctx, server, expressServer, statics, options);
}

async function prepareStorage(options: BenchOptions): Promise<{ storage: Storage; detail: string }> {
  if (options.pglite) return { storage: { kind: 'pglite' }, detail: 'PGlite in memory (DATA_DIR=memory://)' };
  const adminUrl = process.env.BENCH_DATABASE_URL || DEFAULT_BENCH_DATABASE_URL;
  const db: ThrowAwayDatabase = await createThrowAwayDatabase(adminUrl);
  cleanups.push(() => db.drop());
  const shown = new URL(db.url);
  shown.password = shown.password ? '***' : '';
  return {
    storage: { kind: 'postgres', databaseUrl: db.url },
    detail: `PostgreSQL, throw-away database ${shown.toString()}`,
  };
}

/** BENCH_SERVER_ENTRY lets the harness be tried against a stand-in server (see README). */
function serverEntry(): string {
  if (process.env.BENCH_SERVER_ENTRY) return process.env.BENCH_SERVER_ENTRY;
  // What `npm start` runs in production: the esbuild bundle, rebuilt now so it matches the source.
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  return 'dist/main.mjs';
}

function kindOf(scenario: Scenario): ScenarioResult['kind'] {
  return scenario.kind === 'latency' ? 'latency' : 'http';
}

async function runScenarios(
  scenarios: readonly Scenario[],
  options: BenchOptions,
): Promise<{ results: ScenarioResult[]; detail: string }> {
  const { storage, detail } = await prepareStorage(options);
  const entry = serverEntry();
  console.log(`▶ starting ${entry} serve on ${storage.kind}`);
  const server = await startAppServer(repoRoot, storage, entry);
  cleanups.push(() => server.stop());
  const ctx = createContext(
    server.baseUrl,
    ADMIN_USERNAME,
    ADMIN_PASSWORD,
    storage.kind === 'postgres' ? storage.databaseUrl : undefined,
  );
  // The Express baseline stays up: each HTTP scenario is measured in turns with it (see measurePaired).
  const express = BASELINES.find((b) => b.name === EXPRESS_BASELINE)!;
  const expressServer = await startBaseline(benchDir, express.script, express.name);
  cleanups.push(() => expressServer.stop());
  const started = new Map<string, Promise<{ server: RunningChild; ctx: BenchContext }>>();
  // Another build (`--compare`) gets a PostgreSQL database of its own: a build refuses a database that holds
  // migrations it does not know, and an older build's server must not run on a schema a newer one changed.
  const storageOf = async (variant: ServerVariant): Promise<Storage> =>
    variant.entry && storage.kind === 'postgres' ? (await prepareStorage(options)).storage : storage;
  const variants: VariantServers = {
    get(variant) {
      let running = started.get(variant.name);
      if (!running) {
        const variantEntry = variant.entry ?? entry;
        console.log(`▶ starting ${variantEntry} serve (${variant.name}: ${Object.entries(variant.env).map(([k, v]) => `${k}=${v}`).join(' ')})`);
        running = storageOf(variant).then(async (own) => {
          const s = await startAppServer(repoRoot, own, variantEntry, variant.env, `server-${variant.name}`);
          cleanups.push(() => s.stop());
          return { server: s, ctx: createContext(s.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD, own.kind === 'postgres' ? own.databaseUrl : undefined) };
        });
        started.set(variant.name, running);
      }
      return running;
    },
  };
  const statics = staticServers(benchDir, (stop) => cleanups.push(stop));
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    checkInterrupted();
    // Once the server is gone every later scenario would only say "fetch failed".
    const ended = server.exitInfo();
    if (ended) {
      results.push({
        ...emptyResult(scenario.name, kindOf(scenario)),
        error: `not run: the server had ended (${ended})`,
      });
      continue;
    }
    if (scenario.postgresOnly && storage.kind !== 'postgres') {
      console.log(`▶ ${scenario.name}: PostgreSQL only, skipped on --pglite`);
      results.push({ ...emptyResult(scenario.name, kindOf(scenario)), skipped: `PostgreSQL only: ${scenario.postgresOnly}` });
      continue;
    }
    console.log(`▶ ${scenario.name}`);
    try {
      const result = await runScenario(scenario, ctx, server, expressServer, variants, statics, options);
      checkInterrupted();
      // autocannon counts refused connections as errors rather than failing, so check here.
      const endedDuring = server.exitInfo();
      if (endedDuring) {
        result.error = `the server ended (${endedDuring}) during this scenario`;
        console.error(
          `  ERROR ${result.error}\n  --- last server output (${server.logPath}) ---\n${server.tail()}`,
        );
      }
      results.push(result);
    } catch (err) {
      if (interrupted) throw new Interrupted('interrupted');
      let message = err instanceof Error ? err.message : String(err);
      // Give the server a moment to be reaped, so a crash is reported as a crash.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const ended = server.exitInfo();
      if (ended) {
        message = `the server ended (${ended}) during this scenario: ${message}`;
        console.error(`  --- last server output (${server.logPath}) ---\n${server.tail()}`);
      }
      console.error(`  ERROR ${scenario.name}: ${message}`);
      results.push({ ...emptyResult(scenario.name, kindOf(scenario)), error: message });
    }
  }
  await expressServer.stop();
  await statics.stopAll();
  for (const running of started.values()) await (await running).server.stop();
  return { results, detail };
}

/**
 * Why the RSS targets are not checked on `--pglite`: its server runs PGlite in memory (DATA_DIR=memory://),
 * whose `initdb` runs inside the server process and keeps its memory (docs/operations.md, "The embedded
 * database"), unlike the embedded default of `npm start`, whose memory every PostgreSQL run measures.
 */
const PGLITE_RSS_SKIPPED = 'not checked on --pglite: memory:// keeps initdb in the process; the embedded default is measured by the PostgreSQL run';

function applyTargets(scenarios: readonly Scenario[], results: ScenarioResult[], pglite: boolean): void {
  const byName = new Map(results.map((r) => [r.name, r]));
  const nodeHttp = byName.get(NODE_HTTP_BASELINE)?.requestsPerSec ?? null;
  const express = byName.get(EXPRESS_BASELINE)?.requestsPerSec ?? null;
  for (const r of results) {
    if (r.requestsPerSec === null || r.kind === 'latency') continue;
    r.ratioToNodeHttp = nodeHttp ? r.requestsPerSec / nodeHttp : null;
    // Paired rounds: the median of the rounds' ratios, robust to a round in which the VM stalled one side.
    if (r.ratioToMain !== undefined) r.ratioToExpress = null; // measured against the main server, not Express
    else if (r.roundRatios && r.roundRatios.length > 0) r.ratioToExpress = median(r.roundRatios);
    else r.ratioToExpress = express ? r.requestsPerSec / express : null;
  }
  for (const scenario of scenarios) {
    const result = byName.get(scenario.name);
    if (!result || result.error || result.skipped) continue;
    for (const target of scenario.targets) {
      if (pglite && 'maxRssMb' in target) result.checks.push({ label: `RSS < ${target.maxRssMb} MB`, verdict: 'SKIP', detail: PGLITE_RSS_SKIPPED });
      else result.checks.push(evaluateTarget(target, result, byName));
    }
  }
}

/** The multi-process scenario (bench/lib/cluster.ts) on a throw-away database of its own. */
async function runCluster(options: BenchOptions): Promise<NonNullable<RunMeta['cluster']>> {
  const clusterOptions: ClusterOptions = {
    nodes: options.clusterNodes,
    rounds: options.clusterRounds,
    stepSec: options.durationSec / options.clusterRounds,
    warmupSec: Math.min(options.warmupSec, 3),
    connections: options.connections,
  };
  console.log(`▶ ${CLUSTER_SCENARIO}: N = ${clusterOptions.nodes.join(', ')}, ${clusterOptions.rounds} round(s) of ${clusterOptions.stepSec} s per N`);
  const adminUrl = process.env.BENCH_DATABASE_URL || DEFAULT_BENCH_DATABASE_URL;
  try {
    const { rows, check } = await measureCluster(repoRoot, benchDir, serverEntry(), adminUrl, clusterOptions, (step) => cleanups.push(step));
    return { table: renderCluster(rows, clusterOptions), checks: [`${check.verdict.padEnd(4)}  ${CLUSTER_SCENARIO}: ${check.label} (got ${check.detail})`] };
  } catch (err) {
    if (interrupted) throw new Interrupted('interrupted');
    const message = err instanceof Error ? err.message : String(err);
    console.error(`  ERROR ${CLUSTER_SCENARIO}: ${message}`);
    return { table: [], checks: [`ERROR ${CLUSTER_SCENARIO}: ${message.split('\n')[0]}`] };
  }
}

// A name no other scenario's `--only` part is likely to be inside (`--only e1` must not start eight nodes).
const SCALE_SCENARIO = 'scale-nodes';

/**
 * Issue 40's scale scenario (bench/scale/run-scale.ts): N pinned nodes for each of --cluster-nodes, --duration
 * seconds per phase; with BENCH_SCALE_BEFORE=<another build's dist/main.mjs>, also this build against that one
 * in turns. Its report goes to $SCALE_OUT (default $TMPDIR/addon-pair-scale), not to latest.md.
 */
async function runScale(options: BenchOptions): Promise<void> {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    // not a checkout: the report says "unknown"
  }
  console.log(`▶ ${SCALE_SCENARIO}: N = ${options.clusterNodes.join(', ')}`);
  try {
    await runScaleBench(
      {
        entry: serverEntry(),
        beforeEntry: process.env.BENCH_SCALE_BEFORE || undefined,
        adminUrl: process.env.BENCH_DATABASE_URL || DEFAULT_BENCH_DATABASE_URL,
        outDir: process.env.SCALE_OUT || join(tmpdir(), 'addon-pair-scale'),
        commit,
        beforeCommit: process.env.BENCH_SCALE_BEFORE_COMMIT || 'before',
        command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
        nodes: options.clusterNodes,
        writeSec: options.durationSec,
        readSec: options.durationSec,
        warmupSec: Math.min(options.warmupSec, 3),
        writeClients: 4,
        readConnections: 16,
        abRounds: 4,
        abSec: Math.max(1, options.durationSec / 4),
        abClients: [1, 4],
      },
      (line) => console.log(line),
      (step) => cleanups.push(step),
    );
  } catch (err) {
    if (interrupted) throw new Interrupted('interrupted');
    console.error(`  ERROR ${SCALE_SCENARIO}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const releaseLock = await acquireRunLock();
  const startedAt = new Date().toISOString();
  const loadAverage = loadavg()[0] ?? 0;
  const all = await loadScenarios(benchDir);
  const only = options.only;
  // `--only a,b,=c`: the scenarios whose name contains a part or is one written `=name` (a ratio target needs both of its sides).
  const matches = (name: string) => only !== null && onlyMatches(only, name);
  const matching = only ? all.filter((s) => matches(s.name)) : all;
  // `--compare`: the scenarios on two builds in turns, and nothing else (bench/lib/compare.ts).
  const compare = options.compareEntry;
  const compared = compare ? compareScenarios(matching, compare, options.compareEnv) : matching;
  // `--iterations`: every latency scenario's timed calls (a quick try, or more calls for a finer median).
  const iterations = options.iterations;
  const selected = iterations === null ? compared : compared.map((s) => (s.kind === 'latency' ? { ...s, iterations } : s));
  // The multi-process scenario is not a Scenario (it starts servers of its own): selected by name like them.
  const clusterSelected = !compare && (!only || matches(CLUSTER_SCENARIO));
  // The scale scenario (bench/scale/) only when named: it wants a core per node, which this VM does not have.
  const scaleSelected = !compare && !options.pglite && only !== null && matches(SCALE_SCENARIO);
  if (selected.length === 0 && !clusterSelected && !scaleSelected) console.warn(`no scenario matches --only "${only}"; running the baselines only`);

  const results = await runBaselines(options);
  let storageDetail = 'not started (no scenario selected)';
  if (selected.length > 0) {
    const run = await runScenarios(selected, options);
    results.push(...run.results);
    storageDetail = run.detail;
  }
  checkInterrupted();
  await runCleanups();
  applyTargets(selected, results, options.pglite);
  let cluster: RunMeta['cluster'];
  if (clusterSelected && options.pglite) console.log(`▶ ${CLUSTER_SCENARIO}: PostgreSQL only, skipped on --pglite`);
  else if (clusterSelected) cluster = await runCluster(options);
  checkInterrupted();
  if (scaleSelected) await runScale(options);
  checkInterrupted();
  // The embedded default (npm start without DATABASE_URL) in the same run as the PostgreSQL figures.
  let embedded: string[] = [];
  if (!options.pglite && !options.only && !compare) {
    console.log('▶ embedded default: first start, idle, load, restart');
    embedded = renderEmbeddedMemory(await measureEmbeddedDefault(repoRoot, benchDir, serverEntry(), options.durationSec));
  }

  // The command line's times (cli-timing.ts): `help` and `user add` on each database, in the same run.
  let cli: RunMeta['cli'];
  if (!options.pglite && !compare && (!options.only || matches(CLI_SCENARIO))) {
    console.log(`▶ ${CLI_SCENARIO}: help and user add, ${CLI_RUNS} runs each, in turns`);
    const adminUrl = process.env.BENCH_DATABASE_URL || DEFAULT_BENCH_DATABASE_URL;
    cli = renderCliTiming(await measureCliTiming(repoRoot, adminUrl, CLI_RUNS), CLI_RUNS);
  }
  checkInterrupted();

  const meta: RunMeta = {
    startedAt,
    storage: options.pglite ? 'pglite' : 'postgres',
    storageDetail,
    durationSec: options.durationSec,
    warmupSec: options.warmupSec,
    rounds: options.rounds,
    connections: options.connections,
    only: options.only,
    compareEntry: compare,
    compareEnv: options.compareEnv,
    iterations,
    node: process.version,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    loadAverage,
    serverEntry: serverEntry(),
    embedded,
    cluster,
    cli,
    serverEnv: { LOG_LEVEL: 'warn', DEMO: '0', MAX_AUTH_ATTEMPTS: BENCH_MAX_AUTH_ATTEMPTS, MALLOC_ARENA_MAX: SERVER_MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_: SERVER_MALLOC_MMAP_THRESHOLD, UV_THREADPOOL_SIZE: SERVER_UV_THREADPOOL_SIZE },
  };
  console.log('\n' + renderTable(results) + '\n');
  const staticTable = renderStaticTable(results);
  if (staticTable) console.log(staticTable + '\n');
  const buildsTable = renderBuildsTable(results);
  if (buildsTable) console.log(buildsTable + '\n');
  const checks = [...renderChecks(results), ...embedded.slice(1), ...(cluster?.checks ?? []), ...(cli?.checks ?? [])];
  if (embedded[0]) console.log(embedded[0]);
  if (cluster) console.log(cluster.table.slice(2).join('\n') + '\n');
  if (cli) console.log(cli.table.join('\n') + '\n');
  for (const line of checks) console.log(line);
  const failures = checks.filter((l) => l.startsWith('FAIL') || l.startsWith('ERROR'));
  if (failures.length > 0) {
    console.log(`\n${failures.length} target(s) FAILED or errored:`);
    for (const line of failures) console.log(`  ✗ ${line}`);
  } else {
    console.log('\nall targets PASS');
  }
  checkInterrupted();
  const { markdownPath, jsonPath } = await writeResults(resultsDir, meta, results);
  const written = markdownPath ? `${relative(repoRoot, markdownPath)} and ` : '';
  console.log(
    `\nwrote ${written}${relative(repoRoot, jsonPath)}${markdownPath ? '' : ' (--only or --compare: latest.md left alone)'}`,
  );
  releaseLock();
}

// A report, not a gate: failed targets leave the exit code at 0; only a harness error sets 1.
main().catch(async (err: unknown) => {
  // On Ctrl-C the SIGINT handler owns clean-up and the exit code.
  if (interrupted) return;
  console.error(err instanceof Error ? err.message : String(err));
  await runCleanups();
  process.exitCode = 1;
});
