// The command line's times (issue 14), beside `npm run bench`, which measures the same in its PostgreSQL run:
//
//   npx tsx bench/cli-timing.ts [--runs 10]
//
// Uses BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) to create and drop its database.
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { DEFAULT_BENCH_DATABASE_URL } from './lib/database.ts';
import { acquireRunLock } from './lib/run-lock.ts';
import { measureCliTiming, renderCliTiming } from './lib/cli-timing.ts';
import { currentLoad, writeSideReport } from './lib/side-report.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 10) || 10;

const release = await acquireRunLock();
try {
  const load = currentLoad();
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const rows = await measureCliTiming(ROOT, process.env.BENCH_DATABASE_URL || DEFAULT_BENCH_DATABASE_URL, runs);
  const { table, checks } = renderCliTiming(rows, runs);
  for (const line of [...table, '', ...checks]) console.log(line);
  const file = writeSideReport('cli-timing', 'Command-line times', `npx tsx bench/cli-timing.ts --runs ${runs}`, [...table, '', ...checks.map((c) => `    ${c}`)], load);
  console.log(`\nwrote ${path.relative(ROOT, file)}`);
} finally {
  release();
}
