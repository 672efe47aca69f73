import { z } from 'zod';
import { createUserBody, groupName } from './directory.schemas.ts';

/** The directory's members of the import document (see docs/operations.md "Import format"). */
export const importGroups = z.array(z.strictObject({ name: groupName }));
export const importUsers = z.array(
  createUserBody.extend({
    groups: z.array(groupName).optional(),
    active: z.boolean().optional(),
  }),
);
