import { z } from 'zod';
import type { FieldProblem } from '../../platform/http/app-error.ts';
import { lenientId } from '../../platform/http/id.schemas.ts';
import { validationError } from '../shared/fieldeditor.errors.ts';
import { tooManyItems } from './options.errors.ts';
import { bodyObject } from '../shared/fieldeditor.schemas.ts';
import { createOptionBody, updateOptionBody } from './options.schemas.ts';

/**
 * The body of `POST {list}/batch` (issue 27): `create`, `update` and `delete`, each optional, 1,000 items at
 * most in all. Every invalid item is reported at once, named by its place (`create[3].optionvalue`), so a
 * script can fix all of them in one go; nothing is written while any item is invalid.
 */

/** Items of one batch, in all three members (docs/configuration.md, "Limits": a larger batch answers 413). */
export const MAX_BATCH_ITEMS = 1000;

const updateItem = updateOptionBody.extend({ id: z.custom<unknown>((v) => v !== undefined && v !== null, { error: 'is required' }).pipe(lenientId) });

export const batchBody = z.object(
  {
    create: z.array(createOptionBody, { error: 'must be an array of options' }).nullish(),
    update: z.array(updateItem, { error: 'must be an array of option changes' }).nullish(),
    delete: z.array(lenientId, { error: 'must be an array of option ids' }).nullish(),
  },
  bodyObject,
);

/** The valid items of a batch, each with its place in the body (for the names of later problems). */
export interface BatchInput {
  create: { index: number; optionvalue: string; disabled: boolean }[];
  update: { index: number; id: number; optionvalue?: string; disabled?: boolean }[];
  delete: { index: number; id: number }[];
}

/** `['create', 3, 'optionvalue']` → `create[3].optionvalue`. */
export const itemName = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((name, p) => (typeof p === 'number' ? `${name}[${p}]` : name ? `${name}.${String(p)}` : String(p)), '') || 'body';

const listOf = (body: unknown, key: string): unknown[] | undefined => {
  const v = (body as Record<string, unknown> | null)?.[key];
  return Array.isArray(v) ? v : undefined;
};

/**
 * Parses a batch body: 413 over the item limit (before any item is read); a body that is no object, or a
 * member that is no array, is a 400 at once. Otherwise each item is checked on its own: the valid ones are
 * answered with their places, the problems of the others named (`create[3].optionvalue`), so that the caller
 * answers them together with the problems only the list can show (options-batch.plan.ts).
 */
export function parseBatch(body: unknown): { input: BatchInput; problems: FieldProblem[] } {
  const count = ['create', 'update', 'delete'].reduce((n, k) => n + (listOf(body, k)?.length ?? 0), 0);
  if (count > MAX_BATCH_ITEMS) throw tooManyItems(count, MAX_BATCH_ITEMS);
  const shape = batchShape.safeParse(body ?? {});
  if (!shape.success) throw validationError(shape.error.issues.map((i) => ({ name: itemName(i.path), message: i.message })));
  const problems: FieldProblem[] = [];
  const items = <S extends z.ZodType>(key: string, schema: S): { index: number; value: z.output<S> }[] =>
    (listOf(body, key) ?? []).flatMap((raw, index) => {
      const r = schema.safeParse(raw);
      if (r.success) return [{ index, value: r.data }];
      problems.push(...r.error.issues.map((i) => ({ name: itemName([key, index, ...i.path]), message: i.message })));
      return [];
    });
  return {
    input: {
      create: items('create', createOptionBody).map(({ index, value: c }) => ({ index, optionvalue: c.optionvalue, disabled: c.disabled ?? false })),
      update: items('update', updateItem).map(({ index, value: u }) => ({
        index,
        id: u.id,
        ...(u.optionvalue === undefined || u.optionvalue === null ? {} : { optionvalue: u.optionvalue }),
        ...(u.disabled === undefined || u.disabled === null ? {} : { disabled: u.disabled }),
      })),
      delete: items('delete', lenientId).map(({ index, value: id }) => ({ index, id })),
    },
    problems,
  };
}

/** The body's frame: an object whose members, when present, are arrays (the items are checked one by one). */
const batchShape = z.object(
  {
    create: z.array(z.unknown(), { error: 'must be an array of options' }).nullish(),
    update: z.array(z.unknown(), { error: 'must be an array of option changes' }).nullish(),
    delete: z.array(z.unknown(), { error: 'must be an array of option ids' }).nullish(),
  },
  bodyObject,
);
