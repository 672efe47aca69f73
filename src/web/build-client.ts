import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Builds the web interface (Preact, TypeScript, one CSS file) into `dist/web/app.js` and `app.css`:
 * everything bundled, nothing loaded from elsewhere at run time. Used by `npm run build` and by the tests'
 * global setup, so a fresh clone tests what it serves.
 */
export async function buildClient(outdir = path.join(ROOT, 'dist/web')): Promise<void> {
  await build({
    entryPoints: { app: path.join(ROOT, 'src/web/client/main.tsx') },
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

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await buildClient();
}
