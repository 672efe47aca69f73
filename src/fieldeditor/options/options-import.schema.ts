import { z } from 'zod';
import { optionValue } from './options.schemas.ts';

/**
 * Import sections of the field editor's options and default values (docs/operations.md "Import format").
 * A list names its field by `fieldId` or `fieldName` and its context by id, name or `default` (the default).
 */
const explicitId = z.number().int().positive().max(2_147_483_647).optional();

export interface ImportOptionNode {
  value: string;
  id?: number;
  disabled?: boolean;
  children?: ImportOptionNode[];
}

const optionNode: z.ZodType<ImportOptionNode> = z.lazy(() =>
  z.strictObject({
    value: optionValue,
    id: explicitId,
    disabled: z.boolean().optional(),
    children: z.array(optionNode).max(100_000).optional(),
  }),
);

const fieldAndContext = {
  fieldId: z.number().int().positive().optional(),
  fieldName: z.string().min(1).optional(),
  context: z.union([z.number().int().positive(), z.string().min(1)]).optional(),
};
const oneField = [(g: { fieldId?: number; fieldName?: string }) => (g.fieldId === undefined) !== (g.fieldName === undefined), 'Name the field by fieldId or fieldName (one of them).'] as const;

/** Option lists in order; `children` for cascading selects (any depth for the multi-level one). */
export const importOptions = z.array(
  z.strictObject({ ...fieldAndContext, options: z.array(optionNode).max(100_000) }).refine(...oneField),
);

/**
 * Default values by option value: `value` (single, radio, cascading parent), `childValue` (cascading
 * child), `values` (multi select, checkboxes).
 */
export const importDefaults = z.array(
  z
    .strictObject({
      ...fieldAndContext,
      value: z.string().min(1).optional(),
      childValue: z.string().min(1).optional(),
      values: z.array(z.string().min(1)).max(1000).optional(),
    })
    .refine(...oneField),
);
