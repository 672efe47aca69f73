import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { createDb, type Db } from '../../src/platform/db/knex.ts';
import { createPgliteDb } from '../../src/platform/db/pglite-db.ts';
import { PGLITE_TEST_START_PARAMS } from './pglite-test-params.ts';
import { TemplateMemoryFS } from './template-memory-fs.ts';

/** Which database this test file runs on: set per vitest project (see vitest.config.ts). */
export const testDbKind: 'pg' | 'pglite' = process.env.TEST_DB === 'pg' ? 'pg' : 'pglite';

export function pgServerUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A fresh, migrated database of its own for one test file: a copy of the run's template (in memory on PGlite). */
export async function createTestDb(kind = testDbKind): Promise<{ db: Db; url?: string }> {
  if (kind === 'pglite') {
    // A copy of the template, in memory (template-memory-fs.ts): nothing to remove once the database is closed.
    const pglite = await PGlite.create({ fs: new TemplateMemoryFS(inject('pgliteTemplate')), startParams: PGLITE_TEST_START_PARAMS });
    // Short enough that a query outside `trx` (a deadlock on PGlite's one connection) fails the test, long enough for a loaded CI machine.
    return { db: createPgliteDb({ pglite, acquireTimeoutMs: 15_000 }) };
  }
  const template = inject('pgTemplateDb');
  const name = `${template.replace(/_tpl$/, '')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgServerUrl() });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(pgServerUrl(), name);
  return { db: createDb({ databaseUrl: url, acquireTimeoutMs: 15_000, poolMax: 10 }), url };
}

/** An empty PostgreSQL database of its own (no migrations: server processes started on it run them), and its drop. */
export async function createEmptyPgDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `addon_pair_${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: pgServerUrl() });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  return { url: withDatabase(pgServerUrl(), name), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
