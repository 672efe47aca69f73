import { randomUUID } from 'node:crypto';
import { assignMacroIds, StorageFormatError } from './storage/storage-format.ts';
import type { ContentIndexers, IndexWrite } from './content-indexer.ts';
import { invalidStorage } from './wiki.errors.ts';

export interface PreparedStorage {
  /** The body to store: the client's text with missing (or duplicated) macro ids filled in. */
  xhtml: string;
  /** The registered indexers' writes, to run in the transaction that stores the body. */
  index: IndexWrite;
  /** The names of the body's macros, nested ones included, in document order. */
  macroNames: readonly string[];
}

/**
 * Everything a save needs from a storage body, from ONE parse: validates the XHTML (400 with the parser's
 * line and column, before anything is written), gives every macro without an id a fresh UUID (existing ids
 * are kept; a later duplicate of an id is re-issued, as the host does on conflicts), and prepares the
 * indexers' writes from the macros (content-indexer.ts).
 */
export function prepareStorage(value: string, indexers: ContentIndexers, newId: () => string = randomUUID): PreparedStorage {
  let assigned;
  try {
    assigned = assignMacroIds(value, newId);
  } catch (err) {
    if (err instanceof StorageFormatError) throw invalidStorage(err.message, err);
    throw err;
  }
  return { xhtml: assigned.xhtml, index: indexers.prepare(assigned.macros), macroNames: assigned.macros.map((m) => m.name) };
}
