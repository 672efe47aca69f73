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

async function problems(file: string): Promise<{ line: number; message: string }[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(SOURCE, { filePath: path.join(ROOT, file) });
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
