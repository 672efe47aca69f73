import knexFactory from 'knex';
import { describe, expect, it } from 'vitest';
import { StatementTemplates } from '../../src/platform/db/statement-template.ts';
import { scopeRowQuery } from '../../src/fieldeditor/access/scope.repository.ts';
import { FieldAccess } from '../../src/fieldeditor/access/access.service.ts';
import { LocalChangeFeed } from '../../src/platform/events/change-feed.ts';
import type { AuthUser } from '../../src/platform/auth/auth-user.ts';
import type { EditableScope } from '../../src/fieldeditor/access/scope.ts';

// SQL only: knex compiles without connecting.
const knex = knexFactory({ client: 'pg' });

describe('StatementTemplates', () => {
  it('fills a shape compiled once with each use’s values, constants of the shape kept', () => {
    const templates = new StatementTemplates(knex);
    let builds = 0;
    const build = (k: typeof knex, p: { id: number; name: string }) => {
      builds++;
      return k('t').where('id', p.id).andWhere('kind', 'user').andWhere('name', p.name).limit(1).select('x');
    };
    const a = templates.compile('t', { id: 7, name: 'Ann' }, build);
    const b = templates.compile('t', { id: 8, name: 'Bob' }, build);
    expect(builds).toBe(1);
    const direct = build(knex, { id: 8, name: 'Bob' }).toSQL().toNative();
    expect(b.text).toBe(direct.sql);
    expect(b.values).toEqual(direct.bindings);
    expect(a.values).toEqual([7, 'user', 'Ann', 1]);
    expect(a.sql).toContain('?');
  });

  it('lower-cases a value where the build lower-cased its parameter', () => {
    const templates = new StatementTemplates(knex);
    const s = templates.compile('lower', { name: 'MiXed' }, (k, p) => k('t').where('key', p.name.toLowerCase()).select('x'));
    expect(s.values).toEqual(['mixed']);
  });

  it('refuses a build that made a binding out of part of a parameter', () => {
    const templates = new StatementTemplates(knex);
    expect(() => templates.compile('bad', { name: 'x' }, (k, p) => k('t').where('key', `prefix-${p.name}`).select('x'))).toThrow(/parameter was changed/);
  });

  it('the write right’s scope statement is the one knex builds, for either kind of context and any user', () => {
    const access = new FieldAccess(knex, 'pg', new LocalChangeFeed());
    for (const ids of [
      { fieldId: 10001, context: 'default' as const },
      { fieldId: 10002, context: 12 },
      { fieldId: 10003, context: 'default' as const },
      { fieldId: 10004, context: 99 },
    ]) {
      for (const user of [{ id: 3, name: 'Alice' }, { id: 4, name: 'bob.SMITH' }]) {
        const { statement } = access.editableStatement(user as AuthUser, ids);
        const direct = scopeRowQuery(knex, user, ids, true).toSQL().toNative();
        expect(statement.text).toBe(direct.sql);
        expect(statement.values).toEqual(direct.bindings);
      }
    }
  });

  it('the guard of a predicted write wraps that same scope statement, with the expected context and field type', () => {
    const access = new FieldAccess(knex, 'pg', new LocalChangeFeed());
    const expected = { field: { typeKey: 'com.example:select' }, context: { id: 77 } } as unknown as EditableScope;
    for (const ids of [{ fieldId: 10001, context: 'default' as const }, { fieldId: 10002, context: 12 }]) {
      const user = { id: 5, name: 'Carol.K' };
      const guard = access.rightGuardStatement(user as AuthUser, ids, expected);
      const scope = scopeRowQuery(knex, user, ids, true).toSQL().toNative();
      expect(guard.text).toContain(scope.sql.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + 2}`));
      expect(guard.values).toEqual([77, 'com.example:select', ...scope.bindings]);
    }
  });
});
