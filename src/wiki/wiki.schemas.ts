import { z } from 'zod';
import { storableText } from '../platform/http/storable-text.ts';
import { MAX_CONTENT_ID } from '../platform/http/id.schemas.ts';

// Request shapes of the wiki host REST. Objects are not strict: Confluence clients habitually send back
// whole content JSON (id, status, _links …) on updates, and the real host ignores what it does not need.

const MAX_INT4 = 2147483647;

/**
 * A content id as a path segment or JSON value: digits (string or number), 1 … 2^53-1 (the bigint column holds
 * more), with the messages of whoever reads it (our REST's requests, or a live wiki's answers).
 */
export const contentIdWith = (messages: { notDigits: string; outOfRange: string }) =>
  z
    .union([z.string(), z.number()])
    .transform((v) => String(v))
    .pipe(z.string().regex(/^\d{1,16}$/, messages.notDigits))
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_CONTENT_ID, messages.outOfRange);

export const contentId = contentIdWith({ notDigits: 'The content id must be a number.', outOfRange: 'The content id is out of range.' });

export const spaceKey = z
  .string({ error: 'The space key is required.' })
  .regex(/^[A-Za-z0-9]{1,255}$/, 'The space key must be 1-255 letters or digits.');

export const contentTypes = ['page', 'blogpost', 'comment'] as const;
export const contentType = z.enum(contentTypes, { error: 'The type must be page, blogpost or comment.' });

export const createSpaceBody = z.object({
  key: spaceKey,
  name: z.string({ error: 'The space name is required.' }).trim().min(1, 'The space name is required.').max(255),
  // Confluence sends `description: {plain: {value, representation}}`; a plain string is accepted too.
  description: z
    .union([z.string().max(10_000), z.object({ plain: z.object({ value: z.string().max(10_000) }) })])
    .optional()
    .transform((d) => (d === undefined ? '' : typeof d === 'string' ? d : d.plain.value)),
});

export const permissionBody = z.object({
  subject: z.object({
    type: z.enum(['user', 'group'], { error: 'subject.type must be user or group.' }),
    identifier: z.string({ error: 'subject.identifier is required.' }).trim().min(1, 'subject.identifier is required.').max(255),
  }),
  operation: z
    .object({
      key: z.enum(['read', 'create', 'administer'], { error: 'operation.key must be read, create or administer.' }),
      target: z.enum(['space', 'page', 'blogpost', 'comment'], { error: 'operation.target must be space, page, blogpost or comment.' }),
    })
    // Reading is granted per space only, as on the real host (there is no "read pages only").
    .refine((o) => o.key !== 'read' || o.target === 'space', { error: 'A read permission must target the space.', path: ['target'] })
    .refine((o) => o.key !== 'administer' || o.target === 'space', { error: 'An administer permission must target the space.', path: ['target'] }),
});

export const permissionParams = z.object({
  key: spaceKey,
  id: z.string().regex(/^\d{1,10}$/, 'The permission id must be a number.').transform(Number),
});

const storageBody = z.object({
  storage: z.object({
    value: z.string({ error: 'body.storage.value is required.' }),
    representation: z.literal('storage', { error: 'Only the storage representation is supported.' }).optional(),
  }),
});

// Titles are listed in XML (E2): characters XML 1.0 lacks are refused here too, not only at the boundary.
const title = storableText(
  z.string({ error: 'The title is required.' }).trim().min(1, 'The title is required.').max(255, 'The title must be at most 255 characters.'),
);

export const createContentBody = z.object({
  type: contentType,
  // Comments take their title from the container; everything else needs one (checked in the service).
  title: title.optional(),
  space: z.object({ key: spaceKey }, { error: 'space.key is required.' }),
  ancestors: z.array(z.object({ id: contentId })).max(100).optional(),
  container: z.object({ id: contentId, type: z.string().optional() }).optional(),
  body: storageBody,
});

export const updateContentBody = z.object({
  type: contentType.optional(),
  title: title.optional(),
  body: storageBody.optional(),
  version: z.object({ number: z.number({ error: 'version.number is required.' }).int().min(2).max(MAX_INT4) }, {
    error: 'version.number is required.',
  }),
});

export const idParams = z.object({ id: contentId });

export const macroParams = z.object({
  id: contentId,
  version: z.string().regex(/^\d{1,10}$/, 'The version must be a number.').transform(Number),
  macroId: z.string().min(1).max(255),
});

/** `expand=a,b.c` (repeated keys are joined): which optional parts of the content JSON to include. */
export const expandQuery = z.object({
  expand: z
    .union([z.string().max(1000), z.array(z.string().max(1000)).max(20)])
    .optional()
    .transform((e) => new Set((Array.isArray(e) ? e.join(',') : (e ?? '')).split(',').map((s) => s.trim()).filter(Boolean))),
});

const restrictionUser = z.object({ username: z.string().min(1).max(255), type: z.string().optional() });
const restrictionGroup = z.object({ name: z.string().min(1).max(255), type: z.string().optional() });
// Each list may come as an array or in the `{results: [...]}` form GET answers with, so a GET can be PUT back.
const listOf = <T extends z.ZodType>(item: T) =>
  z.union([z.array(item).max(1000), z.object({ results: z.array(item).max(1000) }).transform((r) => r.results)]).optional();

export const restrictionsBody = z
  .array(
    z.object({
      operation: z.literal('read', { error: 'Only read restrictions are supported.' }),
      restrictions: z.object({ user: listOf(restrictionUser), group: listOf(restrictionGroup) }).optional(),
    }),
  )
  .max(1, 'Send at most one read restriction entry.');

/** Paging of the host's lists: `start` (default 0) and `limit` (default 25, larger values are capped). */
export const LIST_LIMIT = { default: 25, max: 200 } as const;

/** A paging query value (`start`, `limit`): digits, capped at `max`, `def` when absent. */
export const pagingNumber = (name: string, def: number, max: number) =>
  z
    .string({ error: `${name} must be given once.` })
    .regex(/^\d{1,9}$/, `${name} must be a non-negative whole number.`)
    .transform((v) => Math.min(Number(v), max))
    .optional()
    .transform((v) => v ?? def);

const paging = {
  start: pagingNumber('start', 0, 1_000_000_000),
  limit: pagingNumber('limit', LIST_LIMIT.default, LIST_LIMIT.max),
};

/** GET /rest/api/space */
export const spaceListQuery = z.object(paging);

/** GET /rest/api/content: the host's filters (exact space key, type, exact title) and paging; `expand` as for one. */
export const contentListQuery = z.object({
  ...paging,
  spaceKey: spaceKey.optional(),
  type: contentType.optional().transform((t) => t ?? 'page'),
  title: z.string({ error: 'title must be given once.' }).max(255).optional(),
  expand: expandQuery.shape.expand,
});

/** GET /rest/api/content/{id}/child/comment: paging and `expand`; `depth` (`all` on the original) changes nothing, comments here are flat. */
export const childCommentQuery = z.object({
  ...paging,
  expand: expandQuery.shape.expand,
  depth: z.string({ error: 'depth must be given once.' }).max(10).optional(),
});

export type CreateSpaceBody = z.output<typeof createSpaceBody>;
export type PermissionBody = z.output<typeof permissionBody>;
export type CreateContentBody = z.output<typeof createContentBody>;
export type UpdateContentBody = z.output<typeof updateContentBody>;
export type RestrictionsBody = z.output<typeof restrictionsBody>;
