// `node depcruise-each.mjs CONFIG DIR…`: runs `depcruise src --config CONFIG` in each DIR, one after another, in this
// one process, and prints `[{ code, output }, …]` (JSON), one entry per DIR in order. dependency-cruiser and
// TypeScript load once (about a second of a core each time, more than a small tree's cruise takes); each run is
// the command line's own (its bin calls the same function), and dependency-cruiser clears its caches around each.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [config, ...dirs] = process.argv.slice(2);
const root = path.resolve(import.meta.dirname, '../..');
const { default: executeCli } = await import(pathToFileURL(path.join(root, 'node_modules/dependency-cruiser/src/cli/index.mjs')).href);

const outputs = fs.mkdtempSync(path.join(os.tmpdir(), 'addon-pair-depcruise-'));
const results = [];
try {
  for (const [i, dir] of dirs.entries()) {
    // The command line resolves `src`, the configuration's tsconfig.json and the paths it reports from here.
    process.chdir(dir);
    const outputTo = path.join(outputs, `${i}.txt`);
    const code = await executeCli(['src'], { config, outputTo });
    results.push({ code, output: fs.existsSync(outputTo) ? fs.readFileSync(outputTo, 'utf8') : '' });
  }
} finally {
  fs.rmSync(outputs, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(results));
