// OpenAPI declarations of the grant routes (A2-A4, A9, A10); see docs/openapi.md.
import { z } from 'zod';
import { empty, json, type OperationDoc } from '../../platform/openapi/operation.ts';
import { expandQuery } from '../fieldeditor.schemas.ts';
import { fieldParams, fieldRecord, fullnames, permissionLists } from '../fieldeditor.openapi-schemas.ts';
import { contextPermissionsBody, patchBody, permissionBody } from './grants.schemas.ts';

const TAG = 'Admin: permissions';
const FIELD = '/admin/customfields/{customFieldId}';
const contextPermission = permissionLists.extend({ contextId: z.number().int(), userlistWithFullnames: fullnames.optional() });

export const grantsOperations: OperationDoc[] = [
  {
    method: 'get', path: FIELD, tag: TAG, access: 'admin', summary: 'A2: the global grants of a field', params: fieldParams, query: expandQuery,
    responses: { 200: json(permissionLists.extend({ field: fieldRecord.optional(), userlistWithFullnames: fullnames.optional() }), 'The global user and group lists (expand=field,userlistWithFullnames)') },
    errors: [400],
  },
  {
    method: 'put', path: FIELD, tag: TAG, access: 'admin', summary: 'A3: replace the global grants', params: fieldParams, body: permissionBody, bodyOptional: true,
    responses: { 200: empty('Replaced (empty body)') }, errors: [400],
  },
  {
    method: 'patch', path: FIELD, tag: TAG, access: 'admin', summary: 'A4: grant or revoke one user or group, globally or for a context', params: fieldParams, body: patchBody,
    responses: { 200: json(z.union([permissionLists, permissionLists.extend({ contextId: z.number().int() })]), 'The resulting record (with contextId for CONTEXT)') },
    errors: [400, 412],
  },
  {
    method: 'get', path: `${FIELD}/contexts/permissions`, tag: TAG, access: 'admin', summary: 'A9: the grants of each context', params: fieldParams, query: expandQuery,
    responses: { 200: json(z.array(contextPermission), 'One record per context') }, errors: [400],
  },
  {
    method: 'put', path: `${FIELD}/contexts/permissions`, tag: TAG, access: 'admin', summary: 'A10: replace all context grants', params: fieldParams, body: contextPermissionsBody,
    responses: { 200: json(z.array(contextPermission), 'The resulting A9 array') }, errors: [400],
  },
];
