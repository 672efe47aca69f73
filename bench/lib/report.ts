// Renders the results: a Markdown table (console + bench/results/latest.md) and the
// full JSON (bench/results/<timestamp>.json, git-ignored).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScenarioResult } from './types.ts';

export interface RunMeta {
  startedAt: string;
  /** 'postgres' or 'pglite'; latest.md keeps one section per storage. */
  storage: 'postgres' | 'pglite';
  storageDetail: string;
  /** The embedded default's memory figures and their check (PostgreSQL runs only; embedded-memory.ts). */
  embedded?: string[];
  /** The multi-process scenario's table (PostgreSQL runs only; cluster.ts) and its target check line. */
  cluster?: { table: string[]; checks: string[] };
  /** The command line's times and their checks (PostgreSQL runs only; cli-timing.ts). */
  cli?: { table: string[]; checks: string[] };
  durationSec: number;
  warmupSec: number;
  rounds: number;
  connections: number;
  only: string | null;
  /** `--compare <entry>`: the other build every scenario was measured against (bench/lib/compare.ts). */
  compareEntry?: string | null;
  /** `--compare-env`: what the compared server alone was given. */
  compareEnv?: Record<string, string>;
  /** `--iterations`: the timed calls of every latency scenario, when set. */
  iterations?: number | null;
  node: string;
  cpu: string;
  cores: number;
  /** 1-minute load average before the run: others sharing the machine skew the numbers. */
  loadAverage: number;
  serverEntry: string;
  serverEnv: Record<string, string>;
}

/** A row with no measurement yet: a scenario that failed or was skipped, or the start of one that ran. */
export function emptyResult(name: string, kind: ScenarioResult['kind']): ScenarioResult {
  return {
    name,
    kind,
    requestsPerSec: null,
    p50Ms: 0,
    p99Ms: 0,
    errorsAndNon2xx: 0,
    totalRequests: 0,
    peakRssMb: null,
    ratioToNodeHttp: null,
    ratioToExpress: null,
    checks: [],
  };
}

const num = (n: number | null, digits: number): string => (n === null ? '—' : n.toFixed(digits));

/** autocannon records whole milliseconds, so 0 means "under 1 ms". */
const ms = (n: number, kind: ScenarioResult['kind']): string =>
  kind === 'latency' ? n.toFixed(2) : n === 0 ? '<1' : n.toFixed(0);

function verdictCell(r: ScenarioResult): string {
  if (r.error) return '**ERROR**';
  if (r.skipped) return 'SKIP';
  const failed = r.checks.filter((c) => c.verdict === 'FAIL').length;
  if (failed > 0) return `**FAIL** (${failed})`;
  if (r.checks.length === 0) return '';
  return r.checks.some((c) => c.verdict === 'SKIP') ? 'PASS (some skipped)' : 'PASS';
}

export function renderTable(results: readonly ScenarioResult[]): string {
  const head =
    '| scenario | req/s | p50 ms | p99 ms | errors + non-2xx | server RSS MB (peak) | × node:http | express req/s (paired) | × express | × express per round | × main server | nginx (or paired request) req/s | × nginx (or paired) | × nginx (or paired) per round | targets |';
  const rule = '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---|';
  const rows = results.map((r) => {
    const name = r.kind === 'latency' ? `${r.name} (sequential, median/p99)` : r.name;
    const errors = r.kind === 'latency' ? '—' : String(r.errorsAndNon2xx);
    const cells = [
      name,
      num(r.requestsPerSec, 0),
      r.error || r.skipped ? '—' : ms(r.p50Ms, r.kind),
      r.error || r.skipped ? '—' : ms(r.p99Ms, r.kind),
      errors,
      num(r.peakRssMb, 0),
      num(r.ratioToNodeHttp, 2),
      r.pairedExpressRps ? String(Math.round(r.pairedExpressRps)) : '',
      num(r.ratioToExpress, 2),
      (r.roundRatios ?? []).map((x) => x.toFixed(2)).join(' '),
      // The variant's rate over the main server's, then its requests per server CPU second over the main server's.
      r.cpuRatioToMain !== undefined && r.cpuRatioToMain !== null ? `${num(r.ratioToMain ?? null, 2)} (per CPU s ${num(r.cpuRatioToMain, 2)})` : num(r.ratioToMain ?? null, 2),
      // The third side of the rounds: nginx, or the scenario's paired request (bench README).
      r.pairedNginxRps ? String(Math.round(r.pairedNginxRps)) : r.nginxSkipped ? 'skipped' : r.pairedRps ? `${Math.round(r.pairedRps)} (${r.pairedLabel ?? 'paired'})` : '',
      r.ratioToNginx !== undefined ? num(r.ratioToNginx, 2) : r.ratioToPaired !== undefined ? num(r.ratioToPaired, 2) : '',
      (r.nginxRoundRatios ?? r.pairedRoundRatios ?? []).map((x) => x.toFixed(2)).join(' '),
      verdictCell(r),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [head, rule, ...rows].join('\n');
}

/**
 * The latency scenarios of a `--compare` run: each build's median and p90 over the same alternating calls, and
 * the compared build's rate over the main build's (rate = 1 / median). Empty when there were none.
 */
export function renderBuildsTable(results: readonly ScenarioResult[]): string {
  const rows = results.flatMap((r) => {
    const b = r.builds;
    if (!b) return [];
    const cells = [r.name, String(r.totalRequests), b.main.p50Ms.toFixed(2), b.main.p90Ms.toFixed(2), b.compared.p50Ms.toFixed(2), b.compared.p90Ms.toFixed(2), num(r.ratioToMain ?? null, 2), verdictCell(r)];
    return [`| ${cells.join(' | ')} |`];
  });
  if (rows.length === 0) return '';
  return [
    'Latency scenarios on both builds, call for call in turns (bench/README.md, "Two builds in turns"):',
    '',
    '| scenario | calls per build | main build median ms | main build p90 ms | compared build median ms | compared build p90 ms | × main build (rate) | targets |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}

/**
 * The `pairWithNginx` scenarios against every server of the same bytes in their rounds (bench/lib/static-sides.ts):
 * one row per scenario and server. Empty when no scenario had them.
 */
export function renderStaticTable(results: readonly ScenarioResult[]): string {
  const rows = results.flatMap((r) =>
    (r.staticSides ?? []).map((side) => {
      const cells = side.skipped
        ? [r.name, side.label, 'skipped', '—', side.skipped, '—']
        : [r.name, side.label, num(side.requestsPerSec, 0), num(side.ratio, 2), side.roundRatios.map((x) => x.toFixed(2)).join(' '), num(side.cpuRatio ?? null, 2)];
      return `| ${cells.join(' | ')} |`;
    }),
  );
  if (rows.length === 0) return '';
  return [
    'Against servers of the same bytes, in the same rounds (bench/README.md, "Servers of the same bytes"):',
    '',
    '| scenario | server of the same bytes | its req/s (paired) | scenario × it (median) | × it per round | × it per server CPU s (median) |',
    '|---|---|---:|---:|---|---:|',
    ...rows,
  ].join('\n');
}

export function renderChecks(results: readonly ScenarioResult[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    if (r.error) lines.push(`ERROR ${r.name}: ${r.error.split('\n')[0]}`);
    if (r.skipped) lines.push(`SKIP  ${r.name}: ${r.skipped}`);
    for (const c of r.checks) lines.push(`${c.verdict.padEnd(4)}  ${r.name}: ${c.label} (got ${c.detail})`);
  }
  return lines;
}

export function renderMarkdownSection(meta: RunMeta, results: readonly ScenarioResult[]): string {
  const env = Object.entries(meta.serverEnv)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return [
    `### ${meta.storage === 'postgres' ? 'PostgreSQL' : 'PGlite'} — ${meta.startedAt}`,
    '',
    `- storage: ${meta.storageDetail}`,
    `- load: autocannon in a separate process, ${meta.connections} connections, ${meta.durationSec} s measured ` +
      `after ${meta.warmupSec} s warm-up per scenario, in ${meta.rounds} rounds taking turns with the Express baseline` +
      `${meta.only ? `, only scenarios matching "${meta.only}"` : ''}` +
      `${meta.compareEntry ? `; --compare: each scenario on \`${meta.compareEntry}\` in turns with the main server (× main server: that build over the main one)` : ''}`,
    `- machine: ${meta.cores} × ${meta.cpu}, Node ${meta.node}, load average ${meta.loadAverage.toFixed(2)} at start`,
    `- server: \`${/\.m?js$/.test(meta.serverEntry) ? "node --max-semi-space-size=4" : "node --import tsx"} ${meta.serverEntry} serve\` with \`${env}\``,
    '',
    renderTable(results),
    '',
    ...(renderStaticTable(results) ? [renderStaticTable(results), ''] : []),
    'Target checks:',
    '',
    '```',
    ...renderChecks(results),
    ...(meta.embedded ?? []).slice(1),
    ...(meta.cluster?.checks ?? []),
    ...(meta.cli?.checks ?? []),
    '```',
    ...(meta.embedded?.[0] ? ['', `Embedded default: ${meta.embedded[0].replace(/^embedded default /, '')}`] : []),
    ...(meta.cluster ? ['', ...meta.cluster.table] : []),
    ...(meta.cli ? ['', ...meta.cli.table] : []),
  ].join('\n');
}

const HEADER = `# Benchmark results

Written by \`npm run bench\` (see bench/README.md). Each storage keeps its own latest run below.
`;

/** Replaces this storage's section of latest.md and leaves the other one in place. */
function mergeLatest(previous: string | null, storage: string, section: string): string {
  const start = `<!-- bench:${storage}:start -->`;
  const end = `<!-- bench:${storage}:end -->`;
  const block = `${start}\n${section}\n${end}`;
  const doc = previous ?? HEADER;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from >= 0 && to > from) return doc.slice(0, from) + block + doc.slice(to + end.length);
  return `${doc.trimEnd()}\n\n${block}\n`;
}

export async function writeResults(
  resultsDir: string,
  meta: RunMeta,
  results: readonly ScenarioResult[],
): Promise<{ markdownPath: string | null; jsonPath: string }> {
  await mkdir(resultsDir, { recursive: true });
  // Colons are not allowed in file names on every system the repo may be checked out on.
  const jsonPath = join(resultsDir, `${meta.startedAt.replace(/:/g, '-')}.json`);
  await writeFile(jsonPath, JSON.stringify({ meta, results }, null, 2) + '\n');

  // latest.md is the committed picture of a *full* run; an --only run would replace it
  // with a fragment, and a --compare run measures something else, so they only get their JSON.
  if (meta.only || meta.compareEntry) return { markdownPath: null, jsonPath };
  const markdownPath = join(resultsDir, 'latest.md');
  const previous = await readFile(markdownPath, 'utf8').catch(() => null);
  await writeFile(markdownPath, mergeLatest(previous, meta.storage, renderMarkdownSection(meta, results)));
  return { markdownPath, jsonPath };
}
