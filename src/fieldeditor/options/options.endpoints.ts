// Options and child options (U4–U14, C1–C6), each declared once (docs/openapi.md): parse the path ids, call
// the service with the user, answer. Path ids are checked first (400, before any query); the right is decided
// by the service (a read from the node's scope cache, a write inside its transaction under the list lock), and
// the body after it, so a caller without a grant gets 403001 before anything else is revealed. Literal
// segments (`sort`, `default`) are routed before `{optionId}` (buildRouter orders them).
import { z } from 'zod';
import type { Request, Response } from 'express';
import { currentUser } from '../../platform/auth/guards.ts';
import { sendCachedBody } from '../../platform/http/cached-body.ts';
import { pathParam } from '../../platform/http/path-param.ts';
import type { Endpoint } from '../../platform/http/endpoint.ts';
import { json } from '../../platform/openapi/operation.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { parseOptionId, parseScopeIds } from '../access/ids.ts';
import { childParams, contextParams, option, optionParams } from '../shared/fieldeditor.openapi-schemas.ts';
import { createOptionBody, moveBody, sortBody, updateOptionBody } from './options.schemas.ts';
import type { OptionsService } from './options.service.ts';
import type { ListPath } from './option-scope.ts';

export interface OptionsDeps {
  access: FieldAccess;
  options: OptionsService;
}

const TAG = 'User: options';
const OPTIONS = '/user/customfields/{customFieldId}/contexts/{contextId}/options';
const CHILDREN = `${OPTIONS}/{optionId}/childoptions`;
const ERRORS = [400, 403, 404, 409];

/** The list the path names (field, context, and the parent of a child list), ids parsed in path order. */
const listPath = (req: Request, child: boolean): ListPath => ({
  ids: parseScopeIds(pathParam(req, 'customFieldId'), pathParam(req, 'contextId')),
  parentId: child ? parseOptionId(pathParam(req, 'optionId'), 'optionId') : null,
});
/** That list and the option (or child option) the path ends with. */
const itemPath = (req: Request, child: boolean): { at: ListPath; id: number } => {
  const at = listPath(req, child);
  const name = child ? 'childOptionId' : 'optionId';
  return { at, id: parseOptionId(pathParam(req, name), name) };
};

/** The same endpoints for top-level options and for the children of one option. */
function listEndpoints(child: boolean): Endpoint<OptionsDeps>[] {
  const base = child ? CHILDREN : OPTIONS;
  const item = child ? `${CHILDREN}/{childOptionId}` : `${OPTIONS}/{optionId}`;
  const listParams = child ? optionParams : contextParams;
  const itemParams = child ? childParams : optionParams;
  const what = child ? 'child option' : 'option';
  const id = (u: string, c: string) => (child ? c : u);
  // Sort: PUT as the original's clients send it, POST as the interface lists it.
  const sort = (method: 'put' | 'post'): Endpoint<OptionsDeps> => ({
    method, path: `${base}/sort`, tag: TAG, access: 'user', params: listParams, body: sortBody, formBody: true,
    summary: `${id('U14', 'C6')}: sort the ${what}s by a locale (${method === 'put' ? 'PUT, as older clients send it' : 'POST'})`,
    responses: { 200: json(z.union([option, z.object({}).strict()]), `The first ${what} after sorting ({} for an empty list)`) },
    errors: ERRORS,
    handle: async (req: Request, res: Response, { options }) => {
      const user = currentUser(req);
      res.json(await options.sort(user, listPath(req, child), req.body ?? {}));
    },
  });
  return [
    {
      method: 'get', path: base, tag: TAG, access: 'user', summary: `${id('U4/U9', 'C1')}: the ${what}s in order (disabled ones included)`, params: listParams,
      responses: { 200: json(z.array(option), `The ${what}s; gzip-compressed for Accept-Encoding: gzip`) }, errors: ERRORS,
      // A cached list with its ETag (304 on a match) and compressed forms (see cached-body.ts); the decision
      // comes from the node's scope cache.
      handle: async (req, res, { access, options }) => {
        const user = currentUser(req);
        const { ids, parentId } = listPath(req, child);
        const { field, context } = await access.readable(user, ids);
        sendCachedBody(req, res, await options.listJson({ field, context, parentId }), 'application/json; charset=utf-8');
      },
    },
    {
      method: 'post', path: base, tag: TAG, access: 'user', summary: `${id('U5/U10', 'C2')}: create an ${what} at the end`, params: listParams, body: createOptionBody, formBody: true,
      responses: { 200: json(option, `The new ${what}`) }, errors: ERRORS,
      handle: async (req, res, { options }) => {
        const user = currentUser(req);
        res.json(await options.create(user, listPath(req, child), req.body ?? {}));
      },
    },
    sort('put'),
    sort('post'),
    {
      method: 'put', path: item, tag: TAG, access: 'user', summary: `${id('U6/U11', 'C3')}: rename, disable or enable an ${what}`, params: itemParams, body: updateOptionBody, formBody: true,
      responses: { 200: json(option, `The ${what}`) }, errors: ERRORS,
      handle: async (req, res, { options }) => {
        const user = currentUser(req);
        const { at, id: optionId } = itemPath(req, child);
        res.json(await options.update(user, at, optionId, req.body ?? {}));
      },
    },
    {
      method: 'delete', path: item, tag: TAG, access: 'user', summary: `${id('U7/U12', 'C4')}: delete an ${what} and its children`, params: itemParams,
      responses: { 200: json(z.object({ id: z.number().int() }), 'The deleted id') }, errors: ERRORS,
      handle: async (req, res, { options }) => {
        const user = currentUser(req);
        const { at, id: optionId } = itemPath(req, child);
        res.json(await options.remove(user, at, optionId));
      },
    },
    {
      method: 'post', path: `${item}/move`, tag: TAG, access: 'user', summary: `${id('U8/U13', 'C5')}: move an ${what} first or after a sibling`, params: itemParams,
      body: moveBody, formBody: true, responses: { 200: json(option, `The ${what} at its new place`) }, errors: ERRORS,
      handle: async (req, res, { options }) => {
        const user = currentUser(req);
        const { at, id: optionId } = itemPath(req, child);
        res.json(await options.move(user, at, optionId, req.body ?? {}));
      },
    },
  ];
}

export const optionsEndpoints: Endpoint<OptionsDeps>[] = [...listEndpoints(false), ...listEndpoints(true)];
