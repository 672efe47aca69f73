import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Where a run's time goes, and which tests it ran: `npm run test:timings` (or `--reporter=./test/timing/reporter.ts`
 * with TEST_TIMINGS=<file>). For each file it records vitest's own breakdown (import = `collectDuration`, the
 * test module and everything it imports; hooks = the file's duration minus its tests', mostly `useTestApp`'s
 * database and app; tests), and for each test its project, file, name and state, the list that
 * `test/timing/compare.mjs` compares between two runs. It prints totals per project and the slowest files.
 */

interface FileTiming {
  project: string;
  file: string;
  state: string;
  importMs: number;
  hooksMs: number;
  testsMs: number;
  heapMb?: number;
}

interface TestEntry {
  project: string;
  file: string;
  name: string;
  state: string;
  ms: number;
}

const round = (ms: number) => Math.round(ms);

function timingOf(module: TestModule, root: string): { file: FileTiming; tests: TestEntry[] } {
  const project = module.project.name;
  const file = path.relative(root, module.moduleId);
  const d = module.diagnostic();
  const tests: TestEntry[] = [];
  let testsMs = 0;
  for (const test of module.children.allTests()) {
    const ms = test.diagnostic()?.duration ?? 0;
    testsMs += ms;
    tests.push({ project, file, name: test.fullName, state: test.result().state, ms: round(ms) });
  }
  return {
    file: {
      project,
      file,
      state: module.state(),
      importMs: round(d.collectDuration),
      hooksMs: round(Math.max(0, d.duration - testsMs)),
      testsMs: round(testsMs),
      heapMb: d.heap === undefined ? undefined : Math.round(d.heap / 2 ** 20),
    },
    tests,
  };
}

function summary(files: FileTiming[]): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const lines = ['', 'worker time by project (import / hooks / tests):'];
  for (const project of [...new Set(files.map((f) => f.project))].sort()) {
    const of = files.filter((f) => f.project === project);
    const sum = (k: 'importMs' | 'hooksMs' | 'testsMs') => of.reduce((a, f) => a + f[k], 0);
    lines.push(
      `  ${project.padEnd(10)} ${String(of.length).padStart(3)} files  ${s(sum('importMs'))} / ${s(sum('hooksMs'))} / ${s(sum('testsMs'))}`,
    );
  }
  lines.push('slowest files (import + hooks + tests):');
  const total = (f: FileTiming) => f.importMs + f.hooksMs + f.testsMs;
  for (const f of [...files].sort((a, b) => total(b) - total(a)).slice(0, 15)) {
    lines.push(
      `  ${s(total(f)).padStart(8)}  ${f.project.padEnd(10)} ${f.file}  (${s(f.importMs)} / ${s(f.hooksMs)} / ${s(f.testsMs)})`,
    );
  }
  return lines.join('\n');
}

export default class TimingReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: { config: { root: string } }): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files: FileTiming[] = [];
    const tests: TestEntry[] = [];
    for (const m of modules) {
      const t = timingOf(m, this.root);
      files.push(t.file);
      tests.push(...t.tests);
    }
    const out = process.env.TEST_TIMINGS;
    if (out) fs.writeFileSync(out, JSON.stringify({ files, tests }, null, 1));
    console.log(summary(files));
  }
}
