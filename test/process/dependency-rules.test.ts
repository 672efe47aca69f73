import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/** Runs the project's dependency rules over a small tree of files; answers the exit code and output. */
async function cruise(files: Record<string, string>): Promise<{ code: number; output: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-deps-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  // The project's own packages, through a symbolic link as in a git worktree that shares node_modules.
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true, module: 'nodenext' } }));
  try {
    const { stdout } = await run(process.execPath, [CLI, 'src', '--config', path.join(ROOT, '.dependency-cruiser.cjs')], { cwd: dir });
    return { code: 0, output: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, output: e.stdout };
  }
}
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('the dependency rules of docs/architecture.md (npm run depcheck)', () => {
  it('pass on the project itself', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'src', '--config', '.dependency-cruiser.cjs'], { cwd: ROOT });
    expect(stdout).toContain('no dependency violations found');
  });

  it('fail when a host imports an add-on, on a cycle, when a route calls a repository and when it imports Knex', async () => {
    const { code, output } = await cruise({
      'src/wiki/page.ts': "import { box } from '../codeblocks/box.ts';\nexport const page = box;\n",
      'src/codeblocks/box.ts': "export const box = 1;\n",
      'src/tracker/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'src/tracker/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
      'src/tracker/fields.repository.ts': "export const load = () => 1;\n",
      'src/tracker/fields.routes.ts': "import { load } from './fields.repository.ts';\nexport const route = load;\n",
      'src/tracker/sql.routes.ts': "import type { Knex } from 'knex';\nexport const route = (q: Knex) => q.raw('select 1');\n",
    });
    expect(code).not.toBe(0);
    expect(output).toContain('hosts-do-not-import-add-ons: src/wiki/page.ts → src/codeblocks/box.ts');
    expect(output).toMatch(/no-cycles: src\/tracker\/(a|b)\.ts/);
    expect(output).toContain('routes-do-not-call-repositories: src/tracker/fields.routes.ts → src/tracker/fields.repository.ts');
    expect(output).toMatch(/routes-do-not-touch-the-database: src\/tracker\/sql\.routes\.ts → node_modules\/knex\//);
  });
});
