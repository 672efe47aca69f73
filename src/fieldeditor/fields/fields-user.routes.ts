import { Router } from 'express';
import { currentUser } from '../../platform/auth/guards.ts';
import { parseWith } from '../../platform/http/validate.ts';
import { pathParam } from '../../platform/http/path-param.ts';
import { onlyFrom, type ApiVersion } from '../fieldeditor.errors.ts';
import { expandQuery } from '../fieldeditor.schemas.ts';
import { pageQuery, toPageRequest, wantsPage } from './fields.schemas.ts';
import type { FieldsService } from './fields.service.ts';

/** U1–U3: what the caller may edit, by grant (administrators need grants too). The module requires a user. */
export function createFieldsUserRouter({ fields, version }: { fields: FieldsService; version: ApiVersion }): Router {
  const r = Router();

  // U1: legacy plain array, or the page wrapper when any paging parameter is present.
  r.get('/user/customfields', async (req, res) => {
    const page = wantsPage(req.query) ? toPageRequest(parseWith(pageQuery, req.query, 'query')) : null;
    res.json(await fields.userList(currentUser(req), page));
  });
  // U2
  r.get('/user/customfields/:customFieldId/contexts', async (req, res) => {
    const { expand } = parseWith(expandQuery, req.query, 'expand');
    res.json(await fields.userContexts(currentUser(req), pathParam(req, 'customFieldId'), expand));
  });
  // U3 (added in 2.0.0, so not under 1.2).
  r.get('/user/customfields/:customFieldId/contexts/:contextId', onlyFrom(version, '1'), async (req, res) => {
    res.json(await fields.userContext(currentUser(req), pathParam(req, 'customFieldId'), pathParam(req, 'contextId')));
  });
  return r;
}
