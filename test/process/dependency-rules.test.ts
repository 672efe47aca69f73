import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const EACH = path.join(ROOT, 'test/helpers/depcruise-each.mjs');

interface Cruise {
  code: number;
  output: string;
}

/**
 * The project's dependency rules over the project itself and over small trees of files, each run as
 * `depcruise src --config .dependency-cruiser.cjs` in its folder, all in one process (test/helpers/depcruise-each.mjs)
 * started before the tests: loading dependency-cruiser and TypeScript took longer than a small tree's cruise.
 * `project()` and `tree(files)` register a run while the tests are collected, and answer its result for the test.
 */
function cruises() {
  const runs: (Record<string, string> | 'project')[] = [];
  const made: string[] = [];
  let results: Cruise[] | undefined;
  beforeAll(async () => {
    const dirs = runs.map((files) => (files === 'project' ? ROOT : writeTree(files)));
    made.push(...dirs.filter((d) => d !== ROOT));
    const { stdout } = await run(process.execPath, [EACH, path.join(ROOT, '.dependency-cruiser.cjs'), ...dirs], { maxBuffer: 64 * 1024 * 1024 });
    results = JSON.parse(stdout) as Cruise[];
  }, 180_000);
  afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const add = (files: Record<string, string> | 'project') => {
    const i = runs.push(files) - 1;
    return (): Cruise => results![i]!;
  };
  return { project: () => add('project'), tree: (files: Record<string, string>) => add(files) };
}

/** A folder holding `files`, the project's packages and a tsconfig.json, as the rules' tests need. */
function writeTree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-deps-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  // The project's own packages, through a symbolic link as in a git worktree that shares node_modules.
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true, module: 'nodenext' } }));
  return dir;
}

describe('the dependency rules of docs/architecture.md (npm run depcheck)', () => {
  const cruise = cruises();

  const project = cruise.project();
  it('pass on the project itself', () => {
    const { code, output } = project();
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  });

  const hostsAndRoutes = cruise.tree({
    'src/wiki/page.ts': "import { box } from '../codeblocks/box.ts';\nexport const page = box;\n",
    'src/codeblocks/box.ts': "export const box = 1;\n",
    'src/tracker/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
    'src/tracker/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
    'src/tracker/fields.repository.ts': "export const load = () => 1;\n",
    'src/tracker/fields.routes.ts': "import { load } from './fields.repository.ts';\nexport const route = load;\n",
    'src/tracker/sql.routes.ts': "import type { Knex } from 'knex';\nexport const route = (q: Knex) => q.raw('select 1');\n",
  });
  it('fail when a host imports an add-on, on a cycle, when a route calls a repository and when it imports Knex', () => {
    const { code, output } = hostsAndRoutes();
    expect(code).not.toBe(0);
    expect(output).toContain('hosts-do-not-import-add-ons: src/wiki/page.ts → src/codeblocks/box.ts');
    expect(output).toMatch(/no-cycles: src\/tracker\/(a|b)\.ts/);
    expect(output).toContain('routes-do-not-call-repositories: src/tracker/fields.routes.ts → src/tracker/fields.repository.ts');
    expect(output).toMatch(/routes-do-not-touch-the-database: src\/tracker\/sql\.routes\.ts → node_modules\/knex\//);
  });

  const room = (name: string) => `export const ${name} = 1;\n`;
  const rooms = cruise.tree({
    'src/fieldeditor/shared/fieldeditor.errors.ts': room('errors'),
    'src/fieldeditor/access/scope.ts': room('scope'),
    'src/fieldeditor/options/options.repository.ts': room('rows'),
    'src/fieldeditor/options/options.service.ts': "import { rows } from './options.repository.ts';\nexport class OptionsService { n = rows; }\n",
    'src/fieldeditor/settings/settings.service.ts': room('settings'),
    // Another room's repository and service, at run time: refused.
    'src/fieldeditor/fields/fields.service.ts':
      "import { rows } from '../options/options.repository.ts';\nimport { settings } from '../settings/settings.service.ts';\nexport const f = rows + settings;\n",
    // access/, shared/, its own room, and another room's service type (passed in): allowed.
    'src/fieldeditor/grants/grants.service.ts':
      "import type { OptionsService } from '../options/options.service.ts';\nimport { scope } from '../access/scope.ts';\n" +
      "import { errors } from '../shared/fieldeditor.errors.ts';\nimport { g2 } from './grants.repository.ts';\nexport const g = (o: OptionsService) => [o, scope, errors, g2];\n",
    'src/fieldeditor/grants/grants.repository.ts': room('g2'),
    // A room reaching up into the wiring: refused (the top level is wiring only).
    'src/fieldeditor/settings/settings.endpoints.ts': "import { m } from '../fieldeditor.feature.ts';\nexport const e = m;\n",
    // The root wiring imports every room.
    'src/fieldeditor/fieldeditor.feature.ts':
      "import { OptionsService } from './options/options.service.ts';\nimport { f } from './fields/fields.service.ts';\nimport { g } from './grants/grants.service.ts';\nexport const m = [OptionsService, f, g];\n",
  });
  it('fail when a field-editor room imports another room or the top-level wiring, and only then', () => {
    const { code, output } = rooms();
    expect(code).not.toBe(0);
    const fired = output.split('\n').filter((l) => /fieldeditor-(rooms-stay-apart|top-level-is-wiring):/.test(l)).map((l) => l.trim()).sort();
    expect(fired).toEqual([
      'error fieldeditor-rooms-stay-apart: src/fieldeditor/fields/fields.service.ts → src/fieldeditor/options/options.repository.ts',
      'error fieldeditor-rooms-stay-apart: src/fieldeditor/fields/fields.service.ts → src/fieldeditor/settings/settings.service.ts',
      'error fieldeditor-top-level-is-wiring: src/fieldeditor/settings/settings.endpoints.ts → src/fieldeditor/fieldeditor.feature.ts',
    ]);
  });

  const migrationWrites = cruise.tree({
    'src/tracker/fields.repository.ts': 'export const insertField = () => 1;\nexport interface FieldRow { id: number }\n',
    'src/tracker/tracker.importer.ts': "import { insertField } from './fields.repository.ts';\nexport const importField = () => insertField();\n",
    'src/migration/migration-records.repository.ts': 'export const remember = () => 1;\n',
    'src/migration/mine.repository.ts': 'export const mine = () => 1;\n',
    // Another feature's repository at run time, or a repository of its own: refused.
    'src/migration/tracker-rest/field-copy.ts':
      "import { insertField } from '../../tracker/fields.repository.ts';\nimport { mine } from '../mine.repository.ts';\nexport const copy = () => insertField() + mine();\n",
    // The owner's export for importers, the id map and a row type: allowed.
    'src/migration/tracker-rest/field-import.ts':
      "import { importField } from '../../tracker/tracker.importer.ts';\nimport { remember } from '../migration-records.repository.ts';\n" +
      "import type { FieldRow } from '../../tracker/fields.repository.ts';\nexport const f = (r: FieldRow) => importField() + remember() + r.id;\n",
    // The wiki's port for importers reaches its own repository; the migration reaches the port (allowed), and
    // the space writer that once went to the repository itself is refused like any other file of src/migration/.
    'src/wiki/spaces.repository.ts': 'export const insertSpace = () => 1;\n',
    'src/wiki/wiki-import-port.ts': "import { insertSpace } from './spaces.repository.ts';\nexport const wikiImportPort = { createSpace: () => insertSpace() };\n",
    'src/migration/wiki/space-content.ts': "import { wikiImportPort } from '../../wiki/wiki-import-port.ts';\nexport const c = () => wikiImportPort.createSpace();\n",
    'src/migration/wiki/space-writer.ts': "import { insertSpace } from '../../wiki/spaces.repository.ts';\nexport const w = () => insertSpace();\n",
  });
  it('fail when an import from elsewhere writes through another feature\'s repository, anywhere in src/migration/ (issue 43)', () => {
    const { code, output } = migrationWrites();
    expect(code).not.toBe(0);
    const fired = output.split('\n').filter((l) => l.includes('migration-writes-through-importer-exports:')).map((l) => l.trim()).sort();
    expect(fired).toEqual([
      'error migration-writes-through-importer-exports: src/migration/tracker-rest/field-copy.ts → src/migration/mine.repository.ts',
      'error migration-writes-through-importer-exports: src/migration/tracker-rest/field-copy.ts → src/tracker/fields.repository.ts',
      'error migration-writes-through-importer-exports: src/migration/wiki/space-writer.ts → src/wiki/spaces.repository.ts',
    ]);
  });

  const webhooksApart = cruise.tree({
    'src/fieldeditor/maintenance/event-log.ts': 'export class EventLog {}\n',
    'src/fieldeditor/options/options.service.ts': "import { sender } from '../../webhooks/webhook-sender.ts';\nexport const o = sender;\n",
    'src/webhooks/webhook-sender.ts': 'export const sender = 1;\n',
    // A type of the field editor is allowed (the deletion hook's shape); its code is not.
    'src/webhooks/webhooks.feature.ts':
      "import type { EventLog } from '../fieldeditor/maintenance/event-log.ts';\nexport const f = (e: EventLog) => e;\n",
    'src/webhooks/event-feed.ts': "import { EventLog } from '../fieldeditor/maintenance/event-log.ts';\nexport const l = new EventLog();\n",
  });
  it('fail when webhooks import field-editor code, or the field editor imports webhooks (issue 28)', () => {
    const { code, output } = webhooksApart();
    expect(code).not.toBe(0);
    const fired = output.split('\n').filter((l) => /webhooks-stand-beside|add-ons-do-not-import-webhooks/.test(l)).map((l) => l.trim()).sort();
    expect(fired).toEqual([
      'error add-ons-do-not-import-webhooks: src/fieldeditor/options/options.service.ts → src/webhooks/webhook-sender.ts',
      'error webhooks-stand-beside-the-field-editor: src/webhooks/event-feed.ts → src/fieldeditor/maintenance/event-log.ts',
    ]);
  });
});
