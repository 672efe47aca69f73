import { z } from 'zod';
import { lenientId } from '../../platform/http/id.schemas.ts';
import { validationError } from '../fieldeditor.errors.ts';
import { tooManyItems } from './options.errors.ts';
import { bodyObject } from '../fieldeditor.schemas.ts';
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

export interface BatchInput {
  create: { optionvalue: string; disabled: boolean }[];
  update: { id: number; optionvalue?: string; disabled?: boolean }[];
  delete: number[];
}

/** `['create', 3, 'optionvalue']` → `create[3].optionvalue`. */
export const itemName = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((name, p) => (typeof p === 'number' ? `${name}[${p}]` : name ? `${name}.${String(p)}` : String(p)), '') || 'body';

/** Parses a batch body: 413 over the item limit (before any item is read), else 400 naming every bad item. */
export function parseBatch(body: unknown): BatchInput {
  const b = (body ?? {}) as Record<string, unknown>;
  const count = ['create', 'update', 'delete'].reduce((n, k) => n + (Array.isArray(b[k]) ? (b[k] as unknown[]).length : 0), 0);
  if (count > MAX_BATCH_ITEMS) throw tooManyItems(count, MAX_BATCH_ITEMS);
  const result = batchBody.safeParse(body ?? {});
  if (!result.success) {
    throw validationError(result.error.issues.map((i) => ({ name: itemName(i.path), message: i.message })));
  }
  const d = result.data;
  return {
    create: (d.create ?? []).map((c) => ({ optionvalue: c.optionvalue, disabled: c.disabled ?? false })),
    update: (d.update ?? []).map((u) => ({
      id: u.id,
      ...(u.optionvalue === undefined || u.optionvalue === null ? {} : { optionvalue: u.optionvalue }),
      ...(u.disabled === undefined || u.disabled === null ? {} : { disabled: u.disabled }),
    })),
    delete: d.delete ?? [],
  };
}
