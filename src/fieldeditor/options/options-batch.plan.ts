import type { FieldProblem } from '../../platform/http/app-error.ts';
import { DUPLICATE_MESSAGE } from './options.errors.ts';
import { valueKey, type OptionRow } from './options.model.ts';
import type { BatchInput } from './options-batch.schemas.ts';

/**
 * What a batch does to one locked list, decided in memory from the list as it is (read under the lock) and
 * the parsed body: which rows go, which change, which are new. Every item that cannot be applied is a problem
 * named by its place (`update[2].id`, `create[5].optionvalue`); the caller writes nothing when there is one.
 * Sibling values must stay unique by the list's rule (valueKey: without regard to case) in the list as it
 * will be, so a batch may swap two names or reuse the name of an option it deletes.
 */
export interface BatchPlan {
  deletes: OptionRow[];
  /** Only the updates that change something, with the row as it was. */
  updates: { before: OptionRow; value?: string; disabled?: boolean }[];
  creates: { value: string; disabled: boolean }[];
  /** A rename takes a value another renamed option gives up: the unique index needs the old keys out of the way first. */
  renamesInTwoSteps: boolean;
}

const notInList = (id: number) => `The option ${id} is not in this list (it does not exist, or belongs to another list or context).`;

export function planBatch(rows: readonly OptionRow[], input: BatchInput, shapeProblems: readonly FieldProblem[] = []): { plan: BatchPlan; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [...shapeProblems];
  const byId = new Map(rows.map((r) => [r.id, r] as const));

  const deleted = new Map<number, OptionRow>();
  input.delete.forEach(({ id, index: i }) => {
    const row = byId.get(id);
    if (!row) problems.push({ name: `delete[${i}]`, message: notInList(id), value: { id } });
    else if (deleted.has(id)) problems.push({ name: `delete[${i}]`, message: `The option ${id} is deleted twice in this batch.`, value: { id } });
    else deleted.set(id, row);
  });

  const updated = new Map<number, { index: number; value?: string; disabled?: boolean }>();
  input.update.forEach((u) => {
    const i = u.index;
    const row = byId.get(u.id);
    const name = `update[${i}].id`;
    if (!row) problems.push({ name, message: notInList(u.id), value: { id: u.id } });
    else if (deleted.has(u.id)) problems.push({ name, message: `The option ${u.id} is also deleted in this batch.`, value: { id: u.id } });
    else if (updated.has(u.id)) problems.push({ name, message: `The option ${u.id} is changed twice in this batch.`, value: { id: u.id } });
    else updated.set(u.id, { index: i, ...(u.optionvalue === undefined ? {} : { value: u.optionvalue }), ...(u.disabled === undefined ? {} : { disabled: u.disabled }) });
  });

  // The list as it will be: whose each value key is. Options that keep their value hold theirs first, then
  // renames and creations claim theirs in the order they were sent; a later claim of a taken key is the problem.
  const holder = new Map<string, number>();
  for (const r of rows) {
    if (deleted.has(r.id)) continue;
    const u = updated.get(r.id);
    if (u?.value === undefined) holder.set(valueKey(r.value), r.id);
  }
  const claim = (value: string, name: string, ownId?: number) => {
    const key = valueKey(value);
    const other = holder.get(key);
    if (other !== undefined && other !== ownId) {
      problems.push({ name, message: DUPLICATE_MESSAGE, value: { optionvalue: value, ...(other > 0 ? { existingOptionId: other } : {}) } });
      return;
    }
    // New options hold a key with a negative mark (no id yet): a later duplicate names no existing option.
    holder.set(key, ownId ?? -1);
  };
  const updates: BatchPlan['updates'] = [];
  let renamesInTwoSteps = false;
  const renamedAwayKeys = new Set<string>();
  for (const [id, u] of updated) {
    const before = byId.get(id)!;
    const value = u.value !== undefined && u.value !== before.value ? u.value : undefined;
    const disabled = u.disabled !== undefined && u.disabled !== before.disabled ? u.disabled : undefined;
    if (u.value !== undefined) claim(u.value, `update[${u.index}].optionvalue`, id);
    if (value !== undefined && valueKey(value) !== valueKey(before.value)) renamedAwayKeys.add(valueKey(before.value));
    if (value !== undefined || disabled !== undefined) updates.push({ before, ...(value === undefined ? {} : { value }), ...(disabled === undefined ? {} : { disabled }) });
  }
  for (const u of updates) {
    if (u.value !== undefined && valueKey(u.value) !== valueKey(u.before.value) && renamedAwayKeys.has(valueKey(u.value))) renamesInTwoSteps = true;
  }
  for (const c of input.create) claim(c.optionvalue, `create[${c.index}].optionvalue`);

  return {
    plan: { deletes: [...deleted.values()], updates, creates: input.create.map((c) => ({ value: c.optionvalue, disabled: c.disabled })), renamesInTwoSteps },
    problems,
  };
}
