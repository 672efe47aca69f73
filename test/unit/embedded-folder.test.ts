import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { embeddedDataDir } from '../../src/platform/db/embedded-data-dir.ts';
import { lockDataDir, lockHolder } from '../../src/platform/db/data-dir-lock.ts';

// The command line finds a running embedded server from DATA_DIR alone, before the configuration loads
// (main.ts): what it reads must be the folder the configuration names, or nothing where there is none.
describe('embeddedDataDir', () => {
  const cases: Record<string, string | undefined>[] = [
    {},
    { DATA_DIR: '/srv/addon-pair' },
    { DATA_DIR: '  ./spaced  ' },
    { DATA_DIR: 'memory://' },
    { DATABASE_URL: 'postgres://u@h/db', DATA_DIR: '/srv/x' },
    { DATABASE_URL: '' },
    { DATABASE_URL: '   ', DATA_DIR: 'relative/dir' },
  ];
  for (const env of cases) {
    it(`reads the folder the configuration uses: ${JSON.stringify(env)}`, () => {
      const config = loadConfig(env);
      const expected = config.databaseUrl || config.dataDir === 'memory://' ? undefined : config.dataDir;
      expect(embeddedDataDir(env)).toBe(expected);
    });
  }

  it('gives nothing for an empty DATA_DIR, which the configuration refuses with its own message', () => {
    expect(embeddedDataDir({ DATA_DIR: '  ' })).toBeUndefined();
    expect(() => loadConfig({ DATA_DIR: '  ' })).toThrow(/DATA_DIR/);
  });
});

describe('lockHolder', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-lock-'));
  const file = path.join(dir, 'addon-pair.lock');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names another live process that holds the lock, and nothing for no lock, our own, a dead or a garbled one', () => {
    expect(lockHolder(dir)).toBeUndefined();
    const release = lockDataDir(dir);
    expect(lockHolder(dir)).toBeUndefined(); // ours
    release();
    fs.writeFileSync(file, String(process.ppid));
    expect(lockHolder(dir)).toBe(process.ppid);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    fs.writeFileSync(file, dead);
    expect(lockHolder(dir)).toBeUndefined();
    fs.writeFileSync(file, 'not a pid');
    expect(lockHolder(dir)).toBeUndefined();
    // A dead holder's lock is taken over.
    fs.writeFileSync(file, dead);
    lockDataDir(dir)();
  });
});

// initdb's child runs without the server's MALLOC_MMAP_THRESHOLD_ (embedded-pglite.ts), and with the rest.
describe('initdbChildEnv', () => {
  it('drops glibc\'s mmap threshold and keeps every other variable', async () => {
    const { initdbChildEnv } = await import('../../src/platform/db/embedded-pglite.ts');
    const env = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2', DATA_DIR: '/srv/data', PATH: '/usr/bin' };
    expect(initdbChildEnv(env)).toEqual({ MALLOC_ARENA_MAX: '2', DATA_DIR: '/srv/data', PATH: '/usr/bin' });
    expect(env.MALLOC_MMAP_THRESHOLD_).toBe('131072');
  });
});
