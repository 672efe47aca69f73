// Public API for wiki storage XHTML: parse, list macros, find one by id, and give every
// macro an id. Id assignment edits the caller's text in place (by parser offsets) instead
// of re-serialising a tree, so entities, CDATA, attribute order and whitespace survive.
import { parseStorageDetailed, type MacroInfo, type StorageDoc } from './storage-parser.ts';

export {
  AC_NS,
  MAX_STORAGE_BYTES,
  MAX_STORAGE_DEPTH,
  StorageFormatError,
  type BodyKind,
  type MacroInfo,
  type StorageDoc,
} from './storage-parser.ts';

/** Parses storage XHTML; throws StorageFormatError (with line and column) when it is malformed. */
export function parseStorage(xhtml: string): StorageDoc {
  return parseStorageDetailed(xhtml).doc;
}

/** The first macro carrying this id (ids are unique after assignMacroIds). */
export function findMacroById(xhtml: string, macroId: string): MacroInfo | undefined {
  return parseStorage(xhtml).macros.find((m) => m.macroId === macroId);
}

export interface AssignResult {
  xhtml: string;
  macros: MacroInfo[];
  /** How many macros got a fresh id. */
  assigned: number;
}

interface Edit {
  from: number;
  to: number;
  text: string;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/** Offsets of the value of attribute `name` inside a well-formed start tag [tagStart, tagEnd). */
function attributeValueSpan(
  xhtml: string,
  tagStart: number,
  tagEnd: number,
  name: string,
): [number, number] | undefined {
  const tag = xhtml.slice(tagStart, tagEnd);
  const pair = /\s*([^\s=/>]+)\s*=\s*(["'])/y;
  let i = tag.search(/[\s/>]/);
  while (i >= 0) {
    pair.lastIndex = i;
    const m = pair.exec(tag);
    if (m === null || m[2] === undefined) return undefined;
    const valueStart = pair.lastIndex;
    const valueEnd = tag.indexOf(m[2], valueStart);
    if (m[1] === name) return [tagStart + valueStart, tagStart + valueEnd];
    i = valueEnd + 1;
  }
  return undefined;
}

function freshId(newId: () => string, taken: Set<string>): string {
  for (let attempt = 0; attempt < 16; attempt++) {
    const id = newId();
    if (id.trim() !== '' && !taken.has(id)) return id;
  }
  throw new Error('macro id generator keeps returning empty or already used ids');
}

/**
 * Gives every `ac:structured-macro` without a usable `ac:macro-id` a fresh one from `newId`.
 * Kept: the first occurrence of each non-blank id. Replaced: blank ids (`""`, spaces) and
 * later duplicates of an id already used earlier in the same document, because the host
 * also re-issues ids only on conflicts and a duplicate could never be addressed by id.
 */
export function assignMacroIds(xhtml: string, newId: () => string): AssignResult {
  const { doc, details } = parseStorageDetailed(xhtml);
  const taken = new Set<string>();
  for (const m of doc.macros) if (m.macroId !== undefined) taken.add(m.macroId);
  const kept = new Set<string>();
  const edits: Edit[] = [];

  doc.macros.forEach((macro, i) => {
    const id = macro.macroId;
    if (id !== undefined && id.trim() !== '' && !kept.has(id)) {
      kept.add(id);
      return;
    }
    const fresh = freshId(newId, taken);
    taken.add(fresh);
    const detail = details[i];
    const span =
      detail?.idAttribute === undefined
        ? undefined
        : attributeValueSpan(xhtml, macro.start, macro.startTagEnd, detail.idAttribute);
    if (span !== undefined) {
      edits.push({ from: span[0], to: span[1], text: escapeAttribute(fresh) });
    } else {
      // Before `>` or `/>`: the new attribute lands last, where the host writes it too.
      const at = macro.startTagEnd - (macro.selfClosing ? 2 : 1);
      const prefix = detail?.prefix || 'ac';
      edits.push({ from: at, to: at, text: ` ${prefix}:macro-id="${escapeAttribute(fresh)}"` });
    }
  });

  if (edits.length === 0) return { xhtml, macros: doc.macros, assigned: 0 };
  const parts: string[] = [];
  let cursor = 0;
  for (const edit of edits) {
    parts.push(xhtml.slice(cursor, edit.from), edit.text);
    cursor = edit.to;
  }
  parts.push(xhtml.slice(cursor));
  const out = parts.join('');
  // Re-parse so offsets, lines and ids in the returned macros describe the new text.
  return { xhtml: out, macros: parseStorage(out).macros, assigned: edits.length };
}
