import { z } from 'zod';
import { contentType, spaceKey } from './wiki.schemas.ts';
import { storableText } from '../platform/http/storable-text.ts';
import { MAX_CONTENT_ID } from '../platform/http/id.schemas.ts';

// The wiki sections of the `import FILE` document. Content refers to other content by id, so an item that
// is a parent or container of another needs an explicit `id` (or must already exist with that id).

const principal = z.string().trim().min(1).max(255);
/** Content ids: 64-bit, as a cloud wiki's export has them (up to what a JSON number holds exactly). */
const id = z.number().int().min(1).max(MAX_CONTENT_ID);

export const importSpaces = z.array(
  z.strictObject({
    key: spaceKey,
    name: z.string().trim().min(1).max(255),
    description: z.string().max(10_000).optional(),
    permissions: z
      .array(
        z
          .strictObject({
            user: principal.optional(),
            group: principal.optional(),
            operation: z.enum(['read', 'create']),
            target: z.enum(['space', 'page', 'blogpost', 'comment']).default('space'),
          })
          .refine((p) => (p.user === undefined) !== (p.group === undefined), 'Give exactly one of user and group.')
          .refine((p) => p.operation !== 'read' || p.target === 'space', 'A read permission must target the space.'),
      )
      .optional(),
  }),
);

export const importContent = z.array(
  z
    .strictObject({
      id: id.optional(),
      type: contentType,
      title: storableText(z.string().trim().min(1).max(255)).optional(),
      space: spaceKey,
      parentId: id.optional(),
      containerId: id.optional(),
      /** Storage-format XHTML; macro ids are assigned where missing, as on a REST save. */
      body: z.string(),
      author: principal.optional(),
      restrictions: z.strictObject({ users: z.array(principal).optional(), groups: z.array(principal).optional() }).optional(),
    })
    .refine((c) => c.type === 'comment' || c.title !== undefined, { error: 'A page or blog post needs a title.', path: ['title'] })
    .refine((c) => (c.type === 'comment') === (c.containerId !== undefined), { error: 'Comments, and only comments, need containerId.', path: ['containerId'] })
    .refine((c) => c.type === 'page' || c.parentId === undefined, { error: 'Only pages have a parentId.', path: ['parentId'] })
    .refine((c) => c.type !== 'comment' || c.restrictions === undefined, { error: 'Comments cannot be restricted.', path: ['restrictions'] }),
);
