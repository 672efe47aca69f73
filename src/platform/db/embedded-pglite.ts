import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as PGliteModule from '@electric-sql/pglite';
import { lockDataDir } from './data-dir-lock.ts';
import { StartupError } from '../startup-error.ts';
import { checkDataDir, isInitialised } from './data-dir-check.ts';
import { INIT_DATA_DIR_COMMAND } from './init-data-dir-command.ts';
import { FolderOnCloseFS } from './folder-on-close-fs.ts';
import { copyTemplate, usableTemplate } from './data-template.ts';

// PGlite's own defaults (dist/…: `defaultStartParams`), which `startParams` replaces as a whole.
const PGLITE_DEFAULT_START_PARAMS: readonly string[] = [
  '--single', '-F', '-O', '-j',
  '-c', 'search_path=public',
  '-c', 'exit_on_error=false',
  '-c', 'log_checkpoints=false',
  '-c', 'max_worker_processes=0',
  '-c', 'max_parallel_workers=0',
  '-c', 'max_parallel_workers_per_gather=0',
  '-c', 'io_method=sync',
  '-c', 'max_parallel_maintenance_workers=0',
];

/**
 * The embedded database of `npm start`: PGlite in a data directory, tuned to stay small.
 *
 * Where the memory went (measured, docs/operations.md "The embedded database"): PGlite's default `shared_buffers` is 128 MB,
 * which lives inside the WebAssembly memory and is touched as pages are read, and the first start ran `initdb`
 * in a second PGlite instance plus the initdb module in the same process, whose memory was never given back
 * (808 MB RSS idle after a first start, 369 MB after a restart). So:
 * - `shared_buffers` is 16 MB (the demo data and the test data fit many times over; PostgreSQL's own default
 *   is 128 MB only because it expects a dedicated machine). The WebAssembly memory then stays at its initial 128 MB.
 * - `initdb` of a new data directory runs in a short-lived child process, so its memory goes with that process.
 * These are the server's settings, and those of migrate, import and user delete.
 */
export const EMBEDDED_START_PARAMS: readonly string[] = [...PGLITE_DEFAULT_START_PARAMS, '-c', 'shared_buffers=16MB'];

/**
 * A user or token command that opens the folder itself runs a handful of queries and exits (as does the child
 * that creates a new folder, once initdb is done), so its PostgreSQL needs little shared memory, and every
 * megabyte of it costs time at the start: WebAssembly has no anonymous mmap, so Emscripten's C library zeroes
 * the whole segment with memset, which runs on V8's baseline compiler here (short-run-wasm.ts). 128 buffers
 * (1 MB) serve such a command, and PGlite's one backend needs no room for 100 connections: the segment shrinks
 * from 24 MB to 6 MB, and PGlite's start on the folder takes 0.48 s instead of 0.54 s (medians of 10 runs in
 * turns, on a machine where `user add` read 0.9 s).
 */
export const COMMAND_START_PARAMS: readonly string[] = [
  ...PGLITE_DEFAULT_START_PARAMS,
  '-c', 'shared_buffers=1MB',
  '-c', 'max_connections=5',
];

const INITDB_TEMP_PREFIX = '.initdb-';

// PGlite's CommonJS build, the one knex's PGlite dialect (knex-pglite) requires: importing the ES module
// as well made Node load and compile PGlite's code twice, about 50 ms of every start (issue 14).
const { PGlite } = createRequire(import.meta.url)('@electric-sql/pglite') as typeof PGliteModule;
type PGlite = PGliteModule.PGlite;

/**
 * Runs initdb in a child process (same entry point, hidden command) so its memory is not kept by the server.
 * The child fills a temporary folder inside `dir`, whose files are moved in only when it succeeded: a start
 * stopped half-way (Ctrl-C, a failed container) leaves no half-made database that would look complete.
 */
async function initDataDirInChild(dir: string): Promise<void> {
  const entry = process.argv[1];
  if (!entry) throw new Error('cannot find the entry point to initialise the data directory');
  for (const old of fs.readdirSync(dir)) if (old.startsWith(INITDB_TEMP_PREFIX)) fs.rmSync(path.join(dir, old), { recursive: true, force: true });
  const temp = path.join(dir, `${INITDB_TEMP_PREFIX}${process.pid}`);
  fs.mkdirSync(temp);
  const child = spawn(process.execPath, [...process.execArgv, entry, INIT_DATA_DIR_COMMAND, temp], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: initdbChildEnv(process.env),
  });
  // Stopped while the child works (a signal, or an exit): the child goes too, so nothing writes the folder.
  const killChild = () => child.kill('SIGKILL');
  const onSignal = (signal: NodeJS.Signals) => {
    killChild();
    fs.rmSync(temp, { recursive: true, force: true });
    process.kill(process.pid, signal);
  };
  process.once('exit', killChild);
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  }).finally(() => {
    process.off('exit', killChild);
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  });
  if (code !== 0) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw new StartupError(`Could not create the embedded database in ${dir}: ${stderr.trim().split('\n')[0] ?? `exit ${code}`}`);
  }
  moveIn(temp, dir);
}

/** Moves a made database's files from `temp` into `dir`, PG_VERSION last: it is what marks the folder as a database. */
function moveIn(temp: string, dir: string): void {
  const entries = fs.readdirSync(temp).sort((a, b) => Number(a === 'PG_VERSION') - Number(b === 'PG_VERSION'));
  for (const name of entries) fs.renameSync(path.join(temp, name), path.join(dir, name));
  fs.rmSync(temp, { recursive: true, force: true });
}

/**
 * The build's migrated template (data-template.ts), copied in when there is one that fits this code: tens of
 * milliseconds instead of seconds of initdb and migrations. Into a temporary folder first, as the child does,
 * so a copy stopped half-way leaves no folder that looks complete. Answers the migrations it holds.
 */
function copiedFromTemplate(dir: string, template: { data: string; migrations: string[] }): string[] {
  for (const old of fs.readdirSync(dir)) if (old.startsWith(INITDB_TEMP_PREFIX)) fs.rmSync(path.join(dir, old), { recursive: true, force: true });
  const temp = path.join(dir, `${INITDB_TEMP_PREFIX}${process.pid}`);
  try {
    copyTemplate(template.data, temp);
    moveIn(temp, dir);
  } catch (err) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw new StartupError(`Could not copy the database template into ${dir} (${(err as NodeJS.ErrnoException).code ?? 'error'}): check the free space and the folder's permissions.`, { cause: err });
  }
  return template.migrations;
}

/**
 * The child's environment: the server's, but for glibc's MALLOC_MMAP_THRESHOLD_. The server sets it to keep its
 * resident memory down under load (docs/operations.md); in initdb's child, which allocates and frees large
 * blocks by the thousand, mapping each one cost about 0.4 s, and the child's memory goes with it anyway.
 */
export function initdbChildEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { MALLOC_MMAP_THRESHOLD_: _threshold, ...rest } = env;
  return rest;
}

/**
 * The child's side: create the database in memory, apply the migrations, write its files into the folder as
 * it closes (folder-on-close-fs.ts), exit. Writes nothing else into the folder. The child runs the same code
 * as its parent, so a folder it made holds every migration the parent knows (openEmbeddedPglite).
 *
 * The migrations run here rather than in the server because this process keeps PGlite's WebAssembly on V8's
 * baseline compiler (short-run-wasm.ts) and works in memory: the server, which lets V8 optimise what is hot,
 * spent 3.6–3.9 s opening a new folder and migrating it, against 2.0–2.3 s for all of a `migrate` command
 * (issue 14: the first start). With them here, the child takes about 1.1 s longer and the server's first
 * start, 4 runs of each build in turns on a new folder with the demo data, went from 7.7–9.9 s to 7.0–9.5 s
 * (medians 8.8 s → 8.0 s). A child that fails leaves no folder behind (initDataDirInChild), so a failed
 * migration is retried at the next start, as before.
 */
export async function initDataDir(dir: string): Promise<void> {
  const files = new FolderOnCloseFS(dir);
  // After initdb, PGlite starts PostgreSQL on the new files: a small shared memory will do.
  const pglite = await PGlite.create({ fs: files, startParams: [...COMMAND_START_PARAMS] });
  const { createPgliteDb } = await import('./pglite-db.ts');
  const { migrateLatest } = await import('./knex.ts');
  const db = createPgliteDb({ pglite });
  await migrateLatest(db);
  await db.close(); // knex's PGlite client closes PGlite, and the files are written
  if (!pglite.closed) await pglite.close();
  // A PGlite that closed without asking its file system to (another version) would leave the folder empty.
  if (files.filesWritten === 0) throw new Error('initdb wrote no files');
}

/** Creates the folder (in a child, migrated); the migrations it then holds: all of this code's. */
async function createdWithEveryMigration(dir: string): Promise<string[]> {
  await initDataDirInChild(dir);
  // Loaded only here: the migrations' code is not needed to open a folder that exists.
  return (await import('./migration-source.ts')).migrationNames();
}

export interface EmbeddedDatabase {
  pglite: PGlite;
  /** Releases the data-directory lock (after the database is closed). */
  release(): void;
  /** The migrations a new folder was created with (initDataDir); empty for a folder that existed. */
  migratedOnCreation: string[];
}

/**
 * Checks and locks the folder, initialises it on first use (a copy of the build's template, else in a child),
 * then opens it (with the server's settings unless told). `announce`: told once, before a new folder is made,
 * so that a person sees why the first start takes longer.
 */
export async function openEmbeddedPglite(
  dir: string,
  startParams: readonly string[] = EMBEDDED_START_PARAMS,
  announce?: (how: 'template' | 'initdb') => void,
): Promise<EmbeddedDatabase> {
  checkDataDir(dir);
  const release = lockDataDir(dir);
  try {
    let migratedOnCreation: string[] = [];
    if (!isInitialised(dir)) {
      const template = usableTemplate((await import('./migration-source.ts')).migrationNames());
      announce?.(template ? 'template' : 'initdb');
      migratedOnCreation = template ? copiedFromTemplate(dir, template) : await createdWithEveryMigration(dir);
    }
    const pglite = await PGlite.create({ dataDir: dir, startParams: [...startParams] });
    return { pglite, release, migratedOnCreation };
  } catch (err) {
    release();
    throw err;
  }
}

/** An in-memory database with the same settings (`DATA_DIR=memory://`). */
export function openMemoryPglite(): Promise<PGlite> {
  return PGlite.create({ startParams: [...EMBEDDED_START_PARAMS] });
}
