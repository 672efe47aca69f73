import { z } from 'zod';
import { NO_CONTROL } from '../platform/http/storable-text.ts';
import { userName } from '../directory/directory.schemas.ts';
import { isKnownTypeKey } from './field-types.ts';

const text = (what: string, max: number) =>
  z
    .string({ error: `The ${what} must be a string.` })
    .max(max, `The ${what} must be at most ${max} characters.`);
const requiredName = (what: string) =>
  text(what, 255).trim().min(1, `The ${what} is required.`).regex(NO_CONTROL, `The ${what} must not contain control characters.`);

/** Jira's project key rule: an upper-case letter, then upper-case letters, digits or underscores; 2–10 characters. */
export const projectKey = z
  .string({ error: 'The project key is required.' })
  .regex(/^[A-Z][A-Z0-9_]{1,9}$/, 'The project key must start with an upper-case letter and hold 2 to 10 upper-case letters, digits or underscores.');

export const createProjectBody = z.strictObject({
  key: projectKey,
  name: requiredName('project name'),
  projectTypeKey: z.enum(['software', 'business', 'service_desk']).optional(),
  description: text('description', 10_000).optional(),
  lead: userName.optional(),
});

export const createIssueTypeBody = z.strictObject({
  name: requiredName('issue type name').pipe(z.string().max(60, 'The issue type name must be at most 60 characters.')),
  description: text('description', 10_000).optional(),
  type: z.enum(['standard', 'subtask']).optional(),
});

export const createFieldBody = z.strictObject({
  name: requiredName('field name'),
  description: text('description', 10_000).optional(),
  type: z
    .string({ error: 'The field type is required.' })
    .refine(isKnownTypeKey, 'Unknown custom field type key.'),
  // Accepted for compatibility with Jira's request shape; this host has no searchers.
  searcherKey: z.string().max(255).optional(),
});

/** Ids in JSON bodies: numbers, or digit strings as Jira itself sends them. */
export const idValue = z.union([
  z.number().int().positive().max(2_147_483_647),
  z
    .string()
    .regex(/^\d{1,10}$/, 'Ids are positive integers.')
    .transform(Number)
    .pipe(z.number().int().positive('Ids are positive integers.').max(2_147_483_647, 'Unknown id.')),
]);

const idList = (what: string) => z.array(idValue, { error: `${what} must be an array of ids.` }).max(1000);

/** Context create (A6): empty or missing id lists mean "all projects" / "all issue types". */
export const createContextBody = z.strictObject({
  name: requiredName('context name'),
  description: text('description', 10_000).optional(),
  projectIds: idList('projectIds').optional(),
  issueTypeIds: idList('issueTypeIds').optional(),
});

/** Context update (A7): a member left out keeps its value; a list sent replaces the previous one. */
export const updateContextBody = createContextBody.partial();

export type CreateContextInput = z.output<typeof createContextBody>;
export type UpdateContextInput = z.output<typeof updateContextBody>;
