import type { ContentIndexer } from '../wiki/content-indexer.ts';
import type { MacroInfo } from '../wiki/storage/storage-format.ts';
import { invalidStorage } from '../wiki/wiki.errors.ts';
import { CodeboxError, isCodeboxKind, parseCodebox, type CodeboxKind } from './codebox/codebox.ts';
import { encodeBlockKey } from './codebox/block-key.ts';
import { replaceCodeboxes, type CodeboxRow } from './codebox.repository.ts';
import { firstUnstorable, unstorableMessage } from '../platform/http/storable-text.ts';

/**
 * The code-box index (table `codeboxes`), kept by the wiki's content indexer hook: every code-box macro of a
 * saved body, nested ones included, becomes one row with its parsed sections, written in the page's
 * transaction, so a download is one indexed look-up and never a page parse. A code box whose body cannot be
 * parsed is still indexed, with its error kind, so that the page saves and the download answers the error.
 */
export const codeboxIndexer: ContentIndexer = {
  prepare(macros) {
    const rows: CodeboxRow[] = [];
    for (const macro of macros) {
      // After the wiki assigned ids every macro has one; the check only narrows the type.
      if (isCodeboxKind(macro.name) && macro.macroId !== undefined) rows.push(indexRow(macro.name, macro.macroId, macro));
    }
    for (const row of rows) refuseUnlistable(row);
    return (trx, contentId) => replaceCodeboxes(trx, contentId, rows);
  },
  serves: isCodeboxKind,
};

function indexRow(kind: CodeboxKind, macroId: string, macro: MacroInfo): CodeboxRow {
  const base = { macro_id: macroId, kind, parameters: JSON.stringify(macro.parameters) };
  try {
    const parsed = parseCodebox(kind, macro.body, macro.parameters);
    const sections = parsed.sections.map((s) => ({
      name: s.name,
      key: encodeBlockKey(s.name),
      values: Object.fromEntries(s.values),
    }));
    return { ...base, sections: JSON.stringify(sections), template: parsed.template ?? null, error_kind: null };
  } catch (err) {
    if (!(err instanceof CodeboxError)) throw err;
    return { ...base, sections: '[]', template: null, error_kind: err.kind };
  }
}

/**
 * Macro ids and section names are listed in XML (E2). The XHTML parser already refuses characters XML 1.0
 * lacks; this keeps the promise for any way a body reaches the index (imports, a more lenient parser later).
 */
function refuseUnlistable(row: CodeboxRow): void {
  const names = (JSON.parse(row.sections) as { name: string }[]).map((s) => s.name);
  for (const [what, text] of [['macro id', row.macro_id] as const, ...names.map((n) => ['section name', n] as const)]) {
    const bad = firstUnstorable(text);
    if (bad !== undefined) throw invalidStorage(`a code box ${what} ${unstorableMessage(bad)}`);
  }
}
