// How long the command line takes, from spawn to exit, as a provisioning script sees it (issue 14: `help` and
// `user add` under 0.5 s, from the built bundle). Every case runs `node bin/addon-pair.mjs …` as `npx
// addon-pair` does, in turns with the others (A B C …, then rotated) so that the machine's drift hits all
// alike, and beside floors that no code of ours can remove: a bare `node -e 0`, and PGlite alone opening the
// same folder, answering `select 1` and closing (what a command on the embedded database with no server
// running cannot do without), alone and while a password is hashed (what `user add` also cannot do without).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnNode, waitForHttp, type RunningChild } from './child.ts';
import { createThrowAwayDatabase } from './database.ts';
import { median } from './paired.ts';
import { SHORT_RUN_V8_FLAGS } from '../../src/platform/db/short-run-wasm.ts';
import { COMMAND_START_PARAMS } from '../../src/platform/db/embedded-pglite.ts';
import { DEFAULT_COST, scryptOptions } from '../../src/platform/auth/password-hasher.ts';

export const CLI_LIMIT_SEC = 0.5;
/** Its name for `--only`. */
export const CLI_SCENARIO = 'cli';
/** Runs of each case in `npm run bench` (bench/cli-timing.ts takes `--runs`). */
export const CLI_RUNS = 10;

interface CliCase {
  label: string;
  /** What follows `node`: the command line's entry point and arguments, or a floor's script. */
  nodeArgs: (run: number) => string[];
  env: NodeJS.ProcessEnv;
  /** Held to the 0.5 s of the issue; the floors are baselines, not targets. */
  target: boolean;
  /** The floor case this one cannot go below; its check line quotes it. */
  floor?: CliCase;
  /** How a check line names this case when it is another's floor. */
  floorName?: string;
}

/**
 * PGlite's own start on a folder, in a bare Node process: open it, `select 1`, close, with the V8 settings
 * (short-run-wasm.ts) and PostgreSQL settings (embedded-pglite.ts) the commands run with, so that the floor
 * starts PGlite as they do. The settings travel in PGLITE_START_PARAMS. With HASH_OPTIONS, a password is hashed
 * meanwhile on the thread pool with those scrypt options, as `user add` does (main.ts): on two cores the hash and
 * PGlite's start compete, and the two together are what `user add` cannot go below.
 */
const PGLITE_ALONE = [
  ...SHORT_RUN_V8_FLAGS.split(' '),
  '-e',
  'if (process.env.HASH_OPTIONS) { const crypto = require("node:crypto");' +
    ' crypto.scrypt("bench-user-password", crypto.randomBytes(16), 32, JSON.parse(process.env.HASH_OPTIONS), (e) => { if (e) throw e; }); }' +
    "const { PGlite } = require('@electric-sql/pglite');" +
    '(async () => { const db = await PGlite.create({ dataDir: process.env.DATA_DIR, startParams: JSON.parse(process.env.PGLITE_START_PARAMS) });' +
    ' await db.query("select 1"); await db.close(); })()' +
    '.catch((e) => { console.error(e); process.exit(1); });',
];

export interface CliTimingRow {
  label: string;
  medianSec: number;
  minSec: number;
  maxSec: number;
  ratioToNode: number;
  target: boolean;
  /** The median of the case's floor, when it has one, and how the check line names that floor. */
  floor?: { sec: number; name: string };
}

function timeOnce(repoRoot: string, command: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(process.execPath, command, { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.once('error', reject);
    child.once('exit', (code) => {
      const seconds = (performance.now() - began) / 1000;
      if (code === 0) resolve(seconds);
      else reject(new Error(`${command.join(' ')} exited with ${code}: ${stderr.trim()}`));
    });
  });
}

const cli = (...args: string[]) => ['bin/addon-pair.mjs', ...args];

function runCli(repoRoot: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return timeOnce(repoRoot, cli(...args), env);
}

/** The embedded server of `npm start` on `dataDir`, from the bundle, to take the command line's commands. */
async function startEmbedded(repoRoot: string, dataDir: string, base: NodeJS.ProcessEnv): Promise<RunningChild> {
  const port = await freePort();
  const env = { ...base, PORT: String(port), HOST: '127.0.0.1', BASE_URL: `http://127.0.0.1:${port}` };
  const { child, running } = spawnNode('cli-embedded', ['dist/main.mjs', 'serve'], { cwd: repoRoot, env, port });
  await waitForHttp(child, running, '/status', 300_000);
  return running;
}

export async function measureCliTiming(repoRoot: string, adminUrl: string, runs: number): Promise<CliTimingRow[]> {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', DEMO: '0', ADMIN_PASSWORD: 'bench-admin-pw' };
  const folders = mkdtempSync(join(tmpdir(), 'addon-pair-bench-cli-'));
  const stoppedEnv = { ...base, DATABASE_URL: '', DATA_DIR: join(folders, 'stopped') };
  const runningEnv = { ...base, DATABASE_URL: '', DATA_DIR: join(folders, 'running') };
  const database = await createThrowAwayDatabase(adminUrl);
  const pgEnv = { ...base, DATABASE_URL: database.url };
  let server: RunningChild | undefined;
  try {
    // The bundle is built and each database made before anything is timed.
    await runCli(repoRoot, ['migrate'], pgEnv);
    await runCli(repoRoot, ['migrate'], stoppedEnv);
    server = await startEmbedded(repoRoot, runningEnv.DATA_DIR!, runningEnv);
    const userAdd = (prefix: string) => (run: number) => cli('user', 'add', `${prefix}${run}`, '--password', 'bench-user-password');
    const pgliteAlone: CliCase = {
      label: 'PGlite alone: open that folder, `select 1`, close (V8 and PostgreSQL set as for the commands)',
      nodeArgs: () => PGLITE_ALONE,
      env: { ...stoppedEnv, PGLITE_START_PARAMS: JSON.stringify(COMMAND_START_PARAMS) },
      target: false,
    };
    const pgliteWhileHashing: CliCase = {
      label: 'the same while a password is hashed on the thread pool (scrypt at the production cost)',
      nodeArgs: () => PGLITE_ALONE,
      env: { ...pgliteAlone.env, HASH_OPTIONS: JSON.stringify(scryptOptions(DEFAULT_COST)) },
      target: false,
      floorName: 'PGlite alone on the folder while a password is hashed',
    };
    const cases: CliCase[] = [
      { label: 'bare Node start (`node -e 0`)', nodeArgs: () => ['-e', '0'], env: base, target: false },
      { label: '`help`', nodeArgs: () => cli('help'), env: base, target: true },
      { label: '`user add` on PostgreSQL', nodeArgs: userAdd('pg'), env: pgEnv, target: true },
      { label: '`user add`, embedded, server running', nodeArgs: userAdd('running'), env: runningEnv, target: true },
      { label: '`user add`, embedded, no server', nodeArgs: userAdd('stopped'), env: stoppedEnv, target: true, floor: pgliteWhileHashing },
      pgliteAlone,
      pgliteWhileHashing,
    ];
    const times = cases.map(() => [] as number[]);
    for (let run = 0; run < runs; run++) {
      for (let k = 0; k < cases.length; k++) {
        const i = (k + run) % cases.length;
        const c = cases[i]!;
        times[i]!.push(await timeOnce(repoRoot, c.nodeArgs(run), c.env));
      }
    }
    const node = median(times[0]!);
    return cases.map((c, i) => {
      const t = times[i]!;
      const floor = c.floor && { sec: median(times[cases.indexOf(c.floor)]!), name: c.floor.floorName ?? c.floor.label };
      return { label: c.label, medianSec: median(t), minSec: Math.min(...t), maxSec: Math.max(...t), ratioToNode: median(t) / node, target: c.target, floor };
    });
  } finally {
    await server?.stop();
    await database.drop();
    rmSync(folders, { recursive: true, force: true });
  }
}

/** The table and one check line per case held to the limit, as run.ts prints its other targets. */
export function renderCliTiming(rows: CliTimingRow[], runs: number): { table: string[]; checks: string[] } {
  const table = [
    `Command line, ${runs} runs of each case in turns (seconds from spawn to exit):`,
    '',
    '| case | median | min | max | × bare Node start |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.label} | ${r.medianSec.toFixed(2)} | ${r.minSec.toFixed(2)} | ${r.maxSec.toFixed(2)} | ${r.ratioToNode.toFixed(1)} |`),
  ];
  const checks = rows
    .filter((r) => r.target)
    .map((r) => {
      const floor = r.floor ? `; ${r.floor.name} ${r.floor.sec.toFixed(2)} s` : '';
      return `${(r.medianSec < CLI_LIMIT_SEC ? 'PASS' : 'FAIL').padEnd(4)}  cli: ${r.label.replace(/`/g, '')} < ${CLI_LIMIT_SEC} s (got ${r.medianSec.toFixed(2)} s median${floor})`;
    });
  return { table, checks };
}
