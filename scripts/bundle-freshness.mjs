// Whether dist/ (the server's bundle and the web interface) must be rebuilt: shared by `npm start`
// (scripts/build.mjs --if-stale) and the command line (bin/addon-pair.mjs). Only `node:` modules, so that
// checking costs a few milliseconds and never loads esbuild.
import fs from 'node:fs';
import path from 'node:path';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

// What the bundle is made of: our sources and migrations, the build script, and the installed packages it
// compiles in (zod, knex …): npm rewrites node_modules/.package-lock.json at every install, and a pulled
// package-lock.json is newer than the bundle too.
const INPUT_DIRS = ['src', 'migrations', 'scripts'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json'];

// What the build writes last of each part: the server's entry point and the web interface.
const OUTPUTS = ['dist/main.mjs', 'dist/web/app.js'];

/** True when a part of `root`'s build is missing, or older than one of its inputs. */
export function bundleIsStale(root) {
  const outputs = OUTPUTS.map((o) => path.join(root, o));
  if (!outputs.every((o) => fs.existsSync(o))) return true;
  const built = Math.min(...outputs.map((o) => fs.statSync(o).mtimeMs));
  const dirs = INPUT_DIRS.map((d) => path.join(root, d)).filter((d) => fs.existsSync(d));
  const files = INPUT_FILES.map((f) => path.join(root, f)).filter((f) => fs.existsSync(f));
  return [...dirs.map(newestMtime), ...files.map((f) => fs.statSync(f).mtimeMs)].some((t) => t > built);
}
