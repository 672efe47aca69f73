#!/usr/bin/env node
// `addon-pair …` (linked with `npm link`, or `npm run cli -- …` in the clone): the command line runs from the esbuild bundle (dist/main.mjs), which starts in a
// fraction of the time tsx needs. In a checkout the bundle is rebuilt first when one of its inputs is newer
// (scripts/bundle-freshness.mjs; under a second); in the container image there are no sources and the bundle
// is used as it is.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nodeModule from 'node:module';

// Node 22 can keep the compiled code of the bundle between runs: a command then starts about 30 ms sooner
// (issue 14; the cache is a folder in the system's temporary folder, or NODE_COMPILE_CACHE, and
// NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node 20 has no such cache, and nothing happens there. A cache
// that cannot be written (a read-only /tmp) only makes Node compile as before.
nodeModule.enableCompileCache?.();

// The installation this script belongs to, from its own location, never the working directory: Node runs a
// linked bin (`npm link`, a symbolic link on the PATH) from its real path, so import.meta.url is the clone's.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'dist/main.mjs');

// The image has no sources, nor scripts/.
if (fs.existsSync(path.join(root, 'src'))) {
  const { bundleIsStale } = await import('../scripts/bundle-freshness.mjs');
  if (bundleIsStale(root)) await (await import('../scripts/build.mjs')).buildAll({ template: false });
}
await import(bundle);
