// OpenAPI declarations of the option and child-option routes (U4-U14, C1-C6); see docs/openapi.md.
import { z } from 'zod';
import { json, type OperationDoc } from '../../platform/openapi/operation.ts';
import { childParams, contextParams, option, optionParams } from '../fieldeditor.openapi-schemas.ts';
import { createOptionBody, moveBody, sortBody, updateOptionBody } from './options.schemas.ts';

const TAG = 'User: options';
const OPTIONS = '/user/customfields/{customFieldId}/contexts/{contextId}/options';
const CHILDREN = `${OPTIONS}/{optionId}/childoptions`;
const ERRORS = [400, 403, 404, 409];

/** The same operations for top-level options and for the children of one option. */
function listOperations(child: boolean): OperationDoc[] {
  const base = child ? CHILDREN : OPTIONS;
  const item = child ? `${CHILDREN}/{childOptionId}` : `${OPTIONS}/{optionId}`;
  const listParams = child ? optionParams : contextParams;
  const itemParams = child ? childParams : optionParams;
  const what = child ? 'child option' : 'option';
  const id = (u: string, c: string) => (child ? c : u);
  const sort = (method: 'put' | 'post'): OperationDoc => ({
    method, path: `${base}/sort`, tag: TAG, access: 'user', params: listParams, body: sortBody,
    summary: `${id('U14', 'C6')}: sort the ${what}s by a locale (${method === 'put' ? 'PUT, as older clients send it' : 'POST'})`,
    responses: { 200: json(z.union([option, z.object({}).strict()]), `The first ${what} after sorting ({} for an empty list)`) },
    errors: ERRORS,
  });
  return [
    {
      method: 'get', path: base, tag: TAG, access: 'user', summary: `${id('U4/U9', 'C1')}: the ${what}s in order (disabled ones included)`, params: listParams,
      responses: { 200: json(z.array(option), `The ${what}s; gzip-compressed for Accept-Encoding: gzip`) }, errors: ERRORS,
    },
    {
      method: 'post', path: base, tag: TAG, access: 'user', summary: `${id('U5/U10', 'C2')}: create an ${what} at the end`, params: listParams, body: createOptionBody,
      responses: { 200: json(option, `The new ${what}`) }, errors: ERRORS,
    },
    sort('put'),
    sort('post'),
    {
      method: 'put', path: item, tag: TAG, access: 'user', summary: `${id('U6/U11', 'C3')}: rename, disable or enable an ${what}`, params: itemParams, body: updateOptionBody,
      responses: { 200: json(option, `The ${what}`) }, errors: ERRORS,
    },
    {
      method: 'delete', path: item, tag: TAG, access: 'user', summary: `${id('U7/U12', 'C4')}: delete an ${what} and its children`, params: itemParams,
      responses: { 200: json(z.object({ id: z.number().int() }), 'The deleted id') }, errors: ERRORS,
    },
    {
      method: 'post', path: `${item}/move`, tag: TAG, access: 'user', summary: `${id('U8/U13', 'C5')}: move an ${what} first or after a sibling`, params: itemParams,
      body: moveBody, responses: { 200: json(option, `The ${what} at its new place`) }, errors: ERRORS,
    },
  ];
}

export const optionsOperations: OperationDoc[] = [...listOperations(false), ...listOperations(true)];
