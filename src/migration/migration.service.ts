import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import type { MigrationDeps } from './migration-deps.ts';
import type { MigrationReport } from './report.ts';
import { openWikiExportSource } from './import-sources.ts';
import { importWikiSpaces } from './wiki/space-writer.ts';
import { spoolUpload } from './upload-spool.ts';
import { exportRefused } from './migration.errors.ts';

/**
 * The administrator's upload of a space export: spooled to a temporary file (never held in memory), read by
 * the export reader, and written by the space writer as `import-from wiki-export` does, one transaction per
 * space. The temporary file is removed whatever happens.
 */
export class MigrationService {
  constructor(
    private readonly deps: MigrationDeps,
    private readonly uploadLimit: number,
    private readonly progress: (m: string) => void = () => undefined,
    /** WIKI_EXPORT_MAX_TEXT_MB in characters; undefined: the reader's default. */
    private readonly maxTextChars?: number,
  ) {}

  async importWikiExport(req: IncomingMessage, type: string, opts: { spaces: string[]; dryRun: boolean }): Promise<MigrationReport> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'addon-pair-export-'));
    try {
      const file = path.join(dir, type === 'application/zip' ? 'space-export.zip' : 'entities.xml');
      await spoolUpload(req, file, this.uploadLimit);
      let source;
      try {
        source = await openWikiExportSource(file, { progress: this.progress, maxTextChars: this.maxTextChars });
      } catch (err) {
        throw refusal(err);
      }
      try {
        return await importWikiSpaces(this.deps, source, { spaces: opts.spaces, dryRun: opts.dryRun, progress: this.progress });
      } catch (err) {
        throw refusal(err);
      } finally {
        await source.close();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
}

/** The export reader's one-line errors as the API's 400. */
function refusal(err: unknown): unknown {
  const e = err as { name?: string; message?: string };
  if (e?.name === 'WikiExportError') return exportRefused(String(e.message));
  return err;
}
