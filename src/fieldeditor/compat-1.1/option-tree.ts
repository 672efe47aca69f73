// API 1.1's option model: the list of a field's default context with each option's children nested in
// `childOptions` (cascading fields only), read through the same cached lists the 1.2 endpoints answer from.
import type { ContextRef, FieldRef } from '../../tracker/refs.ts';
import { isCascading, isMultiLevel } from '../access/field-kinds.ts';
import type { OptionJson } from '../options/options.model.ts';
import type { OptionsService } from '../options/options.service.ts';
import { AppError } from '../../platform/http/app-error.ts';

/** An option as 1.1 shows it: member order optionvalue, id, sequence, disabled, then `childOptions` when nested. */
export type Option11 = OptionJson & { childOptions?: Option11[] };

/** The options of one list (`parentId` null: the top level), parsed from the list cache's JSON. */
async function listOf(options: OptionsService, field: FieldRef, context: ContextRef, parentId: number | null): Promise<OptionJson[]> {
  return JSON.parse((await options.listJson({ field, context, parentId })).text()) as OptionJson[];
}

/**
 * The options of a list, each with its children in `childOptions` on a cascading field (children of a plain
 * cascading select have none: `[]`; on the multi-level select the whole subtree). Other field types get the
 * plain list, without the member, as 1.1 answered. A parent deleted between the two reads has no children.
 */
export async function readOptionTree(options: OptionsService, field: FieldRef, context: ContextRef, parentId: number | null): Promise<Option11[]> {
  const list = await listOf(options, field, context, parentId);
  if (!isCascading(field)) return list;
  const nests = parentId === null || isMultiLevel(field);
  if (!nests) return list.map((o) => ({ ...o, childOptions: [] }));
  return Promise.all(
    list.map(async (o) => {
      try {
        return { ...o, childOptions: await readOptionTree(options, field, context, o.id) };
      } catch (err) {
        if (err instanceof AppError && err.code === 'OPTION_NOT_FOUND') return { ...o, childOptions: [] };
        throw err;
      }
    }),
  );
}

/** 1.1's `DeleteOk`: the id of the deleted option as a string. */
export const deleteOk = (deleted: { id: number }) => ({ id: String(deleted.id) });
