import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { installRoot } from '../install-root.ts';

// Issue 42: the first start on the embedded database spent 6–19 s creating it (initdb and every migration,
// in WebAssembly) while printing nothing. `npm run build` now makes a migrated data folder once, beside the
// bundle, and a first start copies it (tens of milliseconds) instead. A template that does not fit this code
// (another PGlite, or a migration this code does not know) is not used: the folder is then made as before
// (embedded-pglite.ts). One this code has more migrations than is fine: the start applies the rest.

/** Where the build puts the template: `dist/data-template/` (the database's files, under data/) of the installation. */
export const templateDir = (root = installRoot()) => (root ? path.join(root, 'dist', 'data-template') : undefined);

const STAMP = 'template.json';

interface Stamp {
  pglite: string;
  migrations: string[];
}

/** The installed PGlite's version, from its package.json (not exported by the package: found from its entry file). */
export function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

/**
 * The template's data folder and the migrations it holds, when there is one that this code may copy: made by
 * the same PGlite, holding no migration this code lacks. Else undefined.
 */
export function usableTemplate(known: readonly string[], dir = templateDir()): { data: string; migrations: string[] } | undefined {
  if (!dir) return undefined;
  let stamp: Stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(path.join(dir, STAMP), 'utf8')) as Stamp;
  } catch {
    return undefined; // no template (a build without one, or the image), or half of one
  }
  const data = path.join(dir, 'data');
  if (stamp.pglite !== pgliteVersion() || !stamp.migrations.every((m) => known.includes(m))) return undefined;
  // Readable by this process, too: an image's template belongs to root (PostgreSQL's files are 0600), and a server
  // running as another user then creates its folder the long way rather than failing with EACCES half-way.
  try {
    fs.accessSync(path.join(data, 'PG_VERSION'), fs.constants.R_OK);
  } catch {
    return undefined;
  }
  return { data, migrations: stamp.migrations };
}

/**
 * Copies the template's files into `temp` (a new folder inside the data folder, which the caller moves in),
 * folders with their modes (PostgreSQL's 0750), files with theirs (copyFileSync keeps them). By hand rather
 * than fs.cpSync, which checks each of the template's 1,100 files once more: 10–30 % slower in turns.
 */
export function copyTemplate(from: string, to: string): void {
  fs.mkdirSync(to, { mode: fs.statSync(from).mode & 0o777 });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyTemplate(source, target);
    else fs.copyFileSync(source, target);
  }
}

/**
 * The build's side (the hidden command `internal-make-data-template`, run by scripts/build.mjs): creates a
 * migrated database in a temporary folder beside the template with `initDataDir`, stamps it, and swaps it in.
 */
export async function makeTemplate(dir: string, initDataDir: (folder: string) => Promise<void>, migrations: string[]): Promise<void> {
  const temp = `${dir}.${process.pid}.tmp`;
  fs.rmSync(temp, { recursive: true, force: true });
  fs.mkdirSync(path.join(temp, 'data'), { recursive: true });
  await initDataDir(path.join(temp, 'data'));
  const stamp: Stamp = { pglite: pgliteVersion(), migrations };
  fs.writeFileSync(path.join(temp, STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
  // Swapped in whole: a start that copies meanwhile finds the old template, the new one, or none (then initdb).
  const old = `${dir}.${process.pid}.old`;
  if (fs.existsSync(dir)) fs.renameSync(dir, old);
  try {
    fs.renameSync(temp, dir);
  } catch (err) {
    // Another build swapped its own in meanwhile (test workers may build at once): theirs is as good.
    if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY' && (err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  fs.rmSync(temp, { recursive: true, force: true });
  fs.rmSync(old, { recursive: true, force: true });
}
