// The load generator, run as its own process by bench/lib/load.ts so autocannon's
// event loop never competes with the server's (the machine has 2 cores: one for
// the server, one for this). Input: a LoadConfig, or a PairedLoadConfig, as JSON in
// argv[2]. Output: one LoadResult (or PairedLoadResult) as JSON on stdout; nothing
// else is written to stdout.
import autocannon from 'autocannon';
import { cpuSeconds, waitForIdle } from './lib/idle.ts';
import { roundOrder } from './lib/paired.ts';
import { startAlongside } from './lib/alongside.ts';
import type { LoadConfig, LoadResult, MultiLoadConfig, MultiLoadResult, PairedLoadConfig, PairedLoadResult, PairedSide } from './lib/types.ts';

// Untyped in @types/autocannon: merges runs made with `skipAggregateResult` (histograms included).
const { aggregateResult } = autocannon as unknown as {
  aggregateResult(results: unknown[], opts: { url: string; connections: number; pipelining: number }): autocannon.Result;
};

async function runOnce(config: LoadConfig, durationSec: number, skipAggregateResult = false): Promise<autocannon.Result> {
  // A side with `alongside` has the wrong logins sent while (and only while) its own load runs.
  const stop = config.alongside ? startAlongside(config.alongside) : undefined;
  try {
    return await load(config, durationSec, skipAggregateResult);
  } finally {
    stop?.();
  }
}

function load(config: LoadConfig, durationSec: number, skipAggregateResult: boolean): Promise<autocannon.Result> {
  return autocannon({
    skipAggregateResult,
    url: config.url,
    method: config.method,
    headers: config.headers,
    body: config.body,
    connections: config.connections,
    duration: durationSec,
    pipelining: 1,
    // A slow response should show up in p99, not be cut off as an error too early.
    timeout: 30,
  });
}

function toLoadResult(r: autocannon.Result, settleAfterWarmupMs: number): LoadResult {
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  return {
    requestsPerSec: r.requests.average,
    totalRequests: r.requests.total,
    durationSec: r.duration,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    latencyMaxMs: r.latency.max,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes,
    settleAfterWarmupMs,
  };
}

/** Waits for the target's backlog (requests the previous run abandoned), then measures it. */
async function measure(config: LoadConfig, durationSec: number): Promise<LoadResult> {
  const settled = config.serverPid ? await waitForIdle(config.serverPid) : 0;
  return toLoadResult(await runOnce(config, durationSec), settled);
}

async function single(config: LoadConfig): Promise<LoadResult> {
  // Warm-up: lets V8 optimise the hot paths and the pool fill up; its numbers are dropped.
  if (config.warmupSec > 0) await runOnce(config, config.warmupSec);
  return measure(config, config.durationSec);
}

const rate = (requests: number, seconds: number): number => (seconds > 0 ? requests / seconds : 0);

/** The rounds of one side, kept unaggregated so that the whole run's percentiles come from one histogram. */
class Side {
  private readonly raws: unknown[] = [];
  private readonly rounds: LoadResult[] = [];
  constructor(private readonly config: LoadConfig) {}

  async measureRound(durationSec: number): Promise<void> {
    const pid = this.config.serverPid;
    const settled = pid ? await waitForIdle(pid) : 0;
    const cpuBefore = pid ? cpuSeconds(pid) : null;
    const raw = await runOnce(this.config, durationSec, true);
    const cpuAfter = pid ? cpuSeconds(pid) : null;
    this.raws.push(raw);
    const round = toLoadResult(this.aggregate([raw]), settled);
    // An aggregated result has no per-second samples (requests.average is 0): the rate is requests over time.
    this.rounds.push({
      ...round,
      requestsPerSec: rate(round.totalRequests, round.durationSec),
      ...(cpuBefore !== null && cpuAfter !== null ? { serverCpuSec: cpuAfter - cpuBefore } : {}),
    });
  }

  result(): PairedSide {
    const all = toLoadResult(this.aggregate(this.raws), Math.max(0, ...this.rounds.map((r) => r.settleAfterWarmupMs)));
    // The rate over all rounds: every request over all measured time.
    const totalRequests = this.rounds.reduce((n, r) => n + r.totalRequests, 0);
    const durationSec = this.rounds.reduce((n, r) => n + r.durationSec, 0);
    const combined: LoadResult = { ...all, totalRequests, durationSec, requestsPerSec: rate(totalRequests, durationSec) };
    if (this.rounds.every((r) => r.serverCpuSec !== undefined)) combined.serverCpuSec = this.rounds.reduce((n, r) => n + r.serverCpuSec!, 0);
    return { rounds: this.rounds, combined };
  }

  private aggregate(raws: unknown[]): autocannon.Result {
    return aggregateResult(raws, { url: this.config.url, connections: this.config.connections, pipelining: 1 });
  }
}

async function paired(config: PairedLoadConfig): Promise<PairedLoadResult> {
  const { rounds, roundSec } = config;
  const configs = [config.scenario, config.baseline, ...(config.others ?? [])];
  for (const c of configs) if (c.warmupSec > 0) await runOnce(c, c.warmupSec);
  const sides = configs.map((c) => new Side(c));
  for (let round = 0; round < rounds; round++) {
    for (const i of roundOrder(round, sides.length)) await sides[i]!.measureRound(roundSec);
  }
  const [scenario, baseline, ...others] = sides.map((s) => s.result());
  return { scenario: scenario!, baseline: baseline!, others };
}

/** Every target at once: warm-up, a `started` line (the caller starts timing its own calls), then the measured run. */
async function multi(config: MultiLoadConfig): Promise<MultiLoadResult> {
  if (config.warmupSec > 0) await Promise.all(config.multi.map((c) => runOnce(c, config.warmupSec)));
  process.stdout.write(JSON.stringify({ started: true }) + '\n');
  const raws = await Promise.all(config.multi.map((c) => runOnce(c, config.durationSec)));
  return { targets: raws.map((r) => toLoadResult(r, 0)) };
}

async function main(): Promise<void> {
  const raw = process.argv[2];
  if (!raw) throw new Error('usage: load-worker.ts <LoadConfig, PairedLoadConfig or MultiLoadConfig JSON>');
  const config = JSON.parse(raw) as LoadConfig | PairedLoadConfig | MultiLoadConfig;
  const result = 'multi' in config ? await multi(config) : 'rounds' in config ? await paired(config) : await single(config);
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
