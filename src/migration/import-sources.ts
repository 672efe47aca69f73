// The three sources of `import-from`, in one place for the command line and the REST upload: each is loaded
// only when asked for (a live tracker's code is not needed to read an export file).
import type { MigrationDeps } from './migration-deps.ts';
import type { MigrationReport } from './report.ts';
import type { SourceAuth } from './source-http.ts';
import type { WikiSource } from './wiki/space-model.ts';

/** A wiki space export: the zip the wiki's XML export writes, or its bare entities.xml. */
export async function openWikiExportSource(file: string, opts: { progress: (m: string) => void; maxTextChars?: number }): Promise<WikiSource> {
  const { openWikiExport } = await import('./wiki-export/open-wiki-export.ts');
  return openWikiExport(file, opts);
}

/** A live wiki over its content REST. */
export async function openWikiRestSource(opts: { url: string; auth: SourceAuth; progress: (m: string) => void; maxAnswerBytes?: number }): Promise<WikiSource> {
  const { openWikiRest } = await import('./wiki-rest/wiki-rest-source.ts');
  return openWikiRest(opts);
}

/** A live tracker running the original field editor. */
export async function importTrackerSource(
  deps: MigrationDeps,
  opts: { url: string; auth: SourceAuth; fields?: string[]; dryRun: boolean; progress: (m: string) => void; maxAnswerBytes?: number },
): Promise<MigrationReport> {
  const { importFromTracker } = await import('./tracker-rest/tracker-import.ts');
  return importFromTracker(deps, opts);
}
