import type { Knex } from 'knex';
import type { z } from 'zod';

export type Progress = (message: string) => void;

export interface ImportSummary {
  [section: string]: { created: number; skipped: number };
}

/** What a part may use while it imports, besides the transaction. */
export interface ImportTools {
  progress: Progress;
  summary: ImportSummary;
  hashPassword(password: string): Promise<string>;
}

type Members = Record<string, z.ZodType>;
type Values<M extends Members> = { [K in keyof M]?: z.output<M[K]> };

/**
 * One feature's part of the `import FILE` document: the top-level members it owns (each optional in the
 * document) and how it applies them inside the import's one transaction. Features export their parts; the
 * composition root lists them in order (a page needs its space, a grant its field), so the importer
 * depends on no feature and no feature on the importer.
 */
export interface ImportPart {
  members: Members;
  /** Change-feed topics whose cached answers the part's writes make stale (announced after the commit). */
  announces: readonly string[];
  run(trx: Knex.Transaction, doc: Record<string, unknown>, tools: ImportTools): Promise<void>;
}

export function importPart<M extends Members>(
  members: M,
  announces: readonly string[],
  run: (trx: Knex.Transaction, doc: Values<M>, tools: ImportTools) => Promise<void>,
): ImportPart {
  return { members, announces, run: (trx, doc, tools) => run(trx, doc as Values<M>, tools) };
}
