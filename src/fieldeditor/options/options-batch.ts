import type { Knex } from 'knex';
import type { FieldProblem } from '../../platform/http/app-error.ts';
import { validationError } from '../shared/fieldeditor.errors.ts';
import { readDefaultOptions } from './defaults.repository.ts';
import { toOptionJson, type OptionChange, type OptionJson, type OptionRow } from './options.model.ts';
import * as repo from './options.repository.ts';
import { appendOptions, deleteOptions, updateOptions } from './options-batch.repository.ts';
import { planBatch } from './options-batch.plan.ts';
import type { BatchInput } from './options-batch.schemas.ts';

const withParent = (o: OptionRow, sequence: number) => ({ ...toOptionJson(o, sequence), parentId: o.parent_id });

/**
 * A batch on one list, inside the write's transaction (the list locked, the caller's right and the delete rule
 * decided by OptionsService.write): the list is read once, the plan checked in memory (options-batch.plan.ts;
 * every problem at once, those of the items' shape included, a 400 that writes nothing), then deletes, updates and creations run as one statement
 * each. Answers the list as it is after the batch and one change per option changed, for the event log.
 */
export async function applyBatch(
  trx: Knex.Transaction,
  fieldId: number,
  list: repo.ListKey,
  input: BatchInput,
  shapeProblems: readonly FieldProblem[],
): Promise<{ options: OptionJson[]; changes: OptionChange[] }> {
  const rows = (await repo.listRows(trx, list)).map((r) => ({ ...r, position: Number(r.position) }));
  const { plan, problems } = planBatch(rows, input, shapeProblems);
  if (problems.length > 0) throw validationError(problems);
  const rankBefore = new Map(rows.map((r, i) => [r.id, i] as const));
  const changes: OptionChange[] = [];

  if (plan.deletes.length > 0) {
    const defaultsBefore = (await readDefaultOptions(trx, list.contextId)).map((o) => o.id);
    const subtrees = await deleteOptions(trx, plan.deletes.map((r) => r.id));
    await repo.deleteListLocks(trx, list.contextId, [...subtrees.values()].flat());
    const defaultsAfter = (await readDefaultOptions(trx, list.contextId)).map((o) => o.id);
    for (const option of plan.deletes) {
      const deletedIds = subtrees.get(option.id) ?? [option.id];
      // As a single delete records it: the default's ids before and after, on the entry of an option whose subtree held one.
      const heldDefault = defaultsBefore.some((id) => deletedIds.includes(id));
      changes.push({
        action: 'option.deleted',
        before: { ...withParent(option, rankBefore.get(option.id) ?? 0), deletedIds, ...(heldDefault ? { defaultOptionIds: defaultsBefore } : {}) },
        after: heldDefault ? { defaultOptionIds: defaultsAfter } : null,
      });
    }
  }
  await updateOptions(trx, plan.updates.map((u) => ({ id: u.before.id, value: u.value, disabled: u.disabled })), plan.renamesInTwoSteps);
  const last = rows.reduce<number | undefined>((m, r) => (m === undefined || r.position > m ? r.position : m), undefined);
  const created = await appendOptions(trx, fieldId, list, last, plan.creates);

  const after = await repo.listRows(trx, list);
  const rankAfter = new Map(after.map((r, i) => [r.id, i] as const));
  const rowAfter = new Map(after.map((r) => [r.id, r] as const));
  for (const u of plan.updates) {
    const row = rowAfter.get(u.before.id) ?? u.before;
    changes.push({ action: 'option.updated', before: withParent(u.before, rankBefore.get(row.id) ?? 0), after: withParent(row, rankAfter.get(row.id) ?? 0) });
  }
  for (const row of created) changes.push({ action: 'option.created', before: null, after: withParent(row, rankAfter.get(row.id) ?? 0) });
  return { options: after.map((r, i) => toOptionJson(r, i)), changes };
}
