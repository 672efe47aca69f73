// `npm run build`: every build step of the project, in one place, so new steps are added here rather than as
// more npm scripts. Plain JavaScript so that it runs without tsx, also in the Docker builder stage.
// Each output is written to a temporary file and renamed, so a process that starts meanwhile never reads
// half a bundle (test workers may build at the same time).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The server and command line: one ESM bundle, dependencies left in node_modules. */
async function buildServer() {
  const outfile = path.join(root, 'dist/main.mjs');
  const tmp = `${outfile}.${process.pid}.tmp`;
  await build({
    entryPoints: [path.join(root, 'src/main.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    outfile: tmp,
    logLevel: 'warning',
  });
  fs.renameSync(`${tmp}.map`, `${outfile}.map`);
  // The bundle names its map after the temporary file; point it at the final name.
  const code = fs.readFileSync(tmp, 'utf8').replace(/sourceMappingURL=.*$/m, 'sourceMappingURL=main.mjs.map');
  fs.writeFileSync(tmp, code);
  fs.renameSync(tmp, outfile);
}

export async function buildAll() {
  await buildServer();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildAll();
}
