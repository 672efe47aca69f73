import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyTemplate, makeTemplate, pgliteVersion, usableTemplate } from '../../src/platform/db/data-template.ts';

// The build's migrated template of a new data folder (issue 42): used only when it fits the code that starts.
describe('the data template', () => {
  let dir: string;
  beforeEach(() => void (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-template-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A stand-in for initDataDir: a folder that looks like a database, with a subfolder of PostgreSQL's mode. */
  const fakeInit = async (folder: string) => {
    fs.mkdirSync(path.join(folder, 'base'), { mode: 0o750 });
    fs.writeFileSync(path.join(folder, 'base', '1'), 'x', { mode: 0o640 });
    fs.writeFileSync(path.join(folder, 'PG_VERSION'), '17\n');
  };

  it('is made, stamped and swapped in; fits a code with the same or more migrations and the same PGlite', async () => {
    const tpl = path.join(dir, 'data-template');
    await makeTemplate(tpl, fakeInit, ['m1', 'm2']);
    expect(fs.readdirSync(dir)).toEqual(['data-template']);
    expect(usableTemplate(['m1', 'm2'], tpl)).toEqual({ data: path.join(tpl, 'data'), migrations: ['m1', 'm2'] });
    expect(usableTemplate(['m1', 'm2', 'm3'], tpl)?.migrations).toEqual(['m1', 'm2']);
    // A template holding a migration this code does not know (a newer build's) is not copied.
    expect(usableTemplate(['m1'], tpl)).toBeUndefined();
    // Nor one of another PGlite.
    const stamp = path.join(tpl, 'template.json');
    fs.writeFileSync(stamp, JSON.stringify({ pglite: `${pgliteVersion()}-other`, migrations: ['m1'] }));
    expect(usableTemplate(['m1', 'm2'], tpl)).toBeUndefined();
    // Nor none at all.
    expect(usableTemplate(['m1'], path.join(dir, 'none'))).toBeUndefined();
  });

  it('copies the files with their modes, leaving the template as it was', async () => {
    const tpl = path.join(dir, 'data-template');
    await makeTemplate(tpl, fakeInit, ['m1']);
    const to = path.join(dir, 'copy');
    copyTemplate(path.join(tpl, 'data'), to);
    expect(fs.readFileSync(path.join(to, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(fs.statSync(path.join(to, 'base')).mode & 0o777).toBe(0o750);
    expect(fs.statSync(path.join(to, 'base', '1')).mode & 0o777).toBe(0o640);
    fs.writeFileSync(path.join(to, 'base', '1'), 'changed');
    expect(fs.readFileSync(path.join(tpl, 'data', 'base', '1'), 'utf8')).toBe('x');
  });
});
