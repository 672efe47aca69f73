// Write latency against cluster size (issue 15, point 5): N server processes on one PostgreSQL database,
// read load on every one of them, and the option creates of a separate client timed one after another.
// Every option create announces FIELD_OPTIONS_TOPIC on the change feed and answers only when every
// listening node acknowledged it, so its p99 shows whether one busy node delays the writes of the cluster.
//
//   npx tsx bench/feed-latency.ts                     # N = 1 and 4, 20 s of writes each
//   npx tsx bench/feed-latency.ts --nodes 1,2,4,8 --seconds 30 --connections 8
//   npx tsx bench/feed-latency.ts --rate 100         # 100 reads/s per node instead of as many as possible
//
// The servers run from the bundle (bin/addon-pair.mjs, as `npm start`); the read load (GET
// /rest/api/2/myself as the administrator, cached credentials) comes from one autocannon child process with
// `--connections` connections per node, so the load generator costs the same CPU whatever N is.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createThrowAwayDatabase, DEFAULT_BENCH_DATABASE_URL } from './lib/database.ts';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startAppServer } from './lib/server-process.ts';
import type { RunningChild } from './lib/child.ts';
import { currentLoad, writeSideReport } from './lib/side-report.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FE = '/rest/trackercustomfieldeditorplugin/1';
const SELECT = 'com.atlassian.jira.plugin.system.customfieldtypes:select';
const AUTH = `Basic ${Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString('base64')}`;
const METRICS_TOKEN = 'feed-latency-bench-metrics';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '1,4' },
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '8' },
    /** Requests per second per node (0: as many as the connections manage). */
    rate: { type: 'string', default: '0' },
  },
});
const counts = values.nodes.split(',').map(Number);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const rate = Number(values.rate);

async function json(url: string, method: string, body?: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method,
    headers: { authorization: AUTH, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

/** One autocannon process putting `connections` connections of GET /myself on each URL until killed. */
function readLoad(urls: string[]): { stop(): Promise<number> } {
  const code = `
    const autocannon = require('autocannon');
    const urls = JSON.parse(process.argv[1]);
    let total = 0;
    const runs = urls.map((url) => autocannon({ url: url + '/rest/api/2/myself', connections: ${connections}, duration: 3600,${rate > 0 ? ` overallRate: ${rate},` : ''}
      headers: { authorization: ${JSON.stringify(AUTH)} } }, () => undefined));
    for (const r of runs) r.on('response', () => total++);
    process.on('SIGTERM', () => { for (const r of runs) r.stop(); setTimeout(() => { console.log(JSON.stringify({ total })); process.exit(0); }, 200); });
  `;
  const child = spawn(process.execPath, ['-e', code, JSON.stringify(urls)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return {
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      return (JSON.parse(out.trim().split('\n').pop() || '{"total":0}') as { total: number }).total;
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(n: number): Promise<Record<string, number>> {
  const db = await createThrowAwayDatabase(process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL);
  const servers: RunningChild[] = [];
  try {
    const storage = { kind: 'postgres' as const, databaseUrl: db.url };
    const env = { METRICS_TOKEN };
    servers.push(await startAppServer(ROOT, storage, 'bin/addon-pair.mjs', env));
    servers.push(
      ...(await Promise.all(
        Array.from({ length: n - 1 }, () => startAppServer(ROOT, storage, 'bin/addon-pair.mjs', env)),
      )),
    );
    const writer = servers[0]!.baseUrl;
    const field = (await json(`${writer}/rest/api/2/field`, 'POST', {
      name: `Feed bench ${Date.now()}`,
      type: SELECT,
    })) as { schema: { customId: number } };
    const fieldId = field.schema.customId;
    const contexts = (await json(`${writer}${FE}/admin/customfields/${fieldId}/contexts`, 'GET')) as {
      contextId: number;
    }[];
    await json(`${writer}${FE}/admin/customfields/${fieldId}`, 'PUT', {
      userlist: [ADMIN_USERNAME],
      grouplist: [],
    });
    const optionsUrl = `${writer}${FE}/user/customfields/${fieldId}/contexts/${contexts[0]!.contextId}/options`;

    // One request per node first: the first Basic login of a node costs the slow hash (about a second on a
    // loaded VM); eight connections starting cold on every node would measure hashing, not the feed.
    for (const s of servers) await json(`${s.baseUrl}/rest/api/2/myself`, 'GET');
    const load = readLoad(servers.map((s) => s.baseUrl));
    await new Promise((r) => setTimeout(r, 3000)); // the load settles
    const times: number[] = [];
    const until = Date.now() + seconds * 1000;
    for (let i = 0; Date.now() < until; i++) {
      const started = performance.now();
      await json(optionsUrl, 'POST', { optionvalue: `Option ${n}-${i}` });
      times.push(performance.now() - started);
    }
    const reads = await load.stop();
    times.sort((a, b) => a - b);
    // The part of each create spent waiting for the other nodes' acknowledgements (the writer's metrics).
    const scrape = async (url: string) =>
      (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const sum = (text: string, name: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith(name))
        .reduce((total, l) => total + Number(l.split(' ').pop()), 0);
    const metrics = await scrape(writer);
    const metric = (name: string) => sum(metrics, name);
    // Credential cache misses on every node: a read that missed paid the slow hash.
    let authMisses = 0;
    for (const s of servers)
      authMisses += sum(await scrape(s.baseUrl), 'addon_pair_cache_misses_total{cache="auth_basic"}');
    const ackCount = metric('addon_pair_change_feed_ack_wait_seconds_count');
    const ackMeanMs = ackCount
      ? (metric('addon_pair_change_feed_ack_wait_seconds_sum') / ackCount) * 1000
      : 0;
    const timedOut = metric('addon_pair_change_feed_ack_wait_seconds_count{outcome="timed_out"}');
    return {
      nodes: n,
      creates: times.length,
      p50: percentile(times, 50),
      p90: percentile(times, 90),
      p99: percentile(times, 99),
      max: times.at(-1)!,
      readsPerSec: reads / (seconds + 3),
      ackMeanMs,
      timedOut,
      authMisses,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await db.drop();
  }
}

const loadAtStart = currentLoad();
const rows = [];
for (const n of counts) {
  const row = await measure(n);
  console.error(JSON.stringify(row));
  rows.push(row);
}
const table = [
  '| nodes | creates | p50 ms | p90 ms | p99 ms | max ms | reads/s (all nodes) | mean ack wait ms | acks timed out | credential cache misses |',
  '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.nodes} | ${r.creates} | ${r.p50!.toFixed(1)} | ${r.p90!.toFixed(1)} | ${r.p99!.toFixed(1)} | ${r.max!.toFixed(1)} | ${Math.round(r.readsPerSec!)} | ${r.ackMeanMs!.toFixed(1)} | ${r.timedOut} | ${r.authMisses} |`,
  ),
];
console.log(table.join('\n'));
const file = writeSideReport(
  'feed-latency',
  'Write latency against cluster size (issue 15)',
  `npx tsx bench/feed-latency.ts ${process.argv.slice(2).join(' ')}`.trim(),
  table,
  loadAtStart,
);
console.log(`wrote ${path.relative(ROOT, file)}`);
