// The records the directory's and the tokens' answers hold, for their endpoints' declarations.
import { z } from 'zod';

export const group = z.object({ name: z.string(), self: z.string() }).meta({ title: 'Group' });
export const user = z
  .object({
    self: z.string(),
    key: z.string().describe('The name in lower case'),
    name: z.string(),
    emailAddress: z.string(),
    displayName: z.string(),
    active: z.boolean(),
    groups: z.object({ size: z.number().int(), items: z.array(group) }).optional().describe('With /myself and single-user answers'),
  })
  .meta({ title: 'User' });
export const token = z
  .object({
    id: z.number().int(),
    name: z.string(),
    createdAt: z.string(),
    expiringAt: z.string().optional(),
    lastAccessedAt: z.string().optional(),
  })
  .meta({ title: 'Token' });

/** Why an administrator is refused (403) where a system administrator is concerned (docs/host-api.md, "Roles"). */
export const SYSADMIN_ONLY =
  "a system administrator is concerned and the caller, an administrator, is not one (only a system administrator changes a system administrator, its tokens or that group's membership)";
