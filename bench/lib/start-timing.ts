// How long the embedded server takes to answer, from spawn to the first 200 of /status (issue 42: the first
// start under 3 s on a 2-core machine), in turns with a floor that no code of ours can remove: PGlite alone
// starting PostgreSQL on a migrated folder with the server's settings and answering `select 1`, in a bare Node
// process. Each case runs once per round, the order rotated (A B C, B C A, C A B, …) so the machine's drift hits
// all alike. Every first start gets a fresh, empty data folder (it copies the build's template, and loads the
// demo data as `npm start` does); every restart opens the folder the previous first start made.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, spawnNode, waitForHttp } from './child.ts';
import { median } from './paired.ts';
import { readRssMb } from './rss.ts';
import { SERVER_MALLOC_ARENA_MAX, SERVER_MALLOC_MMAP_THRESHOLD, SERVER_UV_THREADPOOL_SIZE } from './server-process.ts';
import { EMBEDDED_START_PARAMS } from '../../src/platform/db/embedded-pglite.ts';
import { copyTemplate, templateDir } from '../../src/platform/db/data-template.ts';

export const START_LIMIT_SEC = 3;

/** PGlite's own start on a folder with the server's PostgreSQL settings (V8's defaults, as the server's), until `select 1` answers. */
const PGLITE_FLOOR = [
  '-e',
  "const { PGlite } = require('@electric-sql/pglite');" +
    '(async () => { const db = await PGlite.create({ dataDir: process.env.DATA_DIR, startParams: JSON.parse(process.env.PGLITE_START_PARAMS) });' +
    ' await db.query("select 1"); process.stdout.write("ready\\n"); await db.close(); })()' +
    '.catch((e) => { console.error(e); process.exit(1); });',
];

export interface StartRow {
  label: string;
  seconds: number[];
  medianSec: number;
  ratioToFloor: number;
}

function serverEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    MALLOC_ARENA_MAX: SERVER_MALLOC_ARENA_MAX,
    UV_THREADPOOL_SIZE: SERVER_UV_THREADPOOL_SIZE,
    MALLOC_MMAP_THRESHOLD_: SERVER_MALLOC_MMAP_THRESHOLD,
  };
}

/** Spawn of the built server to its first /status 200, in seconds; the server is stopped after. */
async function serverStart(repoRoot: string, dataDir: string): Promise<number> {
  const port = await freePort();
  const began = performance.now();
  const { child, running } = spawnNode('start-timing', ['dist/main.mjs', 'serve'], { cwd: repoRoot, env: serverEnv(dataDir, port), port });
  try {
    await waitForHttp(child, running, '/status', 300_000);
    return (performance.now() - began) / 1000;
  } finally {
    await running.stop();
  }
}

/** Spawn of the floor to its "ready", in seconds. */
function floorStart(repoRoot: string, dataDir: string): Promise<number> {
  const began = performance.now();
  const child = spawn(process.execPath, PGLITE_FLOOR, {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PGLITE_START_PARAMS: JSON.stringify(EMBEDDED_START_PARAMS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let seconds: number | undefined;
    child.stdout.on('data', (d) => {
      if (seconds === undefined && String(d).includes('ready')) seconds = (performance.now() - began) / 1000;
    });
    child.on('exit', (code) => (code === 0 && seconds !== undefined ? resolve(seconds) : reject(new Error(`PGlite floor exited ${code}`))));
  });
}

export async function measureStartTiming(repoRoot: string, rounds: number): Promise<StartRow[]> {
  const template = templateDir(repoRoot);
  if (!template || !fs.existsSync(path.join(template, 'template.json'))) throw new Error('no data template: run `npm run build` first');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-bench-start-'));
  try {
    // The floor's folder: a migrated copy, made once (PGlite's start does not change what the next one reads).
    const floorDir = path.join(work, 'floor');
    copyTemplate(path.join(template, 'data'), floorDir);
    let made = path.join(work, 'made-0');
    await serverStart(repoRoot, made); // a folder for the first restart, untimed
    const cases = [
      { label: 'PGlite alone: start on a migrated folder, `select 1` (floor)', run: () => floorStart(repoRoot, floorDir) },
      {
        label: 'first start: new folder (template copied), demo data, until /status answers',
        run: async (r: number) => {
          const dir = path.join(work, `made-${r + 1}`);
          const s = await serverStart(repoRoot, dir);
          fs.rmSync(made, { recursive: true, force: true });
          made = dir;
          return s;
        },
      },
      { label: 'restart: the folder a first start made, until /status answers', run: () => serverStart(repoRoot, made) },
    ];
    const seconds: number[][] = cases.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < cases.length; k++) {
        const i = (r + k) % cases.length;
        seconds[i]!.push(await cases[i]!.run(r));
      }
    }
    const floor = median(seconds[0]!);
    return cases.map((c, i) => ({ label: c.label, seconds: seconds[i]!, medianSec: median(seconds[i]!), ratioToFloor: median(seconds[i]!) / floor }));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The resident memory of `npm start`'s process tree once idle: npm stays as the server's parent (Node 20 cannot exec). */
export async function measureNpmStartTree(repoRoot: string, dataDir: string): Promise<{ npmMb: number | null; serverMb: number | null; treeMb: number }> {
  const port = await freePort();
  const npm = spawn('npm', ['start', '--silent'], { cwd: repoRoot, env: serverEnv(dataDir, port), stdio: 'ignore', detached: true });
  try {
    const deadline = Date.now() + 300_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error('npm start did not answer');
      const ok = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 5_000)); // idle
    const tree = descendants(npm.pid!);
    const sizes = tree.map((pid) => readRssMb(pid) ?? 0);
    return { npmMb: readRssMb(npm.pid!), serverMb: readRssMb(tree.at(-1)!), treeMb: sizes.reduce((a, b) => a + b, 0) };
  } finally {
    process.kill(-npm.pid!, 'SIGTERM');
    await new Promise((r) => npm.once('exit', r));
  }
}

/** `pid` and every process below it, parents first (from /proc/<pid>/stat's parent field). */
function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, ppid] of parentOf) if (ppid === out[i]) out.push(pid);
  return out;
}

export function renderStartTiming(rows: StartRow[], rounds: number, npmTree?: Awaited<ReturnType<typeof measureNpmStartTree>>): { table: string[]; checks: string[] } {
  const s = (x: number) => `${x.toFixed(2)} s`;
  const table = [
    `| case (${rounds} runs each, in turns) | median | min–max | × floor |`,
    '| --- | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.label} | ${s(r.medianSec)} | ${s(Math.min(...r.seconds))}–${s(Math.max(...r.seconds))} | ${r.ratioToFloor.toFixed(1)} |`),
  ];
  if (npmTree) {
    const mb = (x: number | null) => (x === null ? '?' : x.toFixed(0));
    table.push('', `\`npm start\` idle, resident memory: npm ${mb(npmTree.npmMb)} MB + server ${mb(npmTree.serverMb)} MB = the whole tree ${mb(npmTree.treeMb)} MB`);
  }
  const first = rows[1]!;
  const checks = [
    `${first.medianSec < START_LIMIT_SEC ? 'PASS' : 'FAIL'} first start < ${START_LIMIT_SEC} s (median ${s(first.medianSec)}, ${first.ratioToFloor.toFixed(1)}× PGlite's own start; on this machine at this load)`,
  ];
  return { table, checks };
}
