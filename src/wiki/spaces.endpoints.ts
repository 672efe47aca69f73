// /rest/api/space…, each endpoint declared once (docs/openapi.md): listing and reading spaces is for their
// readers; creating spaces is for administrators; permissions and deletion are for administrators and the
// space's own administrators (any user reaches them; the service decides, 404 or 403).
import { z } from 'zod';
import { currentUser } from '../platform/auth/guards.ts';
import { parseWith } from '../platform/http/validate.ts';
import type { Endpoint } from '../platform/http/endpoint.ts';
import { empty, json } from '../platform/openapi/operation.ts';
import type { SpacesService } from './spaces.service.ts';
import { presentPage, presentSpace, presentSummary } from './wiki.presenter.ts';
import * as s from './wiki.schemas.ts';
import * as doc from './wiki.openapi-schemas.ts';

export interface SpacesDeps {
  spaces: SpacesService;
  baseUrl: string;
}

const TAG = 'Wiki: spaces';
const keyParams = z.object({ key: s.spaceKey });

export const spacesEndpoints: Endpoint<SpacesDeps>[] = [
  {
    method: 'get', path: '/rest/api/space', tag: TAG, access: 'user', summary: 'Spaces the caller may read (start, limit)',
    query: s.spaceListQuery, responses: { 200: json(doc.listOf(doc.space, 'SpaceList'), 'A page of spaces') }, errors: [400],
    handle: async (req, res, { spaces, baseUrl }) => {
      const q = parseWith(s.spaceListQuery, req.query);
      const page = await spaces.listReadable(currentUser(req), q.start, q.limit);
      res.json(presentPage(baseUrl, '/rest/api/space', req.query, page, (sp) => presentSpace(baseUrl, sp)));
    },
  },
  {
    method: 'get', path: '/rest/api/admin/space', tag: TAG, access: 'admin', summary: 'Every space, also those the administrator may not read (start, limit)',
    description: 'For the Spaces screen: `nobodyReads` is true while no user or group holds read on the space (an imported space starts so). `GET /rest/api/space` still lists only the spaces the caller reads.',
    query: s.spaceListQuery, responses: { 200: json(doc.listOf(doc.adminSpace, 'AdminSpaceList'), 'A page of spaces') }, errors: [400],
    handle: async (req, res, { spaces, baseUrl }) => {
      const q = parseWith(s.spaceListQuery, req.query);
      const page = await spaces.listAll(q.start, q.limit);
      res.json(presentPage(baseUrl, '/rest/api/admin/space', req.query, page, (sp) => ({ ...presentSpace(baseUrl, sp), nobodyReads: Boolean(sp.nobody_reads) })));
    },
  },
  {
    method: 'delete', path: '/rest/api/space/{key}', tag: TAG, access: 'user', summary: 'Delete a space; its content goes to the trash (administrators, or administer on the space)',
    params: keyParams, responses: { 204: empty('Deleted') }, errors: [400, 403, 404],
    handle: async (req, res, { spaces }) => {
      const key = parseWith(s.spaceKey, req.params.key, 'key');
      await spaces.delete(currentUser(req), key);
      res.status(204).end();
    },
  },
  {
    method: 'get', path: '/rest/api/space/{key}/permission', tag: TAG, access: 'user', summary: "The space's permissions (administrators, or administer on the space)",
    params: keyParams,
    responses: { 200: json(z.object({ results: z.array(doc.permission), size: z.number().int(), _links: doc.links }).meta({ title: 'PermissionList' }), 'The permissions') },
    errors: [400, 403, 404],
    handle: async (req, res, { spaces, baseUrl }) => {
      const key = parseWith(s.spaceKey, req.params.key, 'key');
      const results = await spaces.listPermissions(currentUser(req), key);
      res.json({ results, size: results.length, _links: { base: baseUrl } });
    },
  },
  {
    method: 'post', path: '/rest/api/space', tag: TAG, access: 'admin', summary: 'Create a space', body: s.createSpaceBody, responses: { 200: json(doc.space, 'The new space') }, errors: [400],
    handle: async (req, res, { spaces, baseUrl }) => {
      const body = parseWith(s.createSpaceBody, req.body, 'body');
      res.json(presentSpace(baseUrl, await spaces.create(currentUser(req), body)));
    },
  },
  {
    method: 'get', path: '/rest/api/space/{key}', tag: TAG, access: 'user', summary: 'A space its caller may read', params: keyParams,
    query: s.expandQuery,
    description: '`expand=homepage` adds the space\'s home page (a space brought across from a wiki keeps the one it had there), when the caller may view it.',
    responses: { 200: json(doc.space, 'The space') }, errors: [400, 404],
    handle: async (req, res, { spaces, baseUrl }) => {
      const key = parseWith(s.spaceKey, req.params.key, 'key');
      const { expand } = parseWith(s.expandQuery, req.query, 'query');
      const user = currentUser(req);
      const space = await spaces.getForReader(user, key);
      const home = expand.has('homepage') ? await spaces.homePageFor(user, space) : undefined;
      res.json({ ...presentSpace(baseUrl, space), ...(home ? { homepage: presentSummary(baseUrl, home) } : {}) });
    },
  },
  {
    method: 'post', path: '/rest/api/space/{key}/permission', tag: TAG, access: 'user',
    summary: 'Grant read or create on a space to a user or group (administrators, or administer on the space)',
    params: keyParams, body: s.permissionBody, responses: { 200: json(doc.permission, 'The permission (also when it existed)') }, errors: [400, 403, 404],
    handle: async (req, res, { spaces }) => {
      const key = parseWith(s.spaceKey, req.params.key, 'key');
      const body = parseWith(s.permissionBody, req.body, 'body');
      res.json(await spaces.addPermission(currentUser(req), key, body));
    },
  },
  {
    method: 'delete', path: '/rest/api/space/{key}/permission/{id}', tag: TAG, access: 'user',
    summary: 'Revoke a space permission (administrators, or administer on the space)', params: s.permissionParams,
    responses: { 204: empty('Revoked') }, errors: [400, 403, 404],
    handle: async (req, res, { spaces }) => {
      const p = parseWith(s.permissionParams, req.params);
      await spaces.deletePermission(currentUser(req), p.key, p.id);
      res.status(204).end();
    },
  },
];
