// `npm run build`: every build step of the project, in one place, so new steps are added here rather than as
// more npm scripts. Plain JavaScript so that it runs without tsx, also in the Docker builder stage.
// Each output is written to a temporary file and renamed, so a process that starts meanwhile never reads
// half a bundle (test workers may build at the same time).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleIsStale } from './bundle-freshness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Dependencies compiled into the bundle; every other one is loaded from node_modules. Node 20 loads a package
 * of many small files slowly (it resolves, reads and compiles each one): zod's ES modules took 78 ms to import
 * and knex's 330 CommonJS files (252 of them lodash's) 60–85 ms, against about 28 ms each as one bundled file.
 * Both sit on the path of every command-line run and server start (issue 14: `user add` under 0.5 s).
 * knex-pglite goes with knex: it extends knex's PostgreSQL client, which would otherwise load a second copy of
 * knex from node_modules. pino and its dozen small packages are on the same paths (the import of `user add`'s
 * chunk: 103 ms → 85 ms); pino's transports, which start a worker from a file beside pino's code, would not
 * work from the bundle, and we use none (logger.ts writes to a stream). No other runtime dependency imports
 * these, so the bundle's copies are the only ones.
 * What a bundled package imports is bundled with it (knex has its own `debug` in node_modules/knex/node_modules,
 * which a `require` from dist/ would not find), but for the database drivers below.
 */
export const BUNDLED_PACKAGES = ['zod', 'knex', 'knex-pglite', 'lodash', 'pino'];

/**
 * Left in node_modules even when a bundled package imports them: the drivers knex loads by name (only pg is
 * installed; the others are never asked for), and PGlite, whose WebAssembly and data files lie beside its code.
 */
const NEVER_BUNDLED = ['pg', 'pg-native', 'pg-query-stream', 'sqlite3', 'better-sqlite3', 'mysql', 'mysql2', 'mariadb', 'tedious', 'oracledb', '@electric-sql/pglite'];

function packageOf(specifier) {
  const [first = '', second = ''] = specifier.split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/** An esbuild plugin: which bare imports stay imports from node_modules (see BUNDLED_PACKAGES). */
const externalUnlessBundled = {
  name: 'external-unless-bundled',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const pkg = packageOf(args.path);
      const fromBundledPackage = args.importer.includes(`${path.sep}node_modules${path.sep}`);
      if (NEVER_BUNDLED.includes(pkg)) return { path: args.path, external: true };
      if (fromBundledPackage || BUNDLED_PACKAGES.includes(pkg)) return undefined; // esbuild resolves it (node: built-ins stay external)
      return { path: args.path, external: true };
    });
  },
};

/**
 * Bundled code that no process of ours runs, left out so that it is not read and parsed at every start (about
 * 0.55 MB of the 1.6 MB that zod and knex bundle to): knex's dialects other than PostgreSQL's, which knex
 * requires by name only when a client of that kind is created (a stand-in says so if one ever is), and zod's
 * error messages in languages other than English (`z.locales`; the API answers in English, and zod's
 * default, `en`, stays).
 */
const UNUSED_KNEX_DIALECTS = /^\.\/(better-sqlite3|cockroachdb|mariadb|mssql|mysql|mysql2|oracle|oracledb|pgnative|redshift|sqlite3)$/;
const leaveOutUnusedCode = {
  name: 'leave-out-unused-code',
  setup(b) {
    const inPackage = (importer, dir) => importer.split(path.sep).join('/').includes(`/node_modules/${dir}/`);
    b.onResolve({ filter: UNUSED_KNEX_DIALECTS }, (args) =>
      inPackage(args.importer, 'knex/lib/dialects') ? { path: args.path, namespace: 'unused-knex-dialect' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'unused-knex-dialect' }, (args) => ({
      contents: `throw new Error('knex dialect ${args.path.slice(2)} is not in the bundle (scripts/build.mjs): addon-pair uses PostgreSQL and PGlite');`,
      loader: 'js',
    }));
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      inPackage(args.importer, 'zod/v4') ? { path: path.join(path.dirname(args.importer), '../locales/index.js'), namespace: 'zod-english-only' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * The bundled CommonJS code (knex) calls `require` for what it leaves in node_modules (pg, PGlite); an ES
 * module has no `require`, so each output file gets one, resolving from dist/ as node_modules' own would.
 */
const REQUIRE_BANNER = "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);";

/**
 * The server and command line: ESM split into chunks. Splitting keeps `dist/main.mjs` small: `help` or a
 * mistyped command answer without loading Express, knex or PGlite, which each command imports when it runs.
 * Built into a temporary folder and swapped in whole.
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
    plugins: [externalUnlessBundled, leaveOutUnusedCode],
    banner: { js: REQUIRE_BANNER },
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

/**
 * The web interface (Preact, TypeScript, one CSS file) into `dist/web/app.js` and `app.css`: everything
 * bundled, nothing loaded from elsewhere at run time. Also built by the tests' global setup, so that a fresh
 * clone tests what it serves.
 */
export async function buildClient(outdir = path.join(root, 'dist/web')) {
  await build({
    entryPoints: { app: path.join(root, 'src/web/client/main.tsx') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir,
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
  });
}

const TEMPLATE = path.join(root, 'dist/data-template');

/**
 * The migrated database that a first start copies into an empty data folder instead of creating one (issue 42:
 * 6–19 s of initdb and migrations in WebAssembly; src/platform/db/data-template.ts). Made by the new bundle
 * itself, under a hidden command, in a process of its own (a few seconds, once per build).
 * glibc's MALLOC_MMAP_THRESHOLD_ (npm start's) is left out, as for initdb's child at a start (embedded-pglite.ts).
 */
export function buildDataTemplate() {
  const { MALLOC_MMAP_THRESHOLD_: _threshold, ...env } = process.env;
  const r = spawnSync(process.execPath, [path.join(root, 'dist/main.mjs'), 'internal-make-data-template', TEMPLATE], {
    env: { ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`making the data template failed (exit ${r.status ?? r.signal})`);
}

/** True when the template is missing or older than the bundle that made it (a migration or PGlite may have changed). */
export function templateIsStale() {
  const stamp = path.join(TEMPLATE, 'template.json');
  const bundle = path.join(root, 'dist/main.mjs');
  return !fs.existsSync(stamp) || !fs.existsSync(bundle) || fs.statSync(stamp).mtimeMs < fs.statSync(bundle).mtimeMs;
}

/**
 * The server and the web interface, side by side: what `npm start` serves and the container image holds; then
 * the data template. `template: false` (the command line's rebuild before a command, bin/addon-pair.mjs) skips
 * it: a first start then uses the older template when it still fits, else creates its folder as before.
 */
export async function buildAll({ template = true } = {}) {
  await Promise.all([buildServer(), buildClient()]);
  if (template) buildDataTemplate();
}

// `node scripts/build.mjs [--if-stale]`: `npm start` passes --if-stale, so that a start with an up-to-date
// bundle and template does not spend seconds rebuilding them.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--if-stale') || bundleIsStale(root)) await buildAll();
  else if (templateIsStale()) buildDataTemplate();
  else console.log('dist/ is up to date');
}
