import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * "Only repositories touch tables" (docs/architecture.md, "The checks"): the project's eslint.config.js run
 * over one small file, once as a service and once as a repository. Each line starts a query on a table or
 * sends SQL text in one of the forms the rule names.
 */
const FORBIDDEN = [
  "export const a = (trx: Knex.Transaction) => trx('users').first();",
  "export class B { constructor(private readonly knex: Knex) {} c() { return this.knex('users').first(); } }",
  "export const d = (knex: Knex) => knex.raw('select 1');",
  "export const e = (q: Knex) => q.select('id').from('t');",
];
const SOURCE = ["import type { Knex } from 'knex';", ...FORBIDDEN, ''].join('\n');

async function problems(file: string, source = SOURCE): Promise<{ line: number; message: string }[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((m) => ({ line: m.line, message: `${m.ruleId}: ${m.message}` }));
}

describe('the lint rule "only repositories touch tables" (npm run lint)', () => {
  it('reports each form of query outside a repository', async () => {
    const found = await problems('src/fieldeditor/options/lint-probe.service.ts');
    // Line 1 is the import; lines 2–5 are the forbidden forms, each reported by the rule.
    for (const line of [2, 3, 4, 5]) {
      expect(found.filter((p) => p.line === line && p.message.startsWith('no-restricted-syntax: '))).not.toEqual([]);
    }
    expect(found.find((p) => p.line === 2)?.message).toContain('A table is queried outside a repository');
    expect(found.find((p) => p.line === 4)?.message).toContain('SQL text is sent outside a repository');
  });

  it('accepts the same lines in a *.repository.ts and in platform/db', async () => {
    expect(await problems('src/fieldeditor/options/lint-probe.repository.ts')).toEqual([]);
    expect(await problems('src/platform/db/lint-probe.ts')).toEqual([]);
  });
});

/**
 * "Error codes live in one registry per API" (docs/architecture.md, "Error registries"): an AppError made, or a
 * code given to a generic helper, outside a `*.errors.ts` (or app-error.ts) is reported; the same lines in a
 * registry are not, and a repository still gets the rule too (the table rule does not replace it there).
 */
const ERROR_LINES = [
  "export const a = () => new AppError(404, 'THING_NOT_FOUND', 'No thing.');",
  "export const b = () => notFound('No thing.', 'THING_NOT_FOUND');",
  "export const c = () => badRequest('Bad thing.', undefined, 'THING_BAD');",
  "export const d = () => forbidden('Not yours.', 'NOT_YOURS');",
  "export const e = () => [notFound('No thing.'), badRequest('Bad thing.', []), conflict('Taken.')];",
];
const ERROR_SOURCE = [
  "import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/http/app-error.ts';",
  ...ERROR_LINES,
  '',
].join('\n');

describe('the lint rule "error codes live in one registry per API" (npm run lint)', () => {
  it('reports an AppError made, or a code given to a generic helper, outside a registry', async () => {
    for (const file of ['src/wiki/lint-probe.service.ts', 'src/wiki/lint-probe.repository.ts', 'src/platform/db/lint-probe.ts']) {
      const found = await problems(file, ERROR_SOURCE);
      expect(found.find((p) => p.line === 2)?.message, file).toContain("An error is made outside its API's registry");
      for (const line of [3, 4, 5]) expect(found.find((p) => p.line === line)?.message, `${file}:${line}`).toContain('An error code is given outside');
      // The generic helpers without a code (BAD_REQUEST, NOT_FOUND …) stay allowed anywhere.
      expect(found.filter((p) => p.line === 6)).toEqual([]);
    }
  });

  it('accepts the same lines in a *.errors.ts and in app-error.ts', async () => {
    expect(await problems('src/wiki/lint-probe.errors.ts', ERROR_SOURCE)).toEqual([]);
    expect(await problems('src/platform/http/app-error.ts', ERROR_SOURCE)).toEqual([]);
  });

  it('still reports a table queried in a registry', async () => {
    const found = await problems('src/wiki/lint-probe.errors.ts');
    expect(found.find((p) => p.line === 2)?.message).toContain('A table is queried outside a repository');
  });
});

/**
 * Table ownership (docs/architecture.md, "Rooms and tables"; issue 43): the name of an owned table in a string or
 * template of another folder is reported, even in a repository; the owners and the schema migrations may name it.
 */
describe('the lint rule "a table is named only by its owners" (npm run lint)', () => {
  const GRANTS_SQL = [
    "import type { Knex } from 'knex';",
    "export const a = (trx: Knex.Transaction) => trx.raw(`delete from field_grants where field_id = ?`, [1]);",
    "export const b = (trx: Knex.Transaction) => trx('field_grants').del();",
    '',
  ].join('\n');

  it('reports field_grants outside fieldeditor/access and fieldeditor/grants', async () => {
    const found = await problems('src/fieldeditor/maintenance/jobs/lint-probe.repository.ts', GRANTS_SQL);
    expect(found.map((p) => p.line)).toEqual([2, 3]);
    expect(found[0]!.message).toMatch(/^tables\/field_grants: The table field_grants belongs to src\/fieldeditor\/access/);
    expect((await problems('src/migration/lint-probe.repository.ts', GRANTS_SQL)).map((p) => p.message.split(':')[0])).toEqual(['tables/field_grants', 'tables/field_grants']);
  });

  it('accepts it in the owners and in the schema migrations', async () => {
    expect(await problems('src/fieldeditor/access/lint-probe.repository.ts', GRANTS_SQL)).toEqual([]);
    expect(await problems('src/fieldeditor/grants/lint-probe.repository.ts', GRANTS_SQL)).toEqual([]);
    expect(await problems('src/platform/db/migrations/20990101000000_lint_probe.ts', GRANTS_SQL)).toEqual([]);
  });
});
