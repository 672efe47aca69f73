// Grants A2–A4 (global) and A9, A10 (per context), each declared once (docs/openapi.md). Administrators
// only, like everything under the closed prefix `/admin/customfields` (fieldeditor.endpoints.ts).
import { z } from 'zod';
import type { Request } from 'express';
import { parseWith } from '../../platform/http/validate.ts';
import { currentUser } from '../../platform/auth/guards.ts';
import { pathParam } from '../../platform/http/path-param.ts';
import type { Endpoint } from '../../platform/http/endpoint.ts';
import { empty, json } from '../../platform/openapi/operation.ts';
import { SINCE_1 } from '../shared/fieldeditor.errors.ts';
import { expandQuery } from '../shared/fieldeditor.schemas.ts';
import { fieldParams, fieldRecord, fullnames, permissionLists } from '../shared/fieldeditor.openapi-schemas.ts';
import { contextPermissionsBody, patchBody, permissionBody } from './grants.schemas.ts';
import type { GrantsService } from './grants.service.ts';

export interface GrantsDeps {
  grants: GrantsService;
}

const TAG = 'Admin: permissions';
const FIELD = '/admin/customfields/{customFieldId}';
const contextPermission = permissionLists.extend({ contextId: z.number().int(), userlistWithFullnames: fullnames.optional() });
const fieldId = (req: Request) => pathParam(req, 'customFieldId');
const expand = (req: Request) => parseWith(expandQuery, req.query, 'expand').expand;

export const grantsEndpoints: Endpoint<GrantsDeps>[] = [
  {
    method: 'get', path: FIELD, tag: TAG, access: 'admin', summary: 'A2: the global grants of a field', params: fieldParams, query: expandQuery,
    responses: { 200: json(permissionLists.extend({ field: fieldRecord.optional(), userlistWithFullnames: fullnames.optional() }), 'The global user and group lists (expand=field,userlistWithFullnames)') },
    errors: [400],
    handle: async (req, res, { grants }) => {
      res.json(await grants.globalPermission(fieldId(req), expand(req)));
    },
  },
  {
    method: 'put', path: FIELD, tag: TAG, access: 'admin', summary: 'A3: replace the global grants', params: fieldParams, body: permissionBody, bodyOptional: true,
    responses: { 200: empty('Replaced (empty body)') }, errors: [400],
    handle: async (req, res, { grants }) => {
      await grants.replaceGlobal(currentUser(req).name, fieldId(req), parseWith(permissionBody, req.body, 'body'));
      res.status(200).end();
    },
  },
  {
    method: 'patch', path: FIELD, tag: TAG, access: 'admin', versions: SINCE_1, summary: 'A4: grant or revoke one user or group, globally or for a context',
    params: fieldParams, body: patchBody,
    responses: { 200: json(z.union([permissionLists, permissionLists.extend({ contextId: z.number().int() })]), 'The resulting record (with contextId for CONTEXT)') },
    errors: [400],
    handle: async (req, res, { grants }) => {
      res.json(await grants.patch(currentUser(req).name, fieldId(req), parseWith(patchBody, req.body, 'body')));
    },
  },
  {
    method: 'get', path: `${FIELD}/contexts/permissions`, tag: TAG, access: 'admin', summary: 'A9: the grants of each context', params: fieldParams, query: expandQuery,
    responses: { 200: json(z.array(contextPermission), 'One record per context') }, errors: [400],
    handle: async (req, res, { grants }) => {
      res.json(await grants.contextPermissions(fieldId(req), expand(req)));
    },
  },
  {
    method: 'put', path: `${FIELD}/contexts/permissions`, tag: TAG, access: 'admin', summary: 'A10: replace all context grants', params: fieldParams, body: contextPermissionsBody,
    responses: { 200: json(z.array(contextPermission), 'The resulting A9 array') }, errors: [400],
    handle: async (req, res, { grants }) => {
      res.json(await grants.replaceContextPermissions(currentUser(req).name, fieldId(req), parseWith(contextPermissionsBody, req.body ?? null, 'body')));
    },
  },
];
