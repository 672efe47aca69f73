// /rest/api/content…, each endpoint declared once (docs/openapi.md): every one needs a user (the wiki
// module closes the whole `/content` prefix to anonymous callers); view and write rules live in the services.
import { z } from 'zod';
import { currentUser } from '../platform/auth/guards.ts';
import { parseWith } from '../platform/http/validate.ts';
import type { Endpoint } from '../platform/http/endpoint.ts';
import { empty, json } from '../platform/openapi/operation.ts';
import type { ContentService } from './content.service.ts';
import type { RestrictionsService } from './restrictions.service.ts';
import { presentContent, presentPage, presentReadRestriction } from './wiki.presenter.ts';
import * as s from './wiki.schemas.ts';
import * as doc from './wiki.openapi-schemas.ts';

export interface ContentDeps {
  content: ContentService;
  restrictions: RestrictionsService;
  baseUrl: string;
}

const TAG = 'Wiki: content and restrictions';

/** Writes answer the saved content with its stored body, so clients see the macro ids that were assigned. */
const AFTER_WRITE = ['body.storage', 'ancestors', 'container'];

export const contentEndpoints: Endpoint<ContentDeps>[] = [
  {
    method: 'get', path: '/rest/api/content', tag: TAG, access: 'user', summary: 'Content the caller may view (spaceKey, type, title, start, limit, expand)',
    query: s.contentListQuery, responses: { 200: json(doc.listOf(doc.content, 'ContentList'), 'A page of content') }, errors: [400],
    handle: async (req, res, { content, baseUrl }) => {
      const q = parseWith(s.contentListQuery, req.query);
      const expand = { ancestors: q.expand.has('ancestors'), container: q.expand.has('container') };
      const page = await content.list(currentUser(req), { spaceKey: q.spaceKey, type: q.type, title: q.title }, q.start, q.limit, expand);
      res.json(presentPage(baseUrl, '/rest/api/content', req.query, page, (view) => presentContent(baseUrl, view, q.expand)));
    },
  },
  {
    method: 'post', path: '/rest/api/content', tag: TAG, access: 'user', summary: 'Create a page, blog post or comment (admin, or create on the space)',
    query: s.expandQuery, body: s.createContentBody, responses: { 200: json(doc.content, 'The content with its stored body (macro ids filled in)') }, errors: [400, 403, 404, 413],
    handle: async (req, res, { content, baseUrl }) => {
      const { expand } = parseWith(s.expandQuery, req.query);
      const body = parseWith(s.createContentBody, req.body, 'body');
      const view = await content.create(currentUser(req), body);
      res.json(presentContent(baseUrl, view, new Set([...expand, ...AFTER_WRITE])));
    },
  },
  {
    method: 'get', path: '/rest/api/content/{id}', tag: TAG, access: 'user', summary: 'Content its caller may view', params: s.idParams, query: s.expandQuery,
    responses: { 200: json(doc.content, 'The content') }, errors: [400, 404],
    handle: async (req, res, { content, baseUrl }) => {
      const { id } = parseWith(s.idParams, req.params);
      const { expand } = parseWith(s.expandQuery, req.query);
      const view = await content.get(currentUser(req), id, { ancestors: expand.has('ancestors'), container: expand.has('container') });
      res.json(presentContent(baseUrl, view, expand));
    },
  },
  {
    method: 'put', path: '/rest/api/content/{id}', tag: TAG, access: 'user', summary: 'Update content (next version number)', params: s.idParams, query: s.expandQuery,
    body: s.updateContentBody, responses: { 200: json(doc.content, 'The new version') }, errors: [400, 403, 404, 409, 413],
    handle: async (req, res, { content, baseUrl }) => {
      const { id } = parseWith(s.idParams, req.params);
      const { expand } = parseWith(s.expandQuery, req.query);
      const body = parseWith(s.updateContentBody, req.body, 'body');
      const view = await content.update(currentUser(req), id, body);
      res.json(presentContent(baseUrl, view, new Set([...expand, ...AFTER_WRITE])));
    },
  },
  {
    method: 'delete', path: '/rest/api/content/{id}', tag: TAG, access: 'user', summary: 'Move content (and its comments) to the trash', params: s.idParams,
    responses: { 204: empty('Trashed') }, errors: [400, 403, 404],
    handle: async (req, res, { content }) => {
      const { id } = parseWith(s.idParams, req.params);
      await content.trash(currentUser(req), id);
      res.status(204).end();
    },
  },
  {
    method: 'get', path: '/rest/api/content/{id}/child/comment', tag: TAG, access: 'user',
    summary: 'The comments of a page or blog post its caller may view (start, limit, expand; depth is accepted)', params: s.idParams, query: s.childCommentQuery,
    responses: { 200: json(doc.listOf(doc.content, 'CommentList'), 'A page of comments, by id') }, errors: [400, 404],
    handle: async (req, res, { content, baseUrl }) => {
      const { id } = parseWith(s.idParams, req.params);
      const q = parseWith(s.childCommentQuery, req.query);
      const page = await content.comments(currentUser(req), id, q.start, q.limit, { ancestors: q.expand.has('ancestors'), container: q.expand.has('container') });
      res.json(presentPage(baseUrl, `/rest/api/content/${id}/child/comment`, req.query, page, (view) => presentContent(baseUrl, view, q.expand)));
    },
  },
  {
    method: 'get', path: '/rest/api/content/{id}/restriction/byOperation/read', tag: TAG, access: 'user', summary: 'The read restriction of content',
    params: s.idParams, responses: { 200: json(doc.readRestriction, 'Users and groups the content is restricted to') }, errors: [400, 404],
    handle: async (req, res, { restrictions, baseUrl }) => {
      const { id } = parseWith(s.idParams, req.params);
      res.json(presentReadRestriction(baseUrl, id, await restrictions.getRead(currentUser(req), id)));
    },
  },
  {
    method: 'put', path: '/rest/api/content/{id}/restriction', tag: TAG, access: 'user', summary: 'Replace the read restriction of content', params: s.idParams,
    body: s.restrictionsBody, responses: { 200: json(z.object({ results: z.array(doc.readRestriction), size: z.number().int(), _links: doc.links }), 'The new restriction') },
    errors: [400, 403, 404],
    handle: async (req, res, { restrictions, baseUrl }) => {
      const { id } = parseWith(s.idParams, req.params);
      const body = parseWith(s.restrictionsBody, req.body, 'body');
      const read = await restrictions.putRead(currentUser(req), id, body);
      const results = [presentReadRestriction(baseUrl, id, read)];
      res.json({ results, size: results.length, _links: { base: baseUrl } });
    },
  },
  {
    method: 'get', path: '/rest/api/content/{id}/history/{version}/macro/id/{macroId}', tag: TAG, access: 'user',
    summary: 'A macro of a content version by macro id (version 0: the current one)', params: s.macroParams,
    responses: { 200: json(z.object({ name: z.string(), body: z.string(), parameters: z.record(z.string(), z.string()), _links: doc.links }), 'The macro') },
    errors: [400, 404],
    handle: async (req, res, { content, baseUrl }) => {
      const p = parseWith(s.macroParams, req.params);
      const macro = await content.macro(currentUser(req), p.id, p.version, p.macroId);
      res.json({ ...macro, _links: { base: baseUrl } });
    },
  },
];
