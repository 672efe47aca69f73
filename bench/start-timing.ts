// The embedded server's first start and restart, in turns with PGlite's own start (issue 42), beside
// `npm run bench`:
//
//   npx tsx bench/start-timing.ts [--runs 5] [--no-npm]
//
// Builds first (the bundle and the data template a first start copies); --no-npm skips the memory of
// `npm start`'s whole process tree.
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { acquireRunLock } from './lib/run-lock.ts';
import { measureNpmStartTree, measureStartTiming, renderStartTiming } from './lib/start-timing.ts';
import { currentLoad, writeSideReport } from './lib/side-report.ts';
import { copyTemplate, templateDir } from '../src/platform/db/data-template.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 5) || 5;

const release = await acquireRunLock();
try {
  const load = currentLoad();
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const rows = await measureStartTiming(ROOT, runs);
  let tree: Awaited<ReturnType<typeof measureNpmStartTree>> | undefined;
  if (!process.argv.includes('--no-npm')) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-bench-npm-'));
    try {
      copyTemplate(path.join(templateDir(ROOT)!, 'data'), path.join(dir, 'data'));
      tree = await measureNpmStartTree(ROOT, path.join(dir, 'data'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const { table, checks } = renderStartTiming(rows, runs, tree);
  for (const line of [...table, '', ...checks]) console.log(line);
  const file = writeSideReport('start-timing', 'Start times of the embedded server', `npx tsx bench/start-timing.ts --runs ${runs}`, [...table, '', ...checks.map((c) => `    ${c}`)], load);
  console.log(`\nwrote ${path.relative(ROOT, file)}`);
} finally {
  release();
}
