#!/usr/bin/env node
// `npx addon-pair …`: the command line runs from the esbuild bundle (dist/main.mjs), which starts in a
// fraction of the time tsx needs. In a checkout the bundle is rebuilt first when a source file is newer
// (under a second); in the container image there are no sources and the bundle is used as it is.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nodeModule from 'node:module';

// Node 22 can keep the compiled code of the bundle between runs: a command then starts about 30 ms sooner
// (issue 14; the cache is a folder in the system's temporary folder, or NODE_COMPILE_CACHE, and
// NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node 20 has no such cache, and nothing happens there. A cache
// that cannot be written (a read-only /tmp) only makes Node compile as before.
nodeModule.enableCompileCache?.();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'dist/main.mjs');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

function isStale() {
  if (!fs.existsSync(bundle)) return true;
  if (!fs.existsSync(path.join(root, 'src'))) return false;
  const built = fs.statSync(bundle).mtimeMs;
  return ['src', 'migrations'].some((d) => fs.existsSync(path.join(root, d)) && newestMtime(path.join(root, d)) > built);
}

if (isStale()) {
  const { buildAll } = await import('../scripts/build.mjs');
  await buildAll();
}
await import(bundle);
