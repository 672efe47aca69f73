import { z } from 'zod';
import { createFieldBody, createIssueTypeBody, createProjectBody } from './tracker.schemas.ts';

const explicitId = z.number().int().positive().max(2_147_483_647).optional();

/** Import sections of the tracker host (see docs/operations.md "Import format"). */
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
