// A big wiki space export read and imported with bounded memory (issue 31), run by hand:
//
//   npx tsx bench/wiki-export.ts [--mb 200] [--pglite] [--file export.zip] [--keep] [--report] [--skip-import]
//
// Writes an export whose entities.xml is about `--mb` megabytes (streamed to disk in the wiki's format: a page
// tree with code-block macros, comments, older versions, attachments, restrictions; ids above 2^31), then runs,
// each in a child process of its own so that each peak is its own: the baseline (entities.xml streamed through
// saxes and nothing else), openWikiExport with every space and body read, and importWikiSpaces into a throw-away
// PostgreSQL database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) or, with
// --pglite, an embedded database in a temporary folder. Reports each phase's time and peak RSS (the kernel's
// high-water mark of the child, getrusage). --report writes bench/results/wiki-export.md.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SaxesParser } from 'saxes';
import { openEntities } from '../src/migration/wiki-export/entities-stream.ts';
import { openWikiExport } from '../src/migration/wiki-export/open-wiki-export.ts';
import { createThrowAwayDatabase, DEFAULT_BENCH_DATABASE_URL } from './lib/database.ts';
import { acquireRunLock } from './lib/run-lock.ts';
import { currentLoad, writeSideReport } from './lib/side-report.ts';
import { writeBenchExport } from './lib/wiki-export-file.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    mb: { type: 'string', default: '200' },
    pglite: { type: 'boolean', default: false },
    file: { type: 'string' },
    keep: { type: 'boolean', default: false },
    report: { type: 'boolean', default: false },
    'skip-import': { type: 'boolean', default: false },
    phase: { type: 'string' },
  },
});

interface PhaseResult {
  ms: number;
  peakRssMb: number;
  detail: string;
}

const log = (m: string) => process.stderr.write(`  ${m}\n`);
const peakRssMb = () => process.resourceUsage().maxRSS / 1024;

/** One phase, in this (child) process; its result as one JSON line on standard output. */
async function runPhase(phase: string, file: string): Promise<void> {
  const started = performance.now();
  let detail = '';
  if (phase === 'saxes') {
    const input = await openEntities(file);
    const parser = new SaxesParser();
    let elements = 0;
    parser.on('opentag', () => elements++);
    parser.on('text', () => {});
    parser.on('cdata', () => {});
    const decoder = new TextDecoder();
    for await (const chunk of input.chunks()) parser.write(decoder.decode(chunk, { stream: true }));
    parser.close();
    detail = `${elements.toLocaleString('en')} elements`;
  } else if (phase === 'read') {
    const source = await openWikiExport(file, { progress: log });
    let items = 0;
    let chars = 0;
    for await (const bundle of source.spaces()) {
      for (const c of bundle.content) {
        chars += (await bundle.body(c.id)).length;
        items++;
      }
      detail = `${items.toLocaleString('en')} items, ${(chars / 1e6).toFixed(0)} M characters of bodies; not imported: ${JSON.stringify(bundle.notImported)}`;
    }
    await source.close();
  } else if (phase === 'import') {
    const { loadConfig } = await import('../src/config.ts');
    const { withContext } = await import('../src/cli/admin.commands.ts');
    const { migrationDeps } = await import('../src/migration/migration-deps.ts');
    const { importWikiSpaces } = await import('../src/migration/wiki/space-writer.ts');
    const source = await openWikiExport(file, { progress: log });
    try {
      await withContext(loadConfig(process.env), async (services) => {
        const report = await importWikiSpaces(migrationDeps(services), source, { dryRun: false, progress: log });
        detail = report.units.map((u) => `${u.name} ${u.outcome}${u.reason ? ` (${u.reason})` : ''}: ${JSON.stringify(u.counts)}`).join('; ');
      });
    } finally {
      await source.close();
    }
  } else {
    throw new Error(`unknown phase ${phase}`);
  }
  const result: PhaseResult = { ms: performance.now() - started, peakRssMb: peakRssMb(), detail };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Runs a phase as `node --import tsx bench/wiki-export.ts --phase …` and answers its result. */
function child(phase: string, file: string, env: NodeJS.ProcessEnv): Promise<PhaseResult> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/wiki-export.ts'), '--phase', phase, '--file', file], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', fail);
    p.on('close', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) fail(new Error(`phase ${phase} ended with code ${code}`));
      else done(JSON.parse(line) as PhaseResult);
    });
  });
}

async function main(): Promise<void> {
  if (args.phase) return runPhase(args.phase, args.file!);
  const release = await acquireRunLock();
  const load = currentLoad();
  const work = mkdtempSync(join(tmpdir(), 'wiki-export-bench-'));
  const lines: string[] = [];
  const say = (l: string) => {
    lines.push(l);
    console.log(l);
  };
  try {
    let file = args.file;
    if (!file) {
      file = join(work, 'space-export.zip');
      const t = performance.now();
      const made = writeBenchExport(file, Number(args.mb) * 1024 * 1024);
      say(`export: entities.xml ${(made.bytes / 2 ** 20).toFixed(0)} MB (${made.pages.toLocaleString('en')} pages, ` +
        `${made.comments.toLocaleString('en')} comments, older versions, attachments, restrictions), ` +
        `zip ${(statSync(file).size / 2 ** 20).toFixed(1)} MB, written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    const db = args.pglite || args['skip-import'] ? undefined : await createThrowAwayDatabase(process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL);
    const importEnv: NodeJS.ProcessEnv = db ? { DATABASE_URL: db.url } : { DATA_DIR: join(work, 'pglite') };
    // The embedded database is created by the server's own entry point (its initdb runs that entry again, in a
    // child), so it is made here with `migrate` before the import phase opens it.
    if (!db && !args['skip-import']) {
      execFileSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'migrate'], { cwd: ROOT, env: { ...process.env, ...importEnv }, stdio: 'ignore' });
    }
    try {
      say('');
      say('| phase | time | peak RSS | what it did |');
      say('| --- | ---: | ---: | --- |');
      const row = (name: string, r: PhaseResult) =>
        say(`| ${name} | ${(r.ms / 1000).toFixed(1)} s | ${r.peakRssMb.toFixed(0)} MB | ${r.detail} |`);
      row('baseline: entities.xml through saxes only', await child('saxes', file, {}));
      row('openWikiExport, every body read back', await child('read', file, {}));
      if (!args['skip-import']) {
        row(`importWikiSpaces into ${db ? 'PostgreSQL' : 'PGlite (on disk)'}`, await child('import', file, importEnv));
      }
    } finally {
      await db?.drop();
    }
    if (args.report) {
      const written = writeSideReport('wiki-export', 'A big wiki space export, read and imported', `npx tsx bench/wiki-export.ts --mb ${args.mb}${args.pglite ? ' --pglite' : ''}`, lines, load);
      console.log(`\nwrote ${written}`);
    }
  } finally {
    if (args.keep) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
    release();
  }
}

await main();
