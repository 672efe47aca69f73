// Copies into <dest>/node_modules the packages that dist/main.mjs loads from node_modules when it serves on
// PostgreSQL, with everything they depend on, found the way Node finds them (nested node_modules first):
//   node bench/scale/prod-modules.mjs <dest>
// Not carried: what the bundle compiles in (zod, knex, knex-pglite, lodash, pino: scripts/build.mjs) and PGlite
// (27 MB; loaded only for DATA_DIR, never on PostgreSQL). swagger-ui-dist only as its package.json: the API
// explorer resolves it when the app is built, and reads its files only when someone opens the explorer.
import fs from 'node:fs';
import path from 'node:path';

const ROOTS = ['express', 'passport', 'passport-strategy', 'pg', 'prom-client', 'saxes'];
const root = process.cwd();
const dest = path.resolve(process.argv[2] ?? 'prod');

/** The folder of `name` as required from inside `fromDir`. */
function locate(name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return null;
  }
}

const seen = new Set();
function copy(pkgDir) {
  if (seen.has(pkgDir)) return;
  seen.add(pkgDir);
  const rel = path.relative(root, pkgDir);
  // The package's own files, without its nested node_modules (those come when a dependency names them).
  fs.cpSync(pkgDir, path.join(dest, rel), { recursive: true, dereference: true, filter: (src) => !path.relative(pkgDir, src).split(path.sep).includes('node_modules') });
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
    const found = locate(dep, pkgDir);
    if (found) copy(found);
    else if (!pkg.optionalDependencies?.[dep]) console.warn(`prod-modules: ${dep} (needed by ${pkg.name}) is not installed`);
  }
}

for (const name of ROOTS) {
  const found = locate(name, root);
  if (!found) throw new Error(`${name} is not installed in ${root}/node_modules`);
  copy(found);
}
const swagger = path.join(dest, 'node_modules/swagger-ui-dist');
fs.mkdirSync(swagger, { recursive: true });
fs.copyFileSync(path.join(root, 'node_modules/swagger-ui-dist/package.json'), path.join(swagger, 'package.json'));
console.log(`prod-modules: ${seen.size} packages into ${dest}/node_modules`);
