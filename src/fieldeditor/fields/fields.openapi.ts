// OpenAPI declarations of the field lists and contexts (A1, A5-A8, U1-U3); see docs/openapi.md.
import { z } from 'zod';
import { json, type OperationDoc } from '../../platform/openapi/operation.ts';
import { createContextBody, updateContextBody } from '../../tracker/tracker.schemas.ts';
import { expandQuery } from '../fieldeditor.schemas.ts';
import { contextParams, contextRecord, defaultReadModel, fieldParams, fieldRecord, permissionLists } from '../fieldeditor.openapi-schemas.ts';
import { pageQuery } from './fields.schemas.ts';

const ADMIN = 'Admin: fields and contexts';
const USER = 'User: fields and contexts';
const FIELD = '/admin/customfields/{customFieldId}';

const page = (item: z.ZodType) =>
  z.object({ maxResults: z.number().int(), startAt: z.number().int(), total: z.number().int(), processingTimeInMs: z.number().int(), values: z.array(item) });
const adminFieldEntry = fieldRecord.extend({
  globalPermission: permissionLists,
  contextPermissions: z.array(permissionLists.extend({ context: contextRecord })),
});
const listDescription = 'Without any of startAt, maxResults, orderBy, filter: the legacy plain array; with any of them: the page wrapper';

export const fieldsOperations: OperationDoc[] = [
  {
    method: 'get', path: '/admin/customfields', tag: ADMIN, access: 'admin', summary: 'A1: all custom fields', description: listDescription, query: pageQuery,
    responses: { 200: json(z.union([z.array(fieldRecord), page(adminFieldEntry)]), 'The fields') }, errors: [400],
  },
  {
    method: 'get', path: `${FIELD}/contexts`, tag: ADMIN, access: 'admin', summary: 'A5: the contexts of a field, default first', params: fieldParams, query: expandQuery,
    responses: { 200: json(z.array(contextRecord), 'The contexts (expand=projects,issueTypes)') }, errors: [400],
  },
  {
    method: 'post', path: `${FIELD}/contexts`, tag: ADMIN, access: 'admin', summary: 'A6: create a context', params: fieldParams, body: createContextBody,
    responses: { 200: json(contextRecord, 'The new context with projects and issue types') }, errors: [400, 412],
  },
  {
    method: 'put', path: `${FIELD}/contexts/{contextId}`, tag: ADMIN, access: 'admin', summary: 'A7: update a context', params: contextParams, body: updateContextBody,
    responses: { 200: json(contextRecord, 'The updated context') }, errors: [400, 404, 412],
  },
  {
    method: 'delete', path: `${FIELD}/contexts/{contextId}`, tag: ADMIN, access: 'admin', summary: 'A8: delete a context (not the default one)', params: contextParams,
    responses: { 200: json(contextRecord, 'The deleted context') }, errors: [400, 404, 412],
  },
  {
    method: 'get', path: '/user/customfields', tag: USER, access: 'user', summary: 'U1: the fields the caller holds a grant on', description: listDescription, query: pageQuery,
    responses: { 200: json(z.union([z.array(fieldRecord), page(fieldRecord)]), 'The fields') }, errors: [400],
  },
  {
    method: 'get', path: '/user/customfields/{customFieldId}/contexts', tag: USER, access: 'user', summary: 'U2: the contexts the caller may edit', params: fieldParams,
    query: expandQuery, responses: { 200: json(z.array(contextRecord), 'The contexts') }, errors: [400, 403],
  },
  {
    method: 'get', path: '/user/customfields/{customFieldId}/contexts/{contextId}', tag: USER, access: 'user', summary: 'U3: field, context and default value together',
    params: contextParams,
    responses: {
      200: json(
        fieldRecord.extend({
          context: contextRecord,
          defaultOption: defaultReadModel,
          authenticatedUserMeta: z.object({ userAllowedToDeleteOptions: z.boolean() }),
        }),
        'The field, the context and its default option',
      ),
    },
    errors: [400, 403, 404, 412],
  },
];
