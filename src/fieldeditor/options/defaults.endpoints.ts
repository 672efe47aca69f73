// Default values (U15), each endpoint declared once (docs/openapi.md). `default` is routed before the option
// endpoints' `{optionId}` (buildRouter orders literals first). The caller must be allowed to edit the context
// (a grant), like every user endpoint: a read asks the node's scope cache, a write decides inside its
// transaction (DefaultsService), and the body comes after the right.
import type { Request } from 'express';
import { currentUser } from '../../platform/auth/guards.ts';
import { pathParam } from '../../platform/http/path-param.ts';
import type { Endpoint } from '../../platform/http/endpoint.ts';
import { empty, json } from '../../platform/openapi/operation.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { parseScopeIds, type ScopeIds } from '../access/ids.ts';
import { contextParams, defaultReadModel } from '../shared/fieldeditor.openapi-schemas.ts';
import { defaultWriteBody } from './defaults.schemas.ts';
import type { DefaultsService } from './defaults.service.ts';

export interface DefaultsDeps {
  access: FieldAccess;
  defaults: DefaultsService;
}

const TAG = 'User: default values';
const PATH = '/user/customfields/{customFieldId}/contexts/{contextId}/options/default';
const ERRORS = [400, 403, 404];
const idsOf = (req: Request): ScopeIds => parseScopeIds(pathParam(req, 'customFieldId'), pathParam(req, 'contextId'));

export const defaultsEndpoints: Endpoint<DefaultsDeps>[] = [
  {
    method: 'get', path: PATH, tag: TAG, access: 'user', summary: 'U15: the default value of a context', params: contextParams,
    responses: { 200: json(defaultReadModel, 'The read model ({} when none)') }, errors: ERRORS,
    handle: async (req, res, { access, defaults }) => {
      const user = currentUser(req);
      const { field, context } = await access.readable(user, idsOf(req));
      res.json(await defaults.get(field, context));
    },
  },
  {
    method: 'put', path: PATH, tag: TAG, access: 'user', summary: 'U15: set the default value', description: 'optionId (single, radio, cascading), childOptionId (cascading), optionIds (multi)',
    params: contextParams, body: defaultWriteBody, responses: { 200: json(defaultReadModel, 'The new read model') }, errors: ERRORS,
    handle: async (req, res, { defaults }) => {
      const user = currentUser(req);
      res.json(await defaults.put(user, idsOf(req), req.body ?? {}));
    },
  },
  {
    method: 'delete', path: PATH, tag: TAG, access: 'user', summary: 'U15: remove the default value', params: contextParams, responses: { 204: empty('Removed') }, errors: ERRORS,
    handle: async (req, res, { defaults }) => {
      const user = currentUser(req);
      await defaults.remove(user, idsOf(req));
      res.status(204).end();
    },
  },
];
