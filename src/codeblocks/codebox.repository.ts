// The code-box index (table `codeboxes`, written through the wiki's content indexer when content is saved).
// A download reads one row by its primary key and extracts only the requested section in SQL,
// so a box with many sections never ships all of them to Node for a single block.
import type { Knex } from 'knex';
import { isCodeboxKind, type CodeboxKind } from './codebox/codebox.ts';
import { CODEBOX_ERROR_KINDS, type CodeboxErrorKind } from './codebox/codebox-errors.ts';

export interface StoredSection {
  name: string;
  values: Record<string, string>;
}

interface BoxBase {
  kind: CodeboxKind;
  parameters: Record<string, string>;
  /** Set when the wiki could not parse the body (e.g. INVALID_MACRO_BODY). */
  errorKind: CodeboxErrorKind | undefined;
}

export interface BoxForDownload extends BoxBase {
  /** null for remote boxes (fetched at download time) and for boxes that failed to parse. */
  template: string | null;
  /** The requested section, or undefined when the box has no section of that name (or none was asked for). */
  section: StoredSection | undefined;
}

export interface BoxForList extends BoxBase {
  /** Section names in document order. */
  sectionNames: string[];
}

interface Row {
  kind: string;
  parameters: Record<string, string> | null;
  error_kind: string | null;
}

function base(row: Row): BoxBase {
  if (!isCodeboxKind(row.kind)) throw new Error(`codeboxes row has unknown kind ${row.kind}`);
  const errorKind = row.error_kind ?? undefined;
  if (errorKind !== undefined && !(CODEBOX_ERROR_KINDS as readonly string[]).includes(errorKind)) {
    throw new Error(`codeboxes row has unknown error_kind ${errorKind}`);
  }
  return { kind: row.kind, parameters: row.parameters ?? {}, errorKind: errorKind as CodeboxErrorKind | undefined };
}

export class CodeboxRepository {
  constructor(private readonly knex: Knex) {}

  /** The box with its template and, when `sectionName` is given, that one section. */
  async findForDownload(contentId: number, macroId: string, sectionName: string | undefined): Promise<BoxForDownload | undefined> {
    const section =
      sectionName === undefined
        ? this.knex.raw('null::jsonb as section')
        : // A path query plans cheaper than a subquery over jsonb_array_elements; the name is a jsonpath
          // variable (bound, never spliced into the path); `\\?` keeps knex from taking the filter's `?` for a
          // binding. Section names are unique per box.
          this.knex.raw(`jsonb_path_query_first(sections, '$[*] \\? (@.name == $n)', jsonb_build_object('n', ?::text)) as section`, [
            sectionName,
          ]);
    const row = (await this.knex('codeboxes')
      .select('kind', 'parameters', 'template', 'error_kind', section)
      .where({ content_id: contentId, macro_id: macroId })
      .first()) as (Row & { template: string | null; section: StoredSection | null }) | undefined;
    if (row === undefined) return undefined;
    const s = row.section;
    return { ...base(row), template: row.template, section: s ? { name: s.name, values: s.values ?? {} } : undefined };
  }

  /** The box with its section names only (a list needs neither the template nor the values). */
  async findForList(contentId: number, macroId: string): Promise<BoxForList | undefined> {
    const row = (await this.knex('codeboxes')
      .select('kind', 'parameters', 'error_kind', this.knex.raw(`jsonb_path_query_array(sections, '$[*].name') as section_names`))
      .where({ content_id: contentId, macro_id: macroId })
      .first()) as (Row & { section_names: unknown }) | undefined;
    if (row === undefined) return undefined;
    const names = Array.isArray(row.section_names) ? row.section_names.filter((n): n is string => typeof n === 'string') : [];
    return { ...base(row), sectionNames: names };
  }
}

/** The ids of every content the index holds a box of, as a subquery (the wiki's listing narrows to it). */
export function contentHoldingBoxes(knex: Knex): Knex.QueryBuilder {
  return knex('codeboxes').select('content_id');
}

/** How many boxes each of these contents holds (nested ones included), by content id. */
export async function countBoxes(knex: Knex, contentIds: readonly number[]): Promise<Map<number, number>> {
  if (contentIds.length === 0) return new Map();
  const rows = (await knex('codeboxes').whereIn('content_id', contentIds).groupBy('content_id').select('content_id', knex.raw('count(*)::int as boxes'))) as {
    content_id: number | string;
    boxes: number;
  }[];
  return new Map(rows.map((r) => [Number(r.content_id), r.boxes]));
}

/** One row of the `codeboxes` index, as stored (jsonb values already serialised). */
export interface CodeboxRow {
  macro_id: string;
  kind: string;
  parameters: string;
  sections: string;
  template: string | null;
  error_kind: string | null;
}

/** Replaces the content's code-box index rows: one delete, one multi-row insert. */
export async function replaceCodeboxes(q: Knex, contentId: number, rows: readonly CodeboxRow[]): Promise<void> {
  await q('codeboxes').where({ content_id: contentId }).del().returning('macro_id');
  if (rows.length > 0) await q('codeboxes').insert(rows.map((r) => ({ content_id: contentId, ...r })));
}

/** What the download service reads of the index (the repository itself, or its per-node cache). */
export type CodeboxReader = Pick<CodeboxRepository, 'findForDownload' | 'findForList'>;
