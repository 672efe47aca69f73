import { z } from 'zod';
import { userName, groupName } from '../directory/directory.schemas.ts';
import { createFieldBody, createIssueTypeBody, createProjectBody } from './tracker.schemas.ts';

const explicitId = z.number().int().positive().max(2_147_483_647).optional();

/** Import sections of the tracker host and the field-editor grants (see README "Import format"). */
export const importProjects = z.array(createProjectBody.extend({ id: explicitId }));
export const importIssueTypes = z.array(createIssueTypeBody.extend({ id: explicitId }));

export const importFields = z.array(
  createFieldBody.extend({
    id: explicitId,
    defaultContextId: explicitId,
    contexts: z
      .array(
        z.strictObject({
          id: explicitId,
          name: z.string().trim().min(1).max(255),
          description: z.string().max(10_000).optional(),
          projectKeys: z.array(z.string()).optional(),
          issueTypeNames: z.array(z.string()).optional(),
        }),
      )
      .optional(),
  }),
);

/** A grant names its field by id or by name, and its context by id, name or `default` (none: global). */
export const importGrants = z.array(
  z
    .strictObject({
      fieldId: z.number().int().positive().optional(),
      fieldName: z.string().min(1).optional(),
      context: z.union([z.number().int().positive(), z.string().min(1)]).optional(),
      user: userName.optional(),
      group: groupName.optional(),
    })
    .refine((g) => (g.fieldId === undefined) !== (g.fieldName === undefined), 'Name the field by fieldId or fieldName (one of them).')
    .refine((g) => (g.user === undefined) !== (g.group === undefined), 'Name one user or one group.'),
);
