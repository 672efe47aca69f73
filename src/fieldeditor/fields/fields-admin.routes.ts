import { Router, type Request } from 'express';
import { parseWith } from '../../platform/http/validate.ts';
import { currentUser } from '../../platform/auth/guards.ts';
import { pathParam } from '../../platform/http/path-param.ts';
import { createContextBody, updateContextBody } from '../../tracker/tracker.schemas.ts';
import { onlyFrom, type ApiVersion } from '../fieldeditor.errors.ts';
import { expandQuery } from '../fieldeditor.schemas.ts';
import { pageQuery, toPageRequest, wantsPage } from './fields.schemas.ts';
import type { FieldsService } from './fields.service.ts';
import type { FieldContextsService } from './field-contexts.service.ts';

/** A1 (the field list) and A5–A8 (contexts). Administrators only: the module guards `/admin/customfields`. */
export function createFieldsAdminRouter(deps: { fields: FieldsService; contexts: FieldContextsService; version: ApiVersion }): Router {
  const { fields, contexts, version } = deps;
  const r = Router();
  const FIELD = '/admin/customfields/:customFieldId';
  const since1 = onlyFrom(version, '1');
  const fieldId = (req: Request) => pathParam(req, 'customFieldId');
  const contextId = (req: Request) => pathParam(req, 'contextId');

  r.get('/admin/customfields', async (req, res) => {
    res.json(await fields.adminList(wantsPage(req.query) ? toPageRequest(parseWith(pageQuery, req.query, 'query')) : null));
  });
  r.get(`${FIELD}/contexts`, async (req, res) => {
    res.json(await contexts.list(fieldId(req), parseWith(expandQuery, req.query, 'expand').expand));
  });
  r.post(`${FIELD}/contexts`, since1, async (req, res) => {
    res.json(await contexts.create(currentUser(req).name, fieldId(req), parseWith(createContextBody, req.body ?? null, 'body')));
  });
  r.put(`${FIELD}/contexts/:contextId`, since1, async (req, res) => {
    res.json(await contexts.update(currentUser(req).name, fieldId(req), contextId(req), parseWith(updateContextBody, req.body ?? null, 'body')));
  });
  r.delete(`${FIELD}/contexts/:contextId`, since1, async (req, res) => {
    res.json(await contexts.remove(currentUser(req).name, fieldId(req), contextId(req)));
  });
  return r;
}
