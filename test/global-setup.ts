import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb, migrateLatest } from '../src/platform/db/knex.ts';
import { createPgliteDb } from '../src/platform/db/pglite-db.ts';
import { buildClient } from '../scripts/build.mjs';
import { PGLITE_TEST_START_PARAMS } from './helpers/pglite-test-params.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Folder of a migrated PGlite database, copied into memory for each test file (test-db.ts) and into the data folders of process tests (migratedDataDir). */
    pgliteTemplate: string;
    /** Name of a migrated template database on TEST_DATABASE_URL's server, or '' without one. */
    pgTemplateDb: string;
  }
}

const RUN_PREFIX = `addon_pair_t${process.pid}_${Date.now().toString(36)}`;

/**
 * A migrated PGlite database in a folder (PGlite's file system for Node), closed cleanly. A test file's database
 * is a copy of its files in PGlite's memory file system (template-memory-fs.ts), with no folder to copy or remove;
 * loading a dump (a tarball, an earlier way) went through a slow Blob, and copying the folder on disk for every file
 * took about a second of slow system calls (test/README.md, "Where the time goes").
 */
async function buildPgliteTemplate(): Promise<string> {
  const dir = path.join(os.tmpdir(), `${RUN_PREFIX}_pglite`);
  const pglite = await PGlite.create({ dataDir: dir, startParams: PGLITE_TEST_START_PARAMS });
  const db = createPgliteDb({ pglite, acquireTimeoutMs: 60_000 });
  await migrateLatest(db);
  await db.close();
  return dir;
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

/**
 * Runs once per run, for the root project only (vitest.config.ts): every project reads what it provides. The
 * PostgreSQL template is made only when a project that runs on PostgreSQL was selected.
 */
export default async function setup(project: TestProject) {
  const onPostgres = project.vitest.projects.some((p) => p.config.env?.TEST_DB === 'pg');
  const url = onPostgres ? process.env.TEST_DATABASE_URL : undefined;
  // The web interface is built here too, so the browser tests (and GET /) serve what the source says on a fresh clone.
  const [template, pgTemplate] = await Promise.all([buildPgliteTemplate(), url ? buildPgTemplate(url) : Promise.resolve(''), buildClient()]);
  project.provide('pgliteTemplate', template);
  project.provide('pgTemplateDb', pgTemplate);
  return async () => {
    // The template, and any `<template>_<random>` folder an older run's killed worker left.
    const dir = path.dirname(template);
    for (const name of fs.readdirSync(dir)) {
      if (name.startsWith(path.basename(template))) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    }
    if (url) await dropRunDatabases(url);
  };
}
