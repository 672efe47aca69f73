import fs from 'node:fs';
import path from 'node:path';
import { MemoryFS, PGlite } from '@electric-sql/pglite';

/** One file or folder of a template's data directory, relative to it; files with their bytes. */
interface TemplateEntry {
  relative: string;
  mode: number;
  bytes?: Uint8Array;
}

/** The templates read so far in this worker (the in-process projects keep a worker's modules from file to file). */
const readTemplates = new Map<string, TemplateEntry[]>();

/** Every folder and file of a data directory, parents before their children, read once per worker. */
function templateEntries(folder: string): TemplateEntry[] {
  let entries = readTemplates.get(folder);
  if (entries) return entries;
  entries = [];
  const walk = (relative: string): void => {
    for (const item of fs.readdirSync(path.join(folder, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${item.name}` : item.name;
      const full = path.join(folder, child);
      const mode = fs.statSync(full).mode & 0o777;
      if (item.isDirectory()) {
        entries!.push({ relative: child, mode });
        walk(child);
      } else {
        // A plain Uint8Array, not the Buffer readFileSync answers: Emscripten's MEMFS keeps `bytes.slice()` as the
        // file, and a Buffer's slice is a view of the same memory, so every database would write into the template.
        entries!.push({ relative: child, mode, bytes: new Uint8Array(fs.readFileSync(full)) });
      }
    }
  };
  walk('');
  readTemplates.set(folder, entries);
  return entries;
}

/**
 * PGlite's in-memory file system, filled with a copy of a migrated template's data directory before PostgreSQL
 * starts, so PGlite opens that database instead of running initdb. A test file's database is thrown away when the
 * file ends, so it never needs a folder of its own: copying the template's 40 MB folder on disk for every file
 * (1,100 files, about a second on the 2-core machine's slow system calls) was most of a test file's set-up
 * (test/README.md, "Where the time goes"); the template is read once per worker and copied in memory.
 */
export class TemplateMemoryFS extends MemoryFS {
  constructor(private readonly templateFolder: string) {
    super();
  }

  override async init(pg: PGlite, opts: Parameters<MemoryFS['init']>[1]): ReturnType<MemoryFS['init']> {
    const entries = templateEntries(this.templateFolder);
    const base = await super.init(pg, opts);
    const fill = (module: { FS: { mkdirTree(p: string): void; mkdir(p: string, mode: number): void; writeFile(p: string, data: Uint8Array, opts: { mode: number }): void } }) => {
      const root = PGlite.paths.PGDATA;
      module.FS.mkdirTree(root);
      for (const entry of entries) {
        const target = `${root}/${entry.relative}`;
        if (entry.bytes) module.FS.writeFile(target, entry.bytes, { mode: entry.mode });
        else module.FS.mkdir(target, entry.mode);
      }
    };
    const preRun = base.emscriptenOpts.preRun ?? [];
    return { emscriptenOpts: { ...base.emscriptenOpts, preRun: [...(Array.isArray(preRun) ? preRun : [preRun]), fill] } };
  }
}
