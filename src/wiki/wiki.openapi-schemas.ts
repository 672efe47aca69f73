// Parts of the wiki host API's description (/rest/api, Confluence-style) that its endpoints share: the error
// catalogue and the records several answers hold.
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { json, LOGIN_BUSY_HEADERS, LOGIN_BUSY_TEXT, TOO_MANY_REQUESTS_HEADERS, TOO_MANY_REQUESTS_TEXT, type ErrorCatalogue } from '../platform/openapi/operation.ts';
import * as s from './wiki.schemas.ts';

export const wikiError = z
  .object({
    statusCode: z.number().int(),
    data: z.object({
      authorized: z.boolean().describe('false for 401 and 403'),
      valid: z.boolean().describe('false for 400'),
      errors: z.array(z.object({ message: z.object({ key: z.string(), translation: z.string(), args: z.array(z.unknown()) }) })),
      successful: z.literal(false),
    }),
    message: z.string(),
    reason: z.string(),
  })
  .meta({ title: 'WikiError' });

const err = (status: number, description: string) => json(wikiError, `${STATUS_CODES[status]}: ${description}`);
export const WIKI_ERRORS: ErrorCatalogue = {
  400: err(400, 'invalid input (wrong types, unknown users, groups or parents, malformed storage)'),
  401: err(401, 'no or wrong credentials'),
  403: err(403, 'authenticated, but without the right to write'),
  404: err(404, 'missing, trashed or not viewable'),
  409: err(409, 'version.number is not the current version + 1'),
  413: err(413, 'body larger than 16 MiB'),
  429: { ...err(429, TOO_MANY_REQUESTS_TEXT), headers: TOO_MANY_REQUESTS_HEADERS },
  503: { ...err(503, LOGIN_BUSY_TEXT), headers: LOGIN_BUSY_HEADERS },
};

export const links = z.looseObject({ self: z.string().optional(), base: z.string().optional(), webui: z.string().optional() });
export const summary = z.object({ id: z.string(), type: z.string(), status: z.string(), title: z.string(), _links: links }).meta({ title: 'ContentSummary' });
export const space = z
  .object({
    id: z.number().int(),
    key: z.string(),
    name: z.string(),
    type: z.literal('global'),
    description: z.object({ plain: z.object({ value: z.string(), representation: z.literal('plain') }) }).optional(),
    homepage: summary.optional().describe('With expand=homepage, when the space has one the caller may view'),
    _links: links,
  })
  .meta({ title: 'Space' });
export const content = z
  .object({
    id: z.string().describe('Digits'),
    type: z.enum(s.contentTypes),
    status: z.string(),
    title: z.string(),
    space,
    version: z.object({
      number: z.number().int(),
      when: z.string(),
      minorEdit: z.boolean(),
      by: z.object({ type: z.string(), username: z.string(), displayName: z.string() }).optional(),
    }),
    body: z.object({ storage: z.object({ value: z.string(), representation: z.literal('storage') }) }).optional().describe('With expand=body.storage'),
    ancestors: z.array(summary).optional().describe('With expand=ancestors'),
    container: z.union([summary, space]).optional().describe('With expand=container: the page or blog post of a comment, else the space'),
    history: z
      .object({ latest: z.boolean(), createdBy: z.object({ type: z.string(), username: z.string(), displayName: z.string() }).optional(), createdDate: z.string() })
      .optional()
      .describe('With expand=history: who created the content (version 1), and when'),
    extensions: z.object({ location: z.string() }).optional(),
    _links: links,
    _expandable: z.record(z.string(), z.string()),
  })
  .meta({ title: 'Content' });
/** A space as the administrators' list shows it: also whether anybody holds read on it. */
export const adminSpace = space.extend({ nobodyReads: z.boolean() }).meta({ title: 'AdminSpace' });

export const permission = z
  .object({
    id: z.number().int(),
    subject: z.object({ type: z.enum(['user', 'group']), identifier: z.string() }),
    operation: z.object({ key: z.enum(['read', 'create', 'administer']), target: z.string() }),
  })
  .meta({ title: 'SpacePermission' });
export const readRestriction = z
  .object({
    operation: z.literal('read'),
    restrictions: z.object({
      user: z.object({ results: z.array(z.object({ type: z.string(), username: z.string(), displayName: z.string() })), size: z.number().int() }),
      group: z.object({ results: z.array(z.object({ type: z.string(), name: z.string() })), size: z.number().int() }),
    }),
    _links: links,
  })
  .meta({ title: 'ReadRestriction' });
export const listOf = <T extends z.ZodType>(item: T, title: string) =>
  z
    .object({
      results: z.array(item),
      start: z.number().int(),
      limit: z.number().int(),
      size: z.number().int(),
      _links: z.looseObject({ next: z.string().optional().describe('Present while more results follow') }),
    })
    .meta({ title });
