// `npm run build`: every build step of the project, in one place, so new steps are added here rather than as
// more npm scripts. Plain JavaScript so that it runs without tsx, also in the Docker builder stage.
// Each output is written to a temporary file and renamed, so a process that starts meanwhile never reads
// half a bundle (test workers may build at the same time).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The server and command line: ESM split into chunks, dependencies left in node_modules. Splitting keeps
 * `dist/main.mjs` small: `help` or a mistyped command answer without loading Express, knex or PGlite, which
 * each command imports when it runs. Built into a temporary folder and swapped in whole.
 */
async function buildServer() {
  const dist = path.join(root, 'dist');
  const tmp = path.join(root, `dist.${process.pid}.tmp`);
  fs.rmSync(tmp, { recursive: true, force: true });
  await build({
    entryPoints: { main: path.join(root, 'src/main.ts') },
    bundle: true,
    splitting: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    outdir: tmp,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });
  // Chunks first, then the entry: a process starting meanwhile finds either the old or the new main.mjs,
  // and every chunk either names.
  fs.mkdirSync(path.join(dist, 'chunks'), { recursive: true });
  for (const name of fs.readdirSync(path.join(tmp, 'chunks'))) fs.renameSync(path.join(tmp, 'chunks', name), path.join(dist, 'chunks', name));
  fs.renameSync(path.join(tmp, 'main.mjs.map'), path.join(dist, 'main.mjs.map'));
  fs.renameSync(path.join(tmp, 'main.mjs'), path.join(dist, 'main.mjs'));
  fs.rmSync(tmp, { recursive: true, force: true });
  removeUnusedChunks(dist);
}

/** Chunks that no current file names (left by earlier builds), once they are a day old (a server started from an older build may still load them). */
function removeUnusedChunks(dist) {
  const chunksDir = path.join(dist, 'chunks');
  const named = new Set();
  const files = [path.join(dist, 'main.mjs'), ...fs.readdirSync(chunksDir).filter((n) => n.endsWith('.mjs')).map((n) => path.join(chunksDir, n))];
  for (const file of files) for (const m of fs.readFileSync(file, 'utf8').matchAll(/["'](?:\.\/|\.\.\/)?(?:chunks\/)?([\w.-]+\.mjs)["']/g)) named.add(m[1]);
  for (const name of fs.readdirSync(chunksDir)) {
    const base = name.replace(/\.map$/, '');
    if (named.has(base)) continue;
    const p = path.join(chunksDir, name);
    if (Date.now() - fs.statSync(p).mtimeMs > 86_400_000) fs.rmSync(p, { force: true });
  }
}

export async function buildAll() {
  await buildServer();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildAll();
}
