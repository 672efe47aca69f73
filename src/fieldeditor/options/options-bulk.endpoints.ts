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
import { SINCE_1 } from '../shared/fieldeditor.errors.ts';
import { contextParams, option, optionParams } from '../shared/fieldeditor.openapi-schemas.ts';
import { batchBody, MAX_BATCH_ITEMS } from './options-batch.schemas.ts';
import type { OptionsDeps } from './options.endpoints.ts';
import type { ExportSink, OptionsExport } from './options-export.service.ts';
import type { OptionsSync } from './options-sync.service.ts';
import { uploadType, type UploadRule } from '../../platform/http/upload.ts';
import { unsupportedMediaType } from '../../platform/http/platform.errors.ts';
import { OnePerKey } from '../../platform/limits/one-per-key.ts';
import { headerNames } from './options-tag.ts';
import { preconditionRequired, syncRunning } from './options.errors.ts';
import { readSyncFile } from './options-sync.upload.ts';

const TAG = 'User: options in bulk';
const OPTIONS = '/user/customfields/{customFieldId}/contexts/{contextId}/options';
const CHILDREN = `${OPTIONS}/{optionId}/childoptions`;

export interface OptionsBulkDeps extends OptionsDeps {
  optionsExport: OptionsExport;
  optionsSync: OptionsSync;
}

/**
 * The sync's body is a file (JSON or CSV, up to SYNC_UPLOAD_LIMIT), read by its route rather than by the API's
 * JSON parser (1 MB). text/csv needs no X-Atlassian-Token: an HTML form cannot send it cross-site (only
 * text/plain, form-encoded and multipart), so a browser asks the server first (CORS preflight), which this
 * server does not allow; text/plain stays refused by the XSRF rule like on every JSON endpoint.
 */
export const SYNC_UPLOAD: UploadRule = { path: /\/user\/customfields\/[^/]+\/contexts\/[^/]+\/options\/sync\/?$/, types: ['text/csv', 'application/json'] };

const syncQuery = z.object({
  dryRun: z.stringbool({ error: 'must be true or false' }).default(true),
  allowDelete: z.stringbool({ error: 'must be true or false' }).default(false),
});

/** One sync per user at a time on a node (issue 44): a second answers 409 before its file is read. */
const syncsRunning = new OnePerKey();

const diffItem = z.object({ id: z.number().int().optional(), path: z.string() }).catchall(z.unknown());
const syncEndpoint: Endpoint<OptionsBulkDeps> = {
  method: 'post', path: `${OPTIONS}/sync`, tag: TAG, access: 'user', versions: SINCE_1, params: contextParams, query: syncQuery,
  summary: 'Preview (dryRun=true, the default) or apply the changes that bring the option tree to a file (JSON or CSV as exported)',
  description:
    'The body is a file in an export\'s shape: `application/json` or `text/csv` (up to 32 MB, 100,000 options, the field\'s levels: ' +
    '1, 2, or 1,000 on a multi-level select). The right is decided before the file is read (403 unread); the file is read as it arrives ' +
    'and the first option or row over a bound answers 400 naming it. One sync per user at a time: a second while one runs answers 409 (409001). ' +
    'Ids match existing options ' +
    '(a new place is a move); options without an id match by name under the same parent (without regard to case); the rest are created. ' +
    'Options the file leaves out are listed as `unlisted` and kept, or deleted with `allowDelete=true` (subject to the only-admins-delete setting). ' +
    '`default: true` marks options that are (or hold) a default value. The answer\'s `etag` (and ETag header) names the tree the diff was made on: ' +
    'applying (`dryRun=false`) needs it in If-Match (428 without it or with `*`, 412 with subCode 412001 when the tree changed since), and writes exactly the diff, ' +
    'in one transaction, one event-log entry per changed option sharing `operationId`.',
  bodyOptional: false,
  responses: {
    200: json(
      z.object({
        create: z.array(diffItem), rename: z.array(diffItem), move: z.array(diffItem), disable: z.array(diffItem), enable: z.array(diffItem),
        delete: z.array(diffItem), unlisted: z.array(diffItem), applied: z.boolean(), etag: z.string(), operationId: z.string().optional(),
      }),
      'The diff; applied: whether it was written',
    ),
    412: json(z.object({ statusCode: z.number(), subCode: z.number(), message: z.string() }), 'If-Match does not name the tree any more (412001): preview again'),
    409: json(z.object({ statusCode: z.number(), subCode: z.number(), message: z.string() }), 'Another sync of this user is running (409001)'),
    428: json(z.object({ statusCode: z.number(), subCode: z.number(), message: z.string() }), 'dryRun=false without If-Match, or with `*` (428000)'),
  },
  errors: [400, 403, 404, 413, 415],
  handle: async (req, res, { optionsSync }) => {
    const user = currentUser(req);
    const ids = parseScopeIds(pathParam(req, 'customFieldId'), pathParam(req, 'contextId'));
    const query = parseWith(syncQuery, req.query, 'query');
    const type = uploadType(req);
    if (type !== 'text/csv' && type !== 'application/json') throw unsupportedMediaType(type || 'none');
    // In this order, each before a byte of the file is read (issue 44): the right, the precondition, the user's slot.
    const { levels } = await optionsSync.admit(user, ids);
    const ifMatch = req.headers['if-match'];
    // `*` names any tree: an apply must name the previewed one.
    if (!query.dryRun && (ifMatch === undefined || ifMatch.trim() === '*')) throw preconditionRequired();
    const release = syncsRunning.take(String(user.id));
    if (!release) throw syncRunning();
    try {
      const file = await readSyncFile(req, type, levels);
      const answer = await optionsSync.run(user, ids, { ...query, ifMatch }, file);
      res.setHeader('ETag', answer.etag);
      res.json(answer);
    } finally {
      release();
    }
  },
};


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

export const optionsBulkEndpoints: Endpoint<OptionsBulkDeps>[] = [batchEndpoint(false), batchEndpoint(true), exportEndpoint, syncEndpoint];
