import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb, migrateLatest } from '../src/platform/db/knex.ts';
import { createPgliteDb } from '../src/platform/db/pglite-db.ts';
import { buildClient } from '../scripts/build.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** File holding a dump of a migrated PGlite database (engineering notes B.5: load ≈0.7 s, create ≈4 s). */
    pgliteTemplate: string;
    /** Name of a migrated template database on TEST_DATABASE_URL's server, or '' without one. */
    pgTemplateDb: string;
  }
}

const RUN_PREFIX = `addon_pair_t${process.pid}_${Date.now().toString(36)}`;

async function buildPgliteTemplate(): Promise<string> {
  const pglite = await PGlite.create();
  const db = createPgliteDb({ pglite, acquireTimeoutMs: 60_000 });
  await migrateLatest(db);
  const dump = await pglite.dumpDataDir('none');
  const file = path.join(os.tmpdir(), `${RUN_PREFIX}.tar`);
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await db.close();
  return file;
}

async function buildPgTemplate(url: string): Promise<string> {
  const name = `${RUN_PREFIX}_tpl`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const db = createDb({ databaseUrl: withDatabase(url, name), acquireTimeoutMs: 60_000 });
  await migrateLatest(db);
  await db.close();
  return name;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Drops every database this run created (per-file copies and the template). */
async function dropRunDatabases(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${RUN_PREFIX}%`]);
  for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
  await admin.end();
}

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  // The web interface is built here too, so the browser tests (and GET /) serve what the source says on a fresh clone.
  const [template, pgTemplate] = await Promise.all([buildPgliteTemplate(), url ? buildPgTemplate(url) : Promise.resolve(''), buildClient()]);
  project.provide('pgliteTemplate', template);
  project.provide('pgTemplateDb', pgTemplate);
  return async () => {
    fs.rmSync(template, { force: true });
    if (url) await dropRunDatabases(url);
  };
}
