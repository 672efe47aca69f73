import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Only `node:` modules: the command line reads it before it loads anything else (main.ts).

let found: string | null | undefined;

/**
 * The folder this copy of addon-pair is installed in (the clone, or /app in the container image): the nearest
 * folder above this code that holds a package.json. The code runs from src/ (tsx) or from dist/ and its chunks
 * (the bundle), at different depths, so it is searched for rather than counted. Undefined when none is found
 * (code copied somewhere without its package.json): callers then keep to the working directory.
 */
export function installRoot(): string | undefined {
  if (found !== undefined) return found ?? undefined;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return (found = dir);
    const parent = path.dirname(dir);
    if (parent === dir) return void (found = null);
    dir = parent;
  }
}
