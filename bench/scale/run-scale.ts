// The scale run as one call: the N-node scenario (scale.ts), then, when a second build is given, the
// before/after rates in turns (ab.ts); writes scale.md and scale.json into `outDir`. Used by main.ts (the
// standalone command, bundled into the kit) and by `npm run bench -- --only scale` (run.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createThrowAwayDatabase } from '../lib/database.ts';
import { measureAb, renderAb, type AbOptions, type AbRow } from './ab.ts';
import { measureScale, renderScale, type ScaleOptions, type ScaleStep } from './scale.ts';
import { stopAllNodes } from './nodes.ts';
import { corePlan, coresOf } from './wrk.ts';

export interface ScaleRunOptions {
  entry: string;
  /** The build before, for the comparison in turns; none: no comparison. */
  beforeEntry?: string;
  adminUrl: string;
  outDir: string;
  commit: string;
  beforeCommit: string;
  /** The command line, for the report. */
  command: string;
  nodes: number[];
  writeSec: number;
  readSec: number;
  warmupSec: number;
  writeClients: number;
  readConnections: number;
  abRounds: number;
  abSec: number;
  abClients: number[];
}

const loadavg = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/** PostgreSQL's cores, read from its backend's /proc entry (run-on-bare.sh pins it), and its version. */
async function postgresInfo(adminUrl: string): Promise<string> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const r = await c.query<{ pid: number; v: string; mc: string }>("select pg_backend_pid() as pid, version() as v, current_setting('max_connections') as mc");
    const row = r.rows[0]!;
    return `${row.v.split(' ').slice(0, 2).join(' ')}, max_connections ${row.mc}, cores ${coresOf(row.pid)}`;
  } finally {
    await c.end();
  }
}

/**
 * `onCleanup`: where a caller with its own Ctrl-C handling (run.ts) registers the stopping of servers and the
 * dropping of databases; without it, SIGINT and SIGTERM (the kit's time budget) stop them here, after the
 * figures so far are written.
 */
export async function runScaleBench(
  o: ScaleRunOptions,
  log: (line: string) => void = console.log,
  onCleanup?: (step: () => Promise<void>) => void,
): Promise<{ markdown: string; failed: boolean }> {
  const cores = corePlan();
  const cleanups: Array<() => Promise<void>> = [];
  const cleanup = async () => {
    for (const f of cleanups.splice(0).reverse()) await f().catch((e: unknown) => log(`cleanup: ${String(e)}`));
  };
  const started = new Date().toISOString();
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? '?'}, Node ${process.version}`;
  const pgInfo = await postgresInfo(o.adminUrl);
  log(`scale run: commit ${o.commit}; ${machine}; ${pgInfo}; server cores ${cores.servers.join(',')}, load cores ${cores.load.join(',')}; load ${loadavg()}`);
  const json: { started: string; commit: string; beforeCommit: string; machine: string; postgres: string; cores: typeof cores; options: ScaleRunOptions; scale?: ScaleStep[]; ab?: AbRow[]; errors: string[] } = {
    started, commit: o.commit, beforeCommit: o.beforeCommit, machine, postgres: pgInfo, cores, options: o, errors: [],
  };
  const md: string[] = [
    '# Option writes and E1 reads against the number of nodes (issue 40)',
    '',
    `Written by \`${o.command}\` at ${started}. Commit ${o.commit}. ${machine}. ${pgInfo}. Load average at start ${loadavg()}.`,
    '',
    '## N nodes on one PostgreSQL',
    '',
  ];
  // Written after each part too, so that a run stopped by its time budget still hands back what it measured.
  function flush(): void {
    fs.mkdirSync(o.outDir, { recursive: true });
    fs.writeFileSync(path.join(o.outDir, 'scale.md'), md.join('\n') + '\n');
    fs.writeFileSync(path.join(o.outDir, 'scale.json'), JSON.stringify(json, null, 2));
  }
  let scaleOptions: Omit<ScaleOptions, 'log'> | undefined;
  if (onCleanup) onCleanup(cleanup);
  else {
    const stop = (code: number) => () => {
      if (json.scale && scaleOptions && !md.some((l) => l.startsWith('| nodes'))) md.push(...renderScale(json.scale, scaleOptions));
      md.push('', `Stopped by a signal: the figures above are all there are.`);
      flush();
      void stopAllNodes()
        .then(cleanup)
        .finally(() => process.exit(code));
    };
    process.once('SIGINT', stop(130));
    process.once('SIGTERM', stop(143));
  }
  try {
    const db = await createThrowAwayDatabase(o.adminUrl);
    cleanups.push(() => db.drop());
    const so: Omit<ScaleOptions, 'log'> = (scaleOptions = { entry: o.entry, databaseUrl: db.url, nodes: o.nodes, writeSec: o.writeSec, readSec: o.readSec, warmupSec: o.warmupSec, writeClients: o.writeClients, readConnections: o.readConnections, cores });
    log(`▶ scale: N = ${o.nodes.join(', ')}`);
    json.scale = [];
    await measureScale({ ...so, log }, cleanups, json.scale);
    md.push(...renderScale(json.scale, so));
    flush();
    await cleanup();
  } catch (err) {
    json.errors.push(`scale: ${err instanceof Error ? err.message : String(err)}`);
    md.push(`ERROR: ${json.errors.at(-1)}`);
    log(json.errors.at(-1)!);
    await cleanup();
  }
  if (o.beforeEntry) {
    md.push('', '## One node: this build against the build before, in turns', '');
    try {
      const ao: Omit<AbOptions, 'log'> = { afterEntry: o.entry, beforeEntry: o.beforeEntry, adminUrl: o.adminUrl, ops: ['create', 'rename', 'move'], clients: o.abClients, rounds: o.abRounds, roundSec: o.abSec, warmupSec: Math.min(o.warmupSec, 2), cores };
      log(`▶ before/after: ${o.commit} against ${o.beforeCommit}`);
      json.ab = await measureAb({ ...ao, log }, cleanups);
      md.push(...renderAb(json.ab, ao, { after: o.commit, before: o.beforeCommit }));
    } catch (err) {
      json.errors.push(`before/after: ${err instanceof Error ? err.message : String(err)}`);
      md.push(`ERROR: ${json.errors.at(-1)}`);
      log(json.errors.at(-1)!);
    }
    await cleanup();
  }
  md.push('', `Load average at the end: ${loadavg()}.`, '');
  flush();
  log(`wrote ${path.join(o.outDir, 'scale.md')} and scale.json`);
  return { markdown: md.join('\n'), failed: json.errors.length > 0 };
}
