import type { FieldProblem } from '../../platform/http/app-error.ts';
import { validationError } from '../shared/fieldeditor.errors.ts';
import { CsvError, CsvReader, type CsvRecord } from './options-csv.ts';
import { splitPath } from './option-path.ts';
import { valueKey } from './options.model.ts';
import { checkValue, levelsMessage, members, MAX_SYNC_OPTIONS, noteProblem, optionLimitMessage, type FileNode } from './options-sync.input.ts';
import type { TreeRow } from './options-tree.repository.ts';

/**
 * The export's CSV read as it arrives (issue 44): a header naming at least `path` (`id`, `disabled`, `position`
 * optional; other columns, `default` among them, are ignored), one row per option. Each path is kept as one
 * number: its names are interned level by level (a parent path and a name), so a file costs memory for the
 * paths it names, at most MAX_SYNC_OPTIONS of them (rows, and the parents their paths name), however deep.
 * A row deeper than the field's levels is a problem naming the row; more lines than the option limit, or a
 * field longer than a path of the field's levels can be, end the reading with a 400 naming the row.
 */
export interface CsvRow {
  node: FileNode;
  /** The interned path of the row, and of its parent (-1: the top level). */
  path: number;
  parent: number;
}

export interface CsvFile {
  rows: CsvRow[];
  /** Interned paths: the parent path and the (last) name of each, by number; `keys` finds a path's number. */
  parents: number[];
  names: string[];
  keys: Map<string, number>;
}

const pathKey = (parent: number, name: string) => `${parent}\u0000${valueKey(name)}`;

export class CsvForestReader {
  private readonly file: CsvFile = { rows: [], parents: [], names: [], keys: new Map() };
  private readonly reader: CsvReader;
  private columns: string[] | undefined;
  private lines = 0;

  constructor(
    private readonly levels: number,
    private readonly problems: FieldProblem[],
  ) {
    // A name is 255 characters at most, escaped twice that; blanks around it and a leading ' come on top.
    const maxCell = levels * 1_024 + 1_024;
    const tooLong = `a field longer than ${maxCell} characters: a path of this field has at most ${levels} level${levels === 1 ? '' : 's'} of 255 characters`;
    this.reader = new CsvReader((r) => this.record(r), { maxCell, maxCells: 1_000, tooLong });
  }

  push(chunk: string): void {
    this.guard(() => this.reader.push(chunk));
  }

  end(): CsvFile {
    this.guard(() => this.reader.end());
    if (!this.columns) noteProblem(this.problems, { name: 'row 1', message: 'the first row must name the columns, path among them (id,path,disabled,position)' });
    return this.file;
  }

  private guard(step: () => void): void {
    try {
      step();
    } catch (err) {
      if (err instanceof CsvError) throw validationError([{ name: `row ${err.line}`, message: err.message }]);
      throw err;
    }
  }

  private record(r: CsvRecord): void {
    if (++this.lines > MAX_SYNC_OPTIONS + 1) throw validationError([{ name: `row ${r.line}`, message: optionLimitMessage() }]);
    if (r.cells.length === 1 && r.cells[0] === '') return; // a blank line: no option (counted above)
    if (!this.columns) {
      this.columns = r.cells.map((c) => c.trim().toLowerCase());
      if (!this.columns.includes('path')) {
        throw validationError([{ name: 'row 1', message: 'the first row must name the columns, path among them (id,path,disabled,position)' }]);
      }
      return;
    }
    const cell = (name: string) => {
      const i = this.columns!.indexOf(name);
      return i < 0 ? undefined : r.cells[i];
    };
    const where = `row ${r.line}`;
    let rawPath = cell('path') ?? '';
    // The export's guard against formulas: one leading ' comes off (csvCell).
    if (rawPath.startsWith("'")) rawPath = rawPath.slice(1);
    const names = splitPath(rawPath.trim())?.map((n) => n.trim());
    if (!names) {
      noteProblem(this.problems, { name: `${where}.path`, message: 'must be the names from the top level joined by / (a / or \\ in a name written \\/ or \\\\), none empty' });
      return;
    }
    if (names.length > this.levels) {
      noteProblem(this.problems, { name: `${where}.path`, message: levelsMessage(this.levels, names.length) });
      return;
    }
    const value = checkValue(names.at(-1), `${where}.path`, this.problems);
    for (const n of names.slice(0, -1)) checkValue(n, `${where}.path`, this.problems);
    if (value === undefined) return;
    const node: FileNode = { value, where, ...members({ id: cell('id'), disabled: cell('disabled'), position: cell('position') }, where, this.problems), children: [] };
    let parent = -1;
    let path = -1;
    names.forEach((name, i) => {
      if (i > 0) parent = path;
      path = this.intern(parent, name, where);
    });
    this.file.rows.push({ node, path, parent });
  }

  private intern(parent: number, name: string, where: string): number {
    const key = pathKey(parent, name);
    const known = this.file.keys.get(key);
    if (known !== undefined) return known;
    const n = this.file.parents.length;
    if (n >= MAX_SYNC_OPTIONS) {
      throw validationError([{ name: `${where}.path`, message: `${optionLimitMessage()} (options named by rows and by the parents in their paths)` }]);
    }
    this.file.keys.set(key, n);
    this.file.parents.push(parent);
    this.file.names.push(name);
    return n;
  }
}

/**
 * The forest of a read CSV. A row's parent is the row whose path is its path without the last name (compared
 * by the list's rule); a parent renamed in the file is still found by its old path through its id (a
 * spreadsheet user renames one cell, not the paths of all its children); a parent without a row of its own is
 * wanted as it is named (created when it does not exist). Iterative: a path of any depth costs no stack.
 */
export function forestFromCsv(file: CsvFile, tree: readonly TreeRow[], problems: FieldProblem[]): FileNode[] {
  const existingById = new Map(tree.map((t) => [t.id, t] as const));
  const roots: FileNode[] = [];
  const byPath = new Map<number, FileNode>();
  const byOldPath = new Map<number, FileNode>();
  const kept: CsvRow[] = [];
  for (const read of file.rows) {
    // Nodes of their own: the file may be compared more than once (a preview, then its apply).
    const row = { ...read, node: { ...read.node, children: [] } };
    const other = byPath.get(row.path);
    if (other) {
      noteProblem(problems, { name: `${row.node.where}.path`, message: `this path is on ${other.where} already` });
      continue;
    }
    byPath.set(row.path, row.node);
    kept.push(row);
    const old = row.node.id === undefined ? undefined : existingById.get(row.node.id);
    if (!old) continue;
    // The old path, when the file names it at all (a path it does not name cannot be a row's parent).
    let p = -1;
    for (const name of old.names) {
      p = file.keys.get(pathKey(p, name)) ?? -2;
      if (p === -2) break;
    }
    if (p >= 0) byOldPath.set(p, row.node);
  }
  // Parents are found once every row is known (a child row may come before its parent's).
  const parentOf = (path: number, where: string): FileNode => {
    const missing: number[] = [];
    let found: FileNode | undefined;
    for (let p = path; p >= 0 && !found; p = file.parents[p]!) {
      found = byPath.get(p) ?? byOldPath.get(p);
      if (!found) missing.push(p);
    }
    // Named only in a child's path: wanted as named, enabled unless it exists; the topmost first.
    for (const p of missing.reverse()) {
      const implied: FileNode = { value: file.names[p]!, where, children: [] };
      byPath.set(p, implied);
      if (found) found.children.push(implied);
      else roots.push(implied);
      found = implied;
    }
    return found!;
  };
  for (const { node, parent } of kept) {
    if (parent < 0) roots.push(node);
    else parentOf(parent, node.where).children.push(node);
  }
  return roots;
}
