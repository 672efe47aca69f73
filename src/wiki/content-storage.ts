import { randomUUID } from 'node:crypto';
import { AppError } from '../platform/http/app-error.ts';
import { assignMacroIds, StorageFormatError, type MacroInfo } from './storage/storage-format.ts';
import { CodeboxError, isCodeboxKind, parseCodebox, type CodeboxKind } from '../codeblocks/codebox/codebox.ts';
import { encodeBlockKey } from '../codeblocks/codebox/block-key.ts';

/** One row of the `codeboxes` index, as stored (jsonb values already serialised). */
export interface CodeboxRow {
  macro_id: string;
  kind: string;
  parameters: string;
  sections: string;
  template: string | null;
  error_kind: string | null;
}

export interface PreparedStorage {
  /** The body to store: the client's text with missing (or duplicated) macro ids filled in. */
  xhtml: string;
  codeboxes: CodeboxRow[];
}

/**
 * Everything a save needs from a storage body, from ONE parse: validates the XHTML (400 with the parser's
 * line and column, before anything is written), gives every macro without an id a fresh UUID (existing ids
 * are kept; a later duplicate of an id is re-issued, as the host does on conflicts), and builds the code-box
 * index rows of every code-box macro, nested ones included. A code box whose body cannot be parsed is still
 * indexed, with its error kind, so that the page saves and the download answers the body error.
 */
export function prepareStorage(value: string, newId: () => string = randomUUID): PreparedStorage {
  let assigned;
  try {
    assigned = assignMacroIds(value, newId);
  } catch (err) {
    if (err instanceof StorageFormatError) {
      throw new AppError(400, 'INVALID_STORAGE', `Error parsing xhtml: ${err.message}`, {
        extra: { line: err.line, column: err.column },
      });
    }
    throw err;
  }
  const codeboxes: CodeboxRow[] = [];
  for (const macro of assigned.macros) {
    // After assignMacroIds every macro has an id; the check only narrows the type.
    if (isCodeboxKind(macro.name) && macro.macroId !== undefined) codeboxes.push(indexRow(macro.name, macro.macroId, macro));
  }
  return { xhtml: assigned.xhtml, codeboxes };
}

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
