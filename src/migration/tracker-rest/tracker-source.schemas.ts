// The shapes the tracker and its field editor answer, as the importer reads them: only the members it uses,
// lenient where real installations differ (ids as `customfield_<n>` before 1.2, `disabled` as a string, the
// expansions old versions do not send). A mismatch is a one-line 'bad-answer' from the client.
import { z } from 'zod';

/** `10000` or `customfield_10000` (API 1.1 and some host answers). */
export const sourceFieldId = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^(customfield_)?\d+$/)
    .transform((s) => Number(s.replace('customfield_', ''))),
]);

const lenientBool = z.union([z.boolean(), z.enum(['true', 'false']).transform((s) => s === 'true')]);

/** A1 in its legacy form (no paging parameters): a plain array. */
export const fieldList = z.array(
  z.object({
    fieldId: sourceFieldId,
    fieldName: z.string(),
    fieldDescription: z.string().nullish(),
    fieldType: z.string(),
  }),
);

/** GET /rest/api/2/field: custom fields carry their full type key in schema.custom. */
export const hostFieldList = z.array(
  z.object({
    id: z.string(),
    custom: z.boolean().optional(),
    schema: z.object({ custom: z.string().optional(), customId: z.number().int().optional() }).optional(),
  }),
);

export const contextList = z.array(
  z.object({
    contextId: z.number().int(),
    contextName: z.string(),
    contextDescription: z.string().nullish(),
    isGlobal: z.boolean().optional(),
    projects: z.array(z.object({ projectKey: z.string(), projectName: z.string(), projectDescription: z.string().nullish() })).optional(),
    issueTypes: z
      .array(z.object({ issueTypeName: z.string(), issueTypeDescription: z.string().nullish(), issueTypeIsSubTask: z.boolean().optional() }))
      .optional(),
  }),
);

/** U3: the field with one of its contexts (`default` names the default one). */
export const contextOfField = z.object({ context: z.object({ contextId: z.number().int() }) });

export const optionList = z.array(
  z.object({
    optionvalue: z.string(),
    id: z.number().int().positive(),
    sequence: z.number().int().nullish(),
    disabled: lenientBool.nullish(),
  }),
);

const optionRef = z.object({ id: z.number().int() });
/** U15's read model; `{}` (or null members) when the context has no default. */
export const defaultRead = z
  .object({ defaultOption: optionRef.nullish(), defaultChildOption: optionRef.nullish(), defaultOptions: z.array(optionRef).nullish() })
  .nullable();

export const permissionLists = z.object({ userlist: z.array(z.string()).nullish(), grouplist: z.array(z.string()).nullish() });
export const contextPermissions = z.array(permissionLists.extend({ contextId: z.number().int() }));

export const hostUser = z.object({
  name: z.string(),
  displayName: z.string().nullish(),
  emailAddress: z.string().nullish(),
  active: z.boolean().nullish(),
});

/** GET /rest/api/2/group/member: one page of members. */
export const memberPage = z.object({
  values: z.array(z.object({ name: z.string() })),
  isLast: z.boolean().optional(),
  total: z.number().int().optional(),
});
