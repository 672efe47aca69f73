// A1 (the field list) and A5–A8 (contexts) for administrators; U1–U3, what the caller may edit by grant
// (administrators need grants too). Each declared once (docs/openapi.md).
import { z } from 'zod';
import type { Request } from 'express';
import { parseWith } from '../../platform/http/validate.ts';
import { currentUser } from '../../platform/auth/guards.ts';
import { pathParam } from '../../platform/http/path-param.ts';
import type { Endpoint } from '../../platform/http/endpoint.ts';
import { json } from '../../platform/openapi/operation.ts';
import { createContextBody, updateContextBody } from '../../tracker/tracker.schemas.ts';
import { SINCE_1 } from '../shared/fieldeditor.errors.ts';
import { expandQuery } from '../shared/fieldeditor.schemas.ts';
import { contextParams, contextRecord, defaultReadModel, fieldParams, fieldRecord, permissionLists } from '../shared/fieldeditor.openapi-schemas.ts';
import { pageQuery, toPageRequest, wantsPage } from './fields.schemas.ts';
import type { FieldsService } from './fields.service.ts';
import type { FieldContextsService } from './field-contexts.service.ts';

export interface FieldsDeps {
  fields: FieldsService;
  contexts: FieldContextsService;
}

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

const fieldId = (req: Request) => pathParam(req, 'customFieldId');
const contextId = (req: Request) => pathParam(req, 'contextId');
/** The legacy plain array, or the page wrapper when any paging parameter is present. */
const pageOf = (req: Request) => (wantsPage(req.query) ? toPageRequest(parseWith(pageQuery, req.query, 'query')) : null);

export const fieldsEndpoints: Endpoint<FieldsDeps>[] = [
  {
    method: 'get', path: '/admin/customfields', tag: ADMIN, access: 'admin', summary: 'A1: all custom fields', description: listDescription, query: pageQuery,
    responses: { 200: json(z.union([z.array(fieldRecord), page(adminFieldEntry)]), 'The fields') }, errors: [400],
    handle: async (req, res, { fields }) => {
      res.json(await fields.adminList(pageOf(req)));
    },
  },
  {
    method: 'get', path: `${FIELD}/contexts`, tag: ADMIN, access: 'admin', summary: 'A5: the contexts of a field, default first', params: fieldParams, query: expandQuery,
    responses: { 200: json(z.array(contextRecord), 'The contexts (expand=projects,issueTypes)') }, errors: [400],
    handle: async (req, res, { contexts }) => {
      res.json(await contexts.list(fieldId(req), parseWith(expandQuery, req.query, 'expand').expand));
    },
  },
  {
    method: 'post', path: `${FIELD}/contexts`, tag: ADMIN, access: 'admin', versions: SINCE_1, summary: 'A6: create a context', params: fieldParams, body: createContextBody,
    responses: { 200: json(contextRecord, 'The new context with projects and issue types') }, errors: [400],
    handle: async (req, res, { contexts }) => {
      res.json(await contexts.create(currentUser(req).name, fieldId(req), parseWith(createContextBody, req.body ?? null, 'body')));
    },
  },
  {
    method: 'put', path: `${FIELD}/contexts/{contextId}`, tag: ADMIN, access: 'admin', versions: SINCE_1, summary: 'A7: update a context', params: contextParams,
    body: updateContextBody, responses: { 200: json(contextRecord, 'The updated context') }, errors: [400, 404],
    handle: async (req, res, { contexts }) => {
      res.json(await contexts.update(currentUser(req).name, fieldId(req), contextId(req), parseWith(updateContextBody, req.body ?? null, 'body')));
    },
  },
  {
    method: 'delete', path: `${FIELD}/contexts/{contextId}`, tag: ADMIN, access: 'admin', versions: SINCE_1, summary: 'A8: delete a context (not the default one)',
    params: contextParams, responses: { 200: json(contextRecord, 'The deleted context') }, errors: [400, 404],
    handle: async (req, res, { contexts }) => {
      res.json(await contexts.remove(currentUser(req).name, fieldId(req), contextId(req)));
    },
  },
  {
    method: 'get', path: '/user/customfields', tag: USER, access: 'user', summary: 'U1: the fields the caller holds a grant on', description: listDescription, query: pageQuery,
    responses: { 200: json(z.union([z.array(fieldRecord), page(fieldRecord)]), 'The fields') }, errors: [400],
    handle: async (req, res, { fields }) => {
      const p = pageOf(req);
      res.json(await fields.userList(currentUser(req), p));
    },
  },
  {
    method: 'get', path: '/user/customfields/{customFieldId}/contexts', tag: USER, access: 'user', summary: 'U2: the contexts the caller may edit', params: fieldParams,
    query: expandQuery, responses: { 200: json(z.array(contextRecord), 'The contexts') }, errors: [400, 403],
    handle: async (req, res, { fields }) => {
      const { expand } = parseWith(expandQuery, req.query, 'expand');
      res.json(await fields.userContexts(currentUser(req), fieldId(req), expand));
    },
  },
  {
    // Added in 2.0.0, so not under 1.2.
    method: 'get', path: '/user/customfields/{customFieldId}/contexts/{contextId}', tag: USER, access: 'user', versions: SINCE_1,
    summary: 'U3: field, context and default value together', params: contextParams,
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
    errors: [400, 403, 404],
    handle: async (req, res, { fields }) => {
      res.json(await fields.userContext(currentUser(req), fieldId(req), contextId(req)));
    },
  },
];
