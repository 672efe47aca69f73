// Option lists in bulk (issue 27), each declared once: the batch of one list (top level or the children of
// one option). Under the `1` base paths only (412 under `1.2`, after the access check). The right and every
// rule are decided by the service inside the write, as for the single writes (options.endpoints.ts).
import { z } from 'zod';
import type { Request, Response } from 'express';
import { currentUser } from '../../platform/auth/guards.ts';
import { parseWith } from '../../platform/http/validate.ts';
import { pathParam } from '../../platform/http/path-param.ts';
import type { Endpoint } from '../../platform/http/endpoint.ts';
import { json } from '../../platform/openapi/operation.ts';
import { parseOptionId, parseScopeIds } from '../access/ids.ts';
import { SINCE_1 } from '../fieldeditor.errors.ts';
import { contextParams, option, optionParams } from '../fieldeditor.openapi-schemas.ts';
import { batchBody, MAX_BATCH_ITEMS } from './options-batch.schemas.ts';
import type { OptionsDeps } from './options.endpoints.ts';
import type { ExportSink, OptionsExport } from './options-export.service.ts';
import { headerNames } from './options-tag.ts';

export interface OptionsBulkDeps extends OptionsDeps {
  optionsExport: OptionsExport;
}

const TAG = 'User: options in bulk';
const OPTIONS = '/user/customfields/{customFieldId}/contexts/{contextId}/options';
const CHILDREN = `${OPTIONS}/{optionId}/childoptions`;

export const exportQuery = z.object({
  format: z.enum(['json', 'csv'], { error: 'must be json or csv' }).default('json'),
  bom: z.stringbool({ error: 'must be true or false' }).default(true),
});

/** The answer as an export's sink: headers first (304 when If-None-Match names the tag), then text as the client takes it. */
function httpSink(req: Request, res: Response): ExportSink {
  return {
    begin({ etag, contentType, fileName }) {
      res.setHeader('ETag', etag);
      res.setHeader('Cache-Control', 'private, no-cache');
      if (headerNames(req.headers['if-none-match'], etag, true)) {
        res.status(304).end();
        return false;
      }
      res.setHeader('Content-Type', contentType);
      res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
      return true;
    },
    write: (text) =>
      new Promise((resolve) => {
        if (res.destroyed) return resolve(false);
        if (text === '' || res.write(text, 'utf8')) return resolve(!res.destroyed);
        const done = (ok: boolean) => {
          res.off('drain', drained);
          res.off('close', closed);
          resolve(ok);
        };
        const drained = () => done(true);
        const closed = () => done(false);
        res.once('drain', drained);
        res.once('close', closed);
      }),
  };
}

const exportEndpoint: Endpoint<OptionsBulkDeps> = {
  method: 'get', path: `${OPTIONS}/export`, tag: TAG, access: 'user', versions: SINCE_1, params: contextParams, query: exportQuery,
  summary: 'The whole option tree of a context as JSON or CSV (streamed, with the ETag of the list)',
  description:
    'JSON: `{fieldId, contextId, options: [{id, optionvalue, disabled, position, default, children: […]}]}`. ' +
    'CSV (RFC 4180, UTF-8 with a byte order mark unless `bom=false`, CRLF): `id,path,disabled,position,default`, one row per option, ' +
    'depth first; `path` joins the names from the top level with `/` (a `/` or `\\` in a name escaped by `\\`); a path a spreadsheet ' +
    "would take for a formula (= + - @ tab CR, and ') is quoted with a leading `'`. The ETag names the state of the whole tree (both formats " +
    'alike): send it as If-Match to apply a sync; If-None-Match answers 304.',
  responses: {
    200: {
      description: 'The tree',
      content: { 'application/json': z.object({ fieldId: z.number().int(), contextId: z.number().int(), options: z.array(z.unknown()) }), 'text/csv': { type: 'string' } },
      headers: {
        ETag: { description: 'The state of the option tree', schema: { type: 'string' } },
        'Content-Disposition': { description: 'attachment; filename="options-{fieldId}-{contextId}.json|csv"', schema: { type: 'string' } },
      },
    },
    304: { description: 'If-None-Match names the current ETag' },
  },
  errors: [400, 403, 404],
  handle: async (req, res, { optionsExport }) => {
    const user = currentUser(req);
    const ids = parseScopeIds(pathParam(req, 'customFieldId'), pathParam(req, 'contextId'));
    const query = parseWith(exportQuery, req.query, 'query');
    await optionsExport.run(user, ids, query, httpSink(req, res));
    if (!res.writableEnded && !res.destroyed) res.end();
  },
};

function batchEndpoint(child: boolean): Endpoint<OptionsDeps> {
  const what = child ? 'child options of one option' : 'top-level options';
  return {
    method: 'post', path: `${child ? CHILDREN : OPTIONS}/batch`, tag: TAG, access: 'user', versions: SINCE_1, params: child ? optionParams : contextParams,
    summary: `Create, update and delete up to ${MAX_BATCH_ITEMS} ${what} at once, all or nothing`,
    description:
      'One transaction: every item is checked first and a 400 names each invalid one (`create[3].optionvalue`, `update[0].id`, `delete[2]`), ' +
      'writing nothing; deletes follow the only-admins-delete setting (403003). Deletes run first, then updates, then creations (appended in the order sent). ' +
      `More than ${MAX_BATCH_ITEMS} items in all answer 413. Each changed option gets an event-log entry; the entries share one operationId.`,
    body: batchBody,
    responses: { 200: json(z.object({ options: z.array(option) }), 'The list after the batch, in order') },
    errors: [400, 403, 404, 409, 413],
    handle: async (req, res, { options }) => {
      const user = currentUser(req);
      const at = {
        ids: parseScopeIds(pathParam(req, 'customFieldId'), pathParam(req, 'contextId')),
        parentId: child ? parseOptionId(pathParam(req, 'optionId'), 'optionId') : null,
      };
      res.json(await options.batch(user, at, req.body ?? {}));
    },
  };
}

export const optionsBulkEndpoints: Endpoint<OptionsBulkDeps>[] = [batchEndpoint(false), batchEndpoint(true), exportEndpoint];
