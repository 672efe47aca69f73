import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppServices } from '../services.ts';
import { StartupError } from '../platform/startup-error.ts';
import { migrationDeps } from '../migration/migration-deps.ts';
import { openWikiExportSource } from '../migration/import-sources.ts';
import { importWikiSpaces } from '../migration/wiki/space-writer.ts';
import type { WikiExportDryRunCommand } from './user-command.ts';

/** Runs a dry run the command line handed over; answers the report as JSON (the command line prints it). */
export type WikiExportDryRunner = (cmd: WikiExportDryRunCommand, progress: (m: string) => void) => Promise<string>;

/**
 * The dry run of `import-from wiki-export FILE --dry-run`, run by the embedded server that holds the data folder
 * (issue 41): the command line cannot open the folder while the server runs, and the server must not give it up.
 * The server reads the file itself, as the command line would, and runs the same import with `dryRun: true` (one
 * transaction per space, rolled back), so the report is the one the command line prints on its own. Nothing
 * here can ask for a real import.
 */
export function wikiExportDryRunner(services: AppServices, maxTextChars: number): WikiExportDryRunner {
  return async (cmd, progress) => {
    // The command line sends an absolute path; anything else is not ours (relative to what?).
    if (!path.isAbsolute(cmd.file)) throw new StartupError('The export file must be named by an absolute path.');
    try {
      await fs.access(cmd.file, fs.constants.R_OK);
    } catch (err) {
      throw new StartupError(
        `The addon-pair server cannot read the export file ${cmd.file} (${(err as NodeJS.ErrnoException).code ?? 'error'}): ` +
          'put it where the user that runs the server may read it.',
      );
    }
    let source;
    try {
      source = await openWikiExportSource(cmd.file, { progress, maxTextChars });
    } catch (err) {
      throw oneLine(err);
    }
    try {
      const report = await importWikiSpaces(migrationDeps(services), source, { spaces: cmd.spaces, dryRun: true, progress });
      return JSON.stringify(report);
    } catch (err) {
      throw oneLine(err);
    } finally {
      await source.close();
    }
  };
}

/** The export reader's own errors are one line that names the cause, as the command line prints them. */
function oneLine(err: unknown): unknown {
  const e = err as { name?: string; message?: string };
  if (e?.name === 'WikiExportError') return new StartupError(String(e.message).split('\n')[0]!);
  return err;
}
