import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultDataDir, loadEnvFile, takeDataDirOption } from '../../src/cli/data-folder.ts';

// Where the command line finds its configuration and data folder, from any working directory (issue 42).
describe('the command line data folder', () => {
  let saved: NodeJS.ProcessEnv;
  let dir: string;
  beforeEach(() => {
    saved = { ...process.env };
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-data-folder-'));
  });
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('takes --data-dir out of the arguments, resolved against the working directory', () => {
    const env: NodeJS.ProcessEnv = { DATA_DIR: '/elsewhere' };
    expect(takeDataDirOption(['user', '--data-dir', 'd1', 'unlock', 'x'], env)).toEqual(['user', 'unlock', 'x']);
    expect(env.DATA_DIR).toBe(path.resolve('d1'));
    expect(takeDataDirOption(['--data-dir=memory://', 'help'], env)).toEqual(['help']);
    expect(env.DATA_DIR).toBe('memory://');
    expect(() => takeDataDirOption(['help', '--data-dir'], env)).toThrow(/--data-dir needs a folder/);
  });

  it("defaults to the installation's data folder, unless DATA_DIR or DATABASE_URL is set", () => {
    const env: NodeJS.ProcessEnv = {};
    defaultDataDir(env, '/opt/addon-pair');
    expect(env.DATA_DIR).toBe('/opt/addon-pair/data');
    const pg: NodeJS.ProcessEnv = { DATABASE_URL: 'postgres://db/x' };
    defaultDataDir(pg, '/opt/addon-pair');
    expect(pg.DATA_DIR).toBeUndefined();
    const set: NodeJS.ProcessEnv = { DATA_DIR: 'mine' };
    defaultDataDir(set, '/opt/addon-pair');
    expect(set.DATA_DIR).toBe('mine');
  });

  it("reads the installation's .env when the working directory has none; its relative DATA_DIR is the file's", () => {
    const root = path.join(dir, 'clone');
    const cwd = path.join(dir, 'somewhere');
    fs.mkdirSync(root);
    fs.mkdirSync(cwd);
    fs.writeFileSync(path.join(root, '.env'), 'DATA_DIR=./var/data\nADDON_PAIR_TEST_MARK=clone\n');
    delete process.env.DATA_DIR;
    delete process.env.ADDON_PAIR_TEST_MARK;
    loadEnvFile(cwd, root);
    expect(process.env.DATA_DIR).toBe(path.join(root, 'var/data'));
    expect(process.env.ADDON_PAIR_TEST_MARK).toBe('clone');
    // The working directory's own .env comes first; a DATA_DIR already set is kept.
    fs.writeFileSync(path.join(cwd, '.env'), 'DATA_DIR=here\nADDON_PAIR_TEST_MARK=cwd\n');
    delete process.env.ADDON_PAIR_TEST_MARK;
    process.env.DATA_DIR = '/given';
    loadEnvFile(cwd, root);
    expect(process.env.DATA_DIR).toBe('/given');
    expect(process.env.ADDON_PAIR_TEST_MARK).toBe('cwd');
  });
});
