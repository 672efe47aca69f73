// OpenAPI declarations of the wiki host routes (/rest/api, Confluence-style); see docs/openapi.md.
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { empty, json, type ErrorCatalogue, type OperationDoc } from '../platform/openapi/operation.ts';
import * as s from './wiki.schemas.ts';

const SPACES = 'Wiki: spaces';
const CONTENT = 'Wiki: content and restrictions';

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
};

const links = z.looseObject({ self: z.string().optional(), base: z.string().optional(), webui: z.string().optional() });
const space = z
  .object({
    id: z.number().int(),
    key: z.string(),
    name: z.string(),
    type: z.literal('global'),
    description: z.object({ plain: z.object({ value: z.string(), representation: z.literal('plain') }) }).optional(),
    _links: links,
  })
  .meta({ title: 'Space' });
const summary = z.object({ id: z.string(), type: z.string(), status: z.string(), title: z.string(), _links: links }).meta({ title: 'ContentSummary' });
const content = z
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
    extensions: z.object({ location: z.string() }).optional(),
    _links: links,
    _expandable: z.record(z.string(), z.string()),
  })
  .meta({ title: 'Content' });
const permission = z
  .object({
    id: z.number().int(),
    subject: z.object({ type: z.enum(['user', 'group']), identifier: z.string() }),
    operation: z.object({ key: z.enum(['read', 'create', 'administer']), target: z.string() }),
  })
  .meta({ title: 'SpacePermission' });
const readRestriction = z
  .object({
    operation: z.literal('read'),
    restrictions: z.object({
      user: z.object({ results: z.array(z.object({ type: z.string(), username: z.string(), displayName: z.string() })), size: z.number().int() }),
      group: z.object({ results: z.array(z.object({ type: z.string(), name: z.string() })), size: z.number().int() }),
    }),
    _links: links,
  })
  .meta({ title: 'ReadRestriction' });
const idParams = s.idParams;
const listOf = <T extends z.ZodType>(item: T, title: string) =>
  z
    .object({
      results: z.array(item),
      start: z.number().int(),
      limit: z.number().int(),
      size: z.number().int(),
      _links: z.looseObject({ next: z.string().optional().describe('Present while more results follow') }),
    })
    .meta({ title });

export const wikiOperations: OperationDoc[] = [
  {
    method: 'get', path: '/rest/api/space', tag: SPACES, access: 'user', summary: 'Spaces the caller may read (start, limit)',
    query: s.spaceListQuery, responses: { 200: json(listOf(space, 'SpaceList'), 'A page of spaces') }, errors: [400],
  },
  {
    method: 'delete', path: '/rest/api/space/{key}', tag: SPACES, access: 'user', summary: 'Delete a space; its content goes to the trash (administrators, or administer on the space)',
    params: z.object({ key: s.spaceKey }), responses: { 204: empty('Deleted') }, errors: [400, 403, 404],
  },
  {
    method: 'get', path: '/rest/api/space/{key}/permission', tag: SPACES, access: 'user', summary: "The space's permissions (administrators, or administer on the space)",
    params: z.object({ key: s.spaceKey }),
    responses: { 200: json(z.object({ results: z.array(permission), size: z.number().int(), _links: links }).meta({ title: 'PermissionList' }), 'The permissions') },
    errors: [400, 403, 404],
  },
  {
    method: 'get', path: '/rest/api/content', tag: CONTENT, access: 'user', summary: 'Content the caller may view (spaceKey, type, title, start, limit, expand)',
    query: s.contentListQuery, responses: { 200: json(listOf(content, 'ContentList'), 'A page of content') }, errors: [400],
  },
  { method: 'post', path: '/rest/api/space', tag: SPACES, access: 'admin', summary: 'Create a space', body: s.createSpaceBody, responses: { 200: json(space, 'The new space') }, errors: [400] },
  {
    method: 'get', path: '/rest/api/space/{key}', tag: SPACES, access: 'user', summary: 'A space its caller may read', params: z.object({ key: s.spaceKey }),
    responses: { 200: json(space, 'The space') }, errors: [400, 404],
  },
  {
    method: 'post', path: '/rest/api/space/{key}/permission', tag: SPACES, access: 'admin', summary: 'Grant read or create on a space to a user or group',
    params: z.object({ key: s.spaceKey }), body: s.permissionBody, responses: { 200: json(permission, 'The permission (also when it existed)') }, errors: [400, 404],
  },
  {
    method: 'delete', path: '/rest/api/space/{key}/permission/{id}', tag: SPACES, access: 'admin', summary: 'Revoke a space permission', params: s.permissionParams,
    responses: { 204: empty('Revoked') }, errors: [400, 404],
  },
  {
    method: 'post', path: '/rest/api/content', tag: CONTENT, access: 'user', summary: 'Create a page, blog post or comment (admin, or create on the space)',
    query: s.expandQuery, body: s.createContentBody, responses: { 200: json(content, 'The content with its stored body (macro ids filled in)') }, errors: [400, 403, 404, 413],
  },
  {
    method: 'get', path: '/rest/api/content/{id}', tag: CONTENT, access: 'user', summary: 'Content its caller may view', params: idParams, query: s.expandQuery,
    responses: { 200: json(content, 'The content') }, errors: [400, 404],
  },
  {
    method: 'put', path: '/rest/api/content/{id}', tag: CONTENT, access: 'user', summary: 'Update content (next version number)', params: idParams, query: s.expandQuery,
    body: s.updateContentBody, responses: { 200: json(content, 'The new version') }, errors: [400, 403, 404, 409, 413],
  },
  {
    method: 'delete', path: '/rest/api/content/{id}', tag: CONTENT, access: 'user', summary: 'Move content (and its comments) to the trash', params: idParams,
    responses: { 204: empty('Trashed') }, errors: [400, 403, 404],
  },
  {
    method: 'get', path: '/rest/api/content/{id}/restriction/byOperation/read', tag: CONTENT, access: 'user', summary: 'The read restriction of content',
    params: idParams, responses: { 200: json(readRestriction, 'Users and groups the content is restricted to') }, errors: [400, 404],
  },
  {
    method: 'put', path: '/rest/api/content/{id}/restriction', tag: CONTENT, access: 'user', summary: 'Replace the read restriction of content', params: idParams,
    body: s.restrictionsBody, responses: { 200: json(z.object({ results: z.array(readRestriction), size: z.number().int(), _links: links }), 'The new restriction') },
    errors: [400, 403, 404],
  },
  {
    method: 'get', path: '/rest/api/content/{id}/history/{version}/macro/id/{macroId}', tag: CONTENT, access: 'user',
    summary: 'A macro of a content version by macro id (version 0: the current one)', params: s.macroParams,
    responses: { 200: json(z.object({ name: z.string(), body: z.string(), parameters: z.record(z.string(), z.string()), _links: links }), 'The macro') },
    errors: [400, 404],
  },
];
