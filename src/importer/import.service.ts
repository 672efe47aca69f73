import { z } from 'zod';
import type { Db } from '../platform/db/knex.ts';
import type { PasswordHasher } from '../platform/auth/password-hasher.ts';
import { parseWith } from '../platform/http/validate.ts';
import type { ImportPart, ImportSummary, Progress } from '../platform/import/import-part.ts';

export type { ImportSummary, Progress } from '../platform/import/import-part.ts';

/** An `import FILE` document: checked against the parts' members before anything is written. */
export type ImportDocument = Record<string, unknown>;

/** What an import needs: the database, the password hasher, and the parts in the order they run. */
export interface ImportDeps {
  db: Db;
  hasher: PasswordHasher;
  importParts: readonly ImportPart[];
}

/** The whole document's schema: every part's members, each optional; unknown top-level keys are refused. */
function documentSchema(parts: readonly ImportPart[]) {
  const members: Record<string, z.ZodType> = { version: z.literal(1).optional() };
  for (const part of parts) for (const [key, schema] of Object.entries(part.members)) members[key] = schema.optional();
  return z.strictObject(members);
}

/**
 * Validates the whole document first, then applies it in ONE transaction: an import either lands
 * completely or changes nothing. Existing records (same name or key) are kept and counted as skipped,
 * so running the same file twice is harmless. A typo in a top-level key is refused rather than ignored.
 */
export async function runImport(deps: ImportDeps, input: ImportDocument | unknown, progress: Progress): Promise<ImportSummary> {
  const doc = parseWith(documentSchema(deps.importParts), input, 'document') as Record<string, unknown>;
  const summary: ImportSummary = {};
  const tools = { progress, summary, hashPassword: (p: string) => deps.hasher.hash(p) };
  await deps.db.knex.transaction(async (trx) => {
    for (const part of deps.importParts) await part.run(trx, doc, tools);
  });
  // Every node drops the cached answers of everything the import may have touched.
  for (const topic of new Set(deps.importParts.flatMap((p) => p.announces))) await deps.db.changes.publish(topic);
  return summary;
}
