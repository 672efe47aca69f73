import { Router, type Request } from 'express';
import { parseWith } from '../../platform/http/validate.ts';
import { currentUser } from '../../platform/auth/guards.ts';
import { onlyFrom, type ApiVersion } from '../fieldeditor.errors.ts';
import { expandQuery } from '../fieldeditor.schemas.ts';
import { pathParam } from '../../platform/http/path-param.ts';
import { contextPermissionsBody, patchBody, permissionBody } from './grants.schemas.ts';
import type { GrantsService } from './grants.service.ts';

/**
 * Grants A2–A4 (global) and A9, A10 (per context). Administrators only: the module mounts requireAdmin on
 * `/admin/customfields` before this router. Literal `/contexts/permissions` never reaches the field router's
 * `/contexts/:contextId` because this router is mounted first.
 */
export function createGrantsRouter({ grants, version }: { grants: GrantsService; version: ApiVersion }): Router {
  const r = Router();
  const FIELD = '/admin/customfields/:customFieldId';
  const fieldId = (req: Request) => pathParam(req, 'customFieldId');
  const expand = (req: Request) => parseWith(expandQuery, req.query, 'expand').expand;

  r.get(FIELD, async (req, res) => {
    res.json(await grants.globalPermission(fieldId(req), expand(req)));
  });
  r.put(FIELD, async (req, res) => {
    await grants.replaceGlobal(currentUser(req).name, fieldId(req), parseWith(permissionBody, req.body, 'body'));
    res.status(200).end();
  });
  r.patch(FIELD, onlyFrom(version, '1'), async (req, res) => {
    res.json(await grants.patch(currentUser(req).name, fieldId(req), parseWith(patchBody, req.body, 'body')));
  });
  r.get(`${FIELD}/contexts/permissions`, async (req, res) => {
    res.json(await grants.contextPermissions(fieldId(req), expand(req)));
  });
  r.put(`${FIELD}/contexts/permissions`, async (req, res) => {
    res.json(await grants.replaceContextPermissions(currentUser(req).name, fieldId(req), parseWith(contextPermissionsBody, req.body ?? null, 'body')));
  });
  return r;
}
