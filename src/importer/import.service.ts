import type { Knex } from 'knex';
import type { AppServices } from '../services.ts';
import { DIRECTORY_TOPIC } from '../platform/auth/authenticator.ts';
import { WIKI_TOPIC } from '../wiki/wiki-write.ts';
import { TRACKER_TOPIC } from '../tracker/tracker-write.ts';
import { parseWith } from '../platform/http/validate.ts';
import { importDocumentSchema, type ImportDocument, type ParsedImportDocument } from './import.schema.ts';
import { importDirectory } from './directory.importer.ts';
import { importWikiContent, importWikiSpaces } from '../wiki/wiki.importer.ts';
import { importFieldGrants, importTrackerCatalog, importTrackerFields } from '../tracker/tracker.importer.ts';
import { importFieldDefaults, importFieldOptions } from '../fieldeditor/options/options.importer.ts';

export type Progress = (message: string) => void;

export interface ImportSummary {
  [section: string]: { created: number; skipped: number };
}

/** One section of an import document, applied inside the import's transaction. */
export type SectionImporter = (
  trx: Knex.Transaction,
  doc: ParsedImportDocument,
  ctx: AppServices,
  progress: Progress,
  summary: ImportSummary,
) => Promise<void>;

/** Sections run in this order (a page needs its space, a grant its field). Features append theirs. */
const importers: SectionImporter[] = [importDirectory, importWikiSpaces, importWikiContent, importTrackerCatalog, importTrackerFields, importFieldGrants, importFieldOptions, importFieldDefaults];

/**
 * Validates the whole document first, then applies it in ONE transaction: an import either lands
 * completely or changes nothing. Existing records (same name or key) are kept and counted as skipped,
 * so running the same file twice is harmless.
 */
export async function runImport(ctx: AppServices, input: ImportDocument | unknown, progress: Progress): Promise<ImportSummary> {
  const doc = parseWith(importDocumentSchema, input, 'document');
  const summary: ImportSummary = {};
  await ctx.db.knex.transaction(async (trx) => {
    for (const run of importers) await run(trx, doc, ctx, progress, summary);
  });
  // An import may touch anything: every node drops every cached answer.
  for (const topic of [DIRECTORY_TOPIC, WIKI_TOPIC, TRACKER_TOPIC]) await ctx.db.changes.publish(topic);
  return summary;
}
