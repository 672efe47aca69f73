// The load generator, run as its own process by bench/lib/load.ts so autocannon's
// event loop never competes with the server's (the machine has 2 cores: one for
// the server, one for this). Input: a LoadConfig as JSON in argv[2]. Output: one
// LoadResult as JSON on stdout; nothing else is written to stdout.
import autocannon from 'autocannon';
import { waitForIdle } from './lib/idle.ts';
import type { LoadConfig, LoadResult } from './lib/types.ts';

function runOnce(config: LoadConfig, durationSec: number): Promise<autocannon.Result> {
  return autocannon({
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

async function main(): Promise<void> {
  const raw = process.argv[2];
  if (!raw) throw new Error('usage: load-worker.ts <LoadConfig JSON>');
  const config = JSON.parse(raw) as LoadConfig;
  // Warm-up: lets V8 optimise the hot paths and the pool fill up; its numbers are dropped.
  if (config.warmupSec > 0) await runOnce(config, config.warmupSec);
  // The requests the warm-up abandoned are still being served; don't count them.
  const settled = config.serverPid ? await waitForIdle(config.serverPid) : 0;
  const result = await runOnce(config, config.durationSec);
  process.stdout.write(JSON.stringify(toLoadResult(result, settled)) + '\n');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
