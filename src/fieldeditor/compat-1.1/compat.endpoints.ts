// API 1.1 (the original's routes before 1.2, kept by its 1.2.x releases and dropped in 1.3.0): ten operations on
// the options of a field's default context, declared once (docs/openapi.md) and served under the `1.1` base
// paths only (compat.mount.ts). Each calls the service functions the 1.2 routes call, the same way, so the
// rules (grants decided inside the write, duplicates, order, events) are the same; only paths, ids and
// answers are 1.1's: `customfield_<n>` ids (digits too), nested `childOptions` in the list, `DeleteOk` with a
// string id, and 500 for missing rights (compat.errors.ts).
import { z } from 'zod';
import { currentUser } from '../../platform/auth/guards.ts';
import type { Endpoint } from '../../platform/http/endpoint.ts';
import { MAX_INT_ID, numericPathId } from '../../platform/http/id.schemas.ts';
import { parseWith } from '../../platform/http/validate.ts';
import { json, type ErrorCatalogue } from '../../platform/openapi/operation.ts';
import type { FieldAccess } from '../access/access.service.ts';
import type { ScopeIds } from '../access/ids.ts';
import { fieldeditorError, LIMIT_ERRORS, option } from '../shared/fieldeditor.openapi-schemas.ts';
import type { OptionsService } from '../options/options.service.ts';
import type { ListPath } from '../options/option-scope.ts';
import { createOptionBody, moveBody, updateOptionBody } from '../options/options.schemas.ts';
import { deleteOk, readOptionTree } from './option-tree.ts';

export interface Compat11Deps {
  access: FieldAccess;
  options: OptionsService;
}

const TAG = 'API 1.1 (compatibility)';

/** `customfield_10000` as 1.1 names fields, or the bare number its clients also send. */
const customfieldid = z
  .string()
  .regex(/^(?:customfield_)?\d{1,10}$/, { error: 'must be customfield_<id> or a positive integer id' })
  .transform((s) => Number(s.replace('customfield_', '')))
  .pipe(z.number().int().positive({ error: 'must be customfield_<id> or a positive integer id' }).max(MAX_INT_ID, { error: 'must be customfield_<id> or a positive integer id' }))
  .describe('`customfield_10000` or `10000`');
const optionId = numericPathId.describe('An option id (digits)');

const fieldParams = z.object({ customfieldid });
const optionParams = fieldParams.extend({ optionid: optionId });
const parentParams = fieldParams.extend({ parentoptionid: optionId });
const childParams = parentParams.extend({ childoptionid: optionId });

/** 1.1's option model: 1.2's option, and on a cascading field's list its children (recursive on the multi-level select). */
const option11 = z
  .object({
    optionvalue: z.string(),
    id: z.number().int(),
    sequence: z.number().int().describe('0-based rank in its list'),
    disabled: z.boolean(),
    get childOptions() {
      return z.array(option11).optional().describe("Only on a cascading field's lists: the option's children");
    },
  })
  .meta({ title: 'Option11' });
const deleteOk11 = z.object({ id: z.string().describe('The id of the deleted option, as a string') }).meta({ title: 'DeleteOk11' });

/** The errors of the 1.1 base paths (rendered by compat.errors.ts). */
export const COMPAT11_ERRORS: ErrorCatalogue = {
  400: json(fieldeditorError, 'Validation errors (subCode 400000); `errors` names each offending parameter or property'),
  401: json(fieldeditorError, 'No or wrong credentials (401000)'),
  // Only the request pipeline's refusals (XSRF 403004, a read-only token): 1.1 answers missing rights with 500.
  403: json(fieldeditorError, 'XSRF check failed (403004), or a read-only token'),
  500: json(
    fieldeditorError,
    "As in 1.1: no grant on the field (subCode 403001), the field does not exist (403002), deletes are for administrators only (403003), the option does not exist in the field's default context (404000); or an unexpected error (500000)",
  ),
  ...LIMIT_ERRORS,
};
const ERRORS = [400, 500];

/** The field (default context) and the list a 1.1 path names; ids parsed before anything else is asked. */
const listPath = (fieldId: number, parentId: number | null): ListPath => ({ ids: { fieldId, context: 'default' } satisfies ScopeIds, parentId });

const V = '/user/customfieldoption/{customfieldid}';
const VC = '/user/customfieldchildoption/{customfieldid}/{parentoptionid}';

export const compat11Endpoints: Endpoint<Compat11Deps>[] = [
  {
    method: 'get', path: '/user/customfieldoptions/{customfieldid}', tag: TAG, access: 'user', params: fieldParams,
    summary: "V1: the options of the field's default context; on a cascading field each with its children in childOptions",
    responses: { 200: json(z.array(option11), 'The options in order (disabled ones included)') }, errors: ERRORS,
    handle: async (req, res, { access, options }) => {
      const { customfieldid: fieldId } = parseWith(fieldParams, req.params, 'path');
      const { field, context } = await access.readable(currentUser(req), { fieldId, context: 'default' });
      res.json(await readOptionTree(options, field, context, null));
    },
  },
  {
    method: 'post', path: V, tag: TAG, access: 'user', params: fieldParams, body: createOptionBody, formBody: true,
    summary: 'V2: create an option at the end (id, sequence and childOptions are ignored)',
    responses: { 200: json(option, 'The new option') }, errors: ERRORS,
    handle: async (req, res, { options }) => {
      const { customfieldid } = parseWith(fieldParams, req.params, 'path');
      res.json(await options.create(currentUser(req), listPath(customfieldid, null), req.body ?? {}));
    },
  },
  {
    method: 'put', path: `${V}/{optionid}`, tag: TAG, access: 'user', params: optionParams, body: updateOptionBody, formBody: true,
    summary: 'V3: rename, disable or enable an option (members left out stay; sequence is ignored: use move)',
    responses: { 200: json(option, 'The option') }, errors: ERRORS,
    handle: async (req, res, { options }) => {
      const { customfieldid, optionid } = parseWith(optionParams, req.params, 'path');
      res.json(await options.update(currentUser(req), listPath(customfieldid, null), optionid, req.body ?? {}));
    },
  },
  {
    method: 'delete', path: `${V}/{optionid}`, tag: TAG, access: 'user', params: optionParams,
    summary: 'V4: delete an option and its children', responses: { 200: json(deleteOk11, 'The deleted id, as a string') }, errors: ERRORS,
    handle: async (req, res, { options }) => {
      const { customfieldid, optionid } = parseWith(optionParams, req.params, 'path');
      res.json(deleteOk(await options.remove(currentUser(req), listPath(customfieldid, null), optionid)));
    },
  },
  {
    method: 'post', path: `${V}/{optionid}/move`, tag: TAG, access: 'user', params: optionParams, body: moveBody, formBody: true,
    summary: 'V5: move an option first ({"position":"First"}) or after a sibling ({"after":"<id>"}); position wins',
    responses: { 200: json(option, 'The option at its new place') }, errors: ERRORS,
    handle: async (req, res, { options }) => {
      const { customfieldid, optionid } = parseWith(optionParams, req.params, 'path');
      res.json(await options.move(currentUser(req), listPath(customfieldid, null), optionid, req.body ?? {}));
    },
  },
  {
    method: 'get', path: '/user/customfieldchildoptions/{customfieldid}/{parentoptionid}', tag: TAG, access: 'user', params: parentParams,
    summary: 'V6: the children of an option (cascading fields), each with childOptions',
    responses: { 200: json(z.array(option11), 'The child options in order') }, errors: ERRORS,
    handle: async (req, res, { access, options }) => {
      const { customfieldid: fieldId, parentoptionid } = parseWith(parentParams, req.params, 'path');
      const { field, context } = await access.readable(currentUser(req), { fieldId, context: 'default' });
      res.json(await readOptionTree(options, field, context, parentoptionid));
    },
  },
  {
    method: 'post', path: VC, tag: TAG, access: 'user', params: parentParams, body: createOptionBody, formBody: true,
    summary: 'V7: create a child option at the end', responses: { 200: json(option, 'The new child option') }, errors: ERRORS,
    handle: async (req, res, { options }) => {
      const { customfieldid, parentoptionid } = parseWith(parentParams, req.params, 'path');
      res.json(await options.create(currentUser(req), listPath(customfieldid, parentoptionid), req.body ?? {}));
    },
  },
  {
    method: 'put', path: `${VC}/{childoptionid}`, tag: TAG, access: 'user', params: childParams, body: updateOptionBody, formBody: true,
    summary: 'V8: rename, disable or enable a child option', responses: { 200: json(option, 'The child option') }, errors: ERRORS,
    handle: async (req, res, { options }) => {
      const { customfieldid, parentoptionid, childoptionid } = parseWith(childParams, req.params, 'path');
      res.json(await options.update(currentUser(req), listPath(customfieldid, parentoptionid), childoptionid, req.body ?? {}));
    },
  },
  {
    method: 'delete', path: `${VC}/{childoptionid}`, tag: TAG, access: 'user', params: childParams,
    summary: 'V9: delete a child option', responses: { 200: json(deleteOk11, 'The deleted id, as a string') }, errors: ERRORS,
    handle: async (req, res, { options }) => {
      const { customfieldid, parentoptionid, childoptionid } = parseWith(childParams, req.params, 'path');
      res.json(deleteOk(await options.remove(currentUser(req), listPath(customfieldid, parentoptionid), childoptionid)));
    },
  },
  {
    method: 'post', path: `${VC}/{childoptionid}/move`, tag: TAG, access: 'user', params: childParams, body: moveBody, formBody: true,
    summary: 'V10: move a child option among its siblings', responses: { 200: json(option, 'The child option at its new place') }, errors: ERRORS,
    handle: async (req, res, { options }) => {
      const { customfieldid, parentoptionid, childoptionid } = parseWith(childParams, req.params, 'path');
      res.json(await options.move(currentUser(req), listPath(customfieldid, parentoptionid), childoptionid, req.body ?? {}));
    },
  },
];
