import type { FieldProblem } from '../../platform/http/app-error.ts';
import { firstUnstorable, unstorableMessage } from '../../platform/http/storable-text.ts';
import { parseCsv } from './options-csv.ts';
import { splitPath } from './option-path.ts';
import { valueKey } from './options.model.ts';
import type { TreeRow } from './options-tree.repository.ts';

/**
 * The file of a sync (issue 27), JSON or CSV in the export's shapes, read into one forest of wanted options.
 * Every problem is collected (named `options[2].children[0].optionvalue` or `row 7.path`) and answered at once.
 */
export interface FileNode {
  id?: number;
  value: string;
  /** Absent: left as it is (a new option is enabled). */
  disabled?: boolean;
  /** Order among its siblings; absent: the order of the file. */
  position?: number;
  /** Where the node is in the file, for the problems' names. */
  where: string;
  children: FileNode[];
}

/** Options one file may hold (bounds the work of one sync; a larger tree is synced in parts, or by the batch). */
export const MAX_SYNC_OPTIONS = 100_000;

const MAX_ID = 2_147_483_647;

/** Deepest nesting of a file (the input boundary's bound of JSON bodies, which an upload does not pass). */
const MAX_LEVELS = 64;

function checkValue(raw: unknown, name: string, problems: FieldProblem[]): string | undefined {
  const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
  if (typeof text !== 'string') {
    problems.push({ name, message: 'is required: the option value (text)' });
    return undefined;
  }
  const value = text.trim();
  if (value.length < 1 || value.length > 255) {
    problems.push({ name, message: 'must be a text of 1 to 255 characters (blanks at either end are removed)' });
    return undefined;
  }
  const bad = firstUnstorable(value);
  if (bad !== undefined) {
    problems.push({ name, message: unstorableMessage(bad) });
    return undefined;
  }
  return value;
}

const idOf = (raw: unknown): number | undefined | null => {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const n = typeof raw === 'string' && /^\s*\d{1,10}\s*$/.test(raw) ? Number(raw) : raw;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= MAX_ID ? n : null;
};
const boolOf = (raw: unknown): boolean | undefined | null => {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw === 'boolean') return raw;
  const s = String(raw).trim().toLowerCase();
  return s === 'true' ? true : s === 'false' ? false : null;
};
const positionOf = (raw: unknown): number | undefined | null => {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const n = typeof raw === 'string' && /^\s*\d{1,9}\s*$/.test(raw) ? Number(raw) : raw;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
};

/** id, disabled and position of one node, each problem named. */
function members(raw: { id?: unknown; disabled?: unknown; position?: unknown }, where: string, problems: FieldProblem[]) {
  const id = idOf(raw.id);
  const disabled = boolOf(raw.disabled);
  const position = positionOf(raw.position);
  if (id === null) problems.push({ name: `${where}.id`, message: 'must be a positive integer id (or empty for a new option)' });
  if (disabled === null) problems.push({ name: `${where}.disabled`, message: 'must be true or false (or empty to leave it)' });
  if (position === null) problems.push({ name: `${where}.position`, message: 'must be a whole number from 0 (or empty for the order of the file)' });
  return {
    ...(typeof id === 'number' ? { id } : {}),
    ...(typeof disabled === 'boolean' ? { disabled } : {}),
    ...(typeof position === 'number' ? { position } : {}),
  };
}

/** The export's JSON (`{options: […]}`, or the array alone). */
export function forestFromJson(body: unknown, problems: FieldProblem[]): FileNode[] {
  const top = Array.isArray(body) ? body : (body as { options?: unknown } | null)?.options;
  if (!Array.isArray(top)) {
    problems.push({ name: 'options', message: 'must be an array of options: {"options": [{"optionvalue": …, "children": […]}]}' });
    return [];
  }
  let count = 0;
  const walk = (list: unknown[], prefix: string, depth = 0): FileNode[] =>
    list.flatMap((raw, i) => {
      const where = `${prefix}[${i}]`;
      if (++count > MAX_SYNC_OPTIONS) return [];
      if (depth >= MAX_LEVELS) {
        if (i === 0) problems.push({ name: where, message: `A file's options may be nested ${MAX_LEVELS} levels deep at most.` });
        return [];
      }
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
        problems.push({ name: where, message: 'must be an option object' });
        return [];
      }
      const o = raw as Record<string, unknown>;
      const value = checkValue(o.optionvalue, `${where}.optionvalue`, problems);
      const children = o.children === undefined || o.children === null ? [] : o.children;
      if (!Array.isArray(children)) problems.push({ name: `${where}.children`, message: 'must be an array of options' });
      const node: FileNode = { value: value ?? '', where, ...members(o, where, problems), children: Array.isArray(children) ? walk(children, `${where}.children`, depth + 1) : [] };
      return value === undefined ? [] : [node];
    });
  const forest = walk(top, 'options');
  if (count > MAX_SYNC_OPTIONS) problems.push({ name: 'options', message: `A sync takes at most ${MAX_SYNC_OPTIONS} options; this file has ${count}.` });
  return forest;
}

/**
 * The export's CSV: a header naming at least `path` (`id`, `disabled`, `position` optional; other columns,
 * `default` among them, are ignored), one row per option. A row's parent is the row whose path is its path
 * without the last name (compared by the list's rule); a parent renamed in the file is still found by its
 * old path through its id (a spreadsheet user renames one cell, not the paths of all its children); a
 * parent without a row of its own is wanted as it is named (created when it does not exist).
 */
export function forestFromCsv(text: string, tree: readonly TreeRow[], problems: FieldProblem[]): FileNode[] {
  const parsed = parseCsv(text);
  if ('error' in parsed) {
    problems.push({ name: `row ${parsed.error.line}`, message: parsed.error.message });
    return [];
  }
  const [header, ...rows] = parsed.records;
  const columns = (header?.cells ?? []).map((c) => c.trim().toLowerCase());
  const col = (name: string) => columns.indexOf(name);
  if (col('path') < 0) {
    problems.push({ name: 'row 1', message: 'the first row must name the columns, path among them (id,path,disabled,position)' });
    return [];
  }
  if (rows.length > MAX_SYNC_OPTIONS) {
    problems.push({ name: 'body', message: `A sync takes at most ${MAX_SYNC_OPTIONS} options; this file has ${rows.length}.` });
    return [];
  }
  const cell = (r: string[], name: string) => (col(name) < 0 ? undefined : r[col(name)]);
  const keyOf = (names: readonly string[]) => names.map(valueKey).join('\u0000');
  const existingById = new Map(tree.map((t) => [t.id, t] as const));
  const roots: FileNode[] = [];
  const byKey = new Map<string, FileNode>();
  const byOldKey = new Map<string, FileNode>();
  const pending: { node: FileNode; parentNames: string[] }[] = [];
  for (const r of rows) {
    const where = `row ${r.line}`;
    let rawPath = cell(r.cells, 'path') ?? '';
    // The export's guard against formulas: one leading ' comes off (csvCell).
    if (rawPath.startsWith("'")) rawPath = rawPath.slice(1);
    const names = splitPath(rawPath.trim())?.map((n) => n.trim());
    if (!names) {
      problems.push({ name: `${where}.path`, message: 'must be the names from the top level joined by / (a / or \\ in a name written \\/ or \\\\), none empty' });
      continue;
    }
    const value = checkValue(names.at(-1), `${where}.path`, problems);
    for (const n of names.slice(0, -1)) checkValue(n, `${where}.path`, problems);
    if (value === undefined) continue;
    const node: FileNode = { value, where, ...members({ id: cell(r.cells, 'id'), disabled: cell(r.cells, 'disabled'), position: cell(r.cells, 'position') }, where, problems), children: [] };
    const key = keyOf(names);
    if (byKey.has(key)) {
      problems.push({ name: `${where}.path`, message: `the path ${rawPath} is on ${byKey.get(key)!.where} already` });
      continue;
    }
    byKey.set(key, node);
    const old = node.id === undefined ? undefined : existingById.get(node.id);
    if (old) byOldKey.set(keyOf(old.names), node);
    pending.push({ node, parentNames: names.slice(0, -1) });
  }
  // Parents are found once every row is known (a child row may come before its parent's).
  const parentOf = (names: string[], where: string): FileNode => {
    const key = keyOf(names);
    const found = byKey.get(key) ?? byOldKey.get(key);
    if (found) return found;
    // Named only in a child's path: wanted as named, enabled unless it exists.
    const implied: FileNode = { value: names.at(-1)!, where, children: [] };
    byKey.set(key, implied);
    if (names.length === 1) roots.push(implied);
    else parentOf(names.slice(0, -1), where).children.push(implied);
    return implied;
  };
  for (const { node, parentNames } of pending) {
    if (parentNames.length === 0) roots.push(node);
    else parentOf(parentNames, node.where).children.push(node);
  }
  return roots;
}
