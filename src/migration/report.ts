// The report every `import-from` run ends with, as text and as JSON (`--json`), whatever the source.
// One unit is a space (wiki) or a field (tracker): imported in one transaction, or failed and untouched.

export type UnitOutcome = 'imported' | 'unchanged' | 'failed' | 'would-import';

export interface UnitReport {
  kind: 'space' | 'field';
  /** Space key or field name (and id). */
  name: string;
  outcome: UnitOutcome;
  /** Why a unit failed, in one line. */
  reason?: string;
  /** Per kind of record (pages, comments, options, grants …): created, updated, unchanged. */
  counts: Record<string, { created: number; updated: number; unchanged: number }>;
  /** Ids that were taken here and got a new id: kind, the source's id, ours. */
  mapped: { kind: string; from: number | string; to: number | string }[];
  /** Items not imported, with the reason (drafts, deleted pages, unknown macros …), counted by reason. */
  skipped: Record<string, number>;
  /** Each page, blog post or comment imported hidden or not imported, with the reason (wiki imports). */
  items?: ItemNote[];
  /** A space nobody may read yet (no read grant at all): an administrator grants read (wiki imports). */
  nobodyReads?: boolean;
}

/** One content item the report names: kept hidden (restricted to nobody), or not imported. */
export interface ItemNote {
  kind: 'page' | 'blogpost' | 'comment';
  /** The source's id. */
  id: number;
  /** Our id, for hidden items (the one to lift the restriction of). */
  localId?: number;
  title: string;
  outcome: 'hidden' | 'not imported';
  reason: string;
}

export interface MigrationReport {
  source: string;
  dryRun: boolean;
  units: UnitReport[];
  /** Users created without a usable password: an administrator sets one (`user passwd`). */
  usersWithoutPassword: string[];
  warnings: string[];
}
