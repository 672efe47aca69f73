import type { FieldProblem } from '../../platform/http/app-error.ts';
import { firstUnstorable, unstorableMessage } from '../../platform/http/storable-text.ts';
import type { FieldRef } from '../../tracker/refs.ts';
import { isCascading, isMultiLevel } from '../access/field-kinds.ts';

/**
 * The file of a sync (issue 27), JSON or CSV in the export's shapes, read into one forest of wanted options
 * (options-sync.json.ts, options-sync.csv.ts). Every problem is collected (named `options[2].children[0].optionvalue`
 * or `row 7.path`, at most MAX_FILE_PROBLEMS) and answered at once; a bound of the reading (the option limit, the
 * length of one field or string, nesting) ends it at once with a 400 naming the option or row (issue 44).
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

/**
 * Levels of a multi-level cascading select's options in a sync (issue 44): a chain that deep is exported and
 * synced back; deeper options are answered as problems. Bounds the work of one row or option (a path of a
 * CSV row, the paths of the answer), which grows with the depth.
 */
export const MAX_SYNC_LEVELS = 1_000;

/** Problems a file's reading collects at most (a file of 100,000 bad rows is not answered with 100,000 entries). */
export const MAX_FILE_PROBLEMS = 100;

/** How deep a field's options go in a sync: 1 (plain selects), 2 (cascading), MAX_SYNC_LEVELS (multi-level). */
export const syncLevels = (field: FieldRef): number => (!isCascading(field) ? 1 : isMultiLevel(field) ? MAX_SYNC_LEVELS : 2);

export const levelsMessage = (levels: number, level: number) =>
  `This field's options have at most ${levels} level${levels === 1 ? '' : 's'}; this one would be on level ${level}.`;
export const optionLimitMessage = () => `A sync takes at most ${MAX_SYNC_OPTIONS} options; this file has more (sync a larger tree in parts).`;

export function noteProblem(problems: FieldProblem[], p: FieldProblem): void {
  if (problems.length < MAX_FILE_PROBLEMS) problems.push(p);
}

export function checkValue(raw: unknown, name: string, problems: FieldProblem[]): string | undefined {
  const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
  if (typeof text !== 'string') {
    noteProblem(problems, { name, message: 'is required: the option value (text)' });
    return undefined;
  }
  const value = text.trim();
  if (value.length < 1 || value.length > 255) {
    noteProblem(problems, { name, message: 'must be a text of 1 to 255 characters (blanks at either end are removed)' });
    return undefined;
  }
  const bad = firstUnstorable(value);
  if (bad !== undefined) {
    noteProblem(problems, { name, message: unstorableMessage(bad) });
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
export function members(raw: { id?: unknown; disabled?: unknown; position?: unknown }, where: string, problems: FieldProblem[]) {
  const id = idOf(raw.id);
  const disabled = boolOf(raw.disabled);
  const position = positionOf(raw.position);
  if (id === null) noteProblem(problems, { name: `${where}.id`, message: 'must be a positive integer id (or empty for a new option)' });
  if (disabled === null) noteProblem(problems, { name: `${where}.disabled`, message: 'must be true or false (or empty to leave it)' });
  if (position === null) noteProblem(problems, { name: `${where}.position`, message: 'must be a whole number from 0 (or empty for the order of the file)' });
  return {
    ...(typeof id === 'number' ? { id } : {}),
    ...(typeof disabled === 'boolean' ? { disabled } : {}),
    ...(typeof position === 'number' ? { position } : {}),
  };
}

