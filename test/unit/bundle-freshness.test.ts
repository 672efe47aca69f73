import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const { bundleIsStale } = (await import(pathToFileURL(path.join(ROOT, 'scripts/bundle-freshness.mjs')).href)) as {
  bundleIsStale(root: string): boolean;
};

// `npm start` rebuilds dist/ only when it is stale (scripts/build.mjs --if-stale), and so does the command line.
describe('whether the bundle must be rebuilt', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-freshness-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 1, 0, 0, seconds));
  const write = (file: string, seconds: number) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), '');
    fs.utimesSync(path.join(root, file), at(seconds), at(seconds));
  };

  it('is stale without the server bundle or the web interface, fresh when every input is older, stale when any is newer', () => {
    write('src/platform/db/knex.ts', 10);
    write('migrations/20261121140000_directory.ts', 10);
    write('scripts/build.mjs', 10);
    write('package.json', 10);
    write('package-lock.json', 10);
    write('node_modules/.package-lock.json', 10);
    expect(bundleIsStale(root)).toBe(true);
    write('dist/main.mjs', 20);
    // The web interface is built beside the server: without it the build is not complete.
    expect(bundleIsStale(root)).toBe(true);
    write('dist/web/app.js', 20);
    expect(bundleIsStale(root)).toBe(false);
    for (const input of ['src/platform/db/knex.ts', 'migrations/20261121140000_directory.ts', 'scripts/build.mjs', 'package-lock.json', 'node_modules/.package-lock.json']) {
      write(input, 30);
      expect(bundleIsStale(root), input).toBe(true);
      write(input, 10);
    }
    // A new file deep in a folder counts as well.
    write('src/web/client/new-page.ts', 30);
    expect(bundleIsStale(root)).toBe(true);
  });

  it('build.mjs --if-stale leaves an up-to-date bundle alone', () => {
    execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT });
    const before = fs.statSync(path.join(ROOT, 'dist/main.mjs')).mtimeMs;
    const out = execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
    expect(out.trim()).toBe('dist/ is up to date');
    expect(fs.statSync(path.join(ROOT, 'dist/main.mjs')).mtimeMs).toBe(before);
  }, 60_000);
});
