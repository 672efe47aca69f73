import { Router, type Request } from 'express';
import { requireAdmin } from '../../platform/auth/guards.ts';
import { parseWith } from '../../platform/http/validate.ts';
import type { AppServices } from '../../services.ts';
import { createContextBody, updateContextBody } from '../../tracker/tracker.schemas.ts';
import { contextsOfField, createContext, deleteContext, describeContexts, updateContext } from '../../tracker/contexts.service.ts';
import { loadContext, loadField, parseFieldId } from '../access/edit-rule.ts';
import { onlyFrom, type ApiVersion } from '../fieldeditor.errors.ts';
import * as s from '../fieldeditor.schemas.ts';
import { legacyFieldList } from './fields.service.ts';
import type { GrantsService } from '../grants/grants.service.ts';
import { contextRecord, fieldRecord } from '../fieldeditor.presenters.ts';

const param = (req: Request, name: string): string => (req.params as Record<string, string | undefined>)[name] ?? '';

/** True when the request carries any of the paging parameters (even empty): then the page wrapper answers. */
export const wantsPage = (req: Request) => s.PAGE_PARAMS.some((p) => Object.prototype.hasOwnProperty.call(req.query, p));

/**
 * Admin endpoints A1–A10 (administrators and system administrators only; admin rights alone do not open
 * the user endpoints). Literal `/contexts/permissions` is routed before `/contexts/:contextId`.
 */
export function createAdminRouter(ctx: AppServices, grants: GrantsService, version: ApiVersion): Router {
  const r = Router();
  const { knex } = ctx.db;
  const BASE = '/admin/customfields';
  const since1 = onlyFrom(version, '1');
  r.use(BASE, requireAdmin);

  // A1
  r.get(BASE, async (req, res) => {
    if (!wantsPage(req)) return void res.json(await legacyFieldList(knex));
    res.json(await ctx.fieldPages.admin(s.toPageRequest(parseWith(s.pageQuery, req.query, 'query'))));
  });

  const field = async (req: Request) => loadField(knex, parseFieldId(param(req, 'customFieldId')));
  const expand = (req: Request) => parseWith(s.expandQuery, req.query, 'expand').expand;

  // A2, A3, A4
  r.get(`${BASE}/:customFieldId`, async (req, res) => {
    const f = await field(req);
    const e = expand(req);
    res.json({ ...(await grants.globalPermission(f, e)), ...(e.has('field') ? { field: fieldRecord(f) } : {}) });
  });
  r.put(`${BASE}/:customFieldId`, async (req, res) => {
    const f = await field(req);
    await grants.replaceGlobal(f, parseWith(s.permissionBody, req.body, 'body'));
    res.status(200).end();
  });
  r.patch(`${BASE}/:customFieldId`, since1, async (req, res) => {
    const f = await field(req);
    res.json(await grants.patch(f, parseWith(s.patchBody, req.body, 'body')));
  });

  // A9, A10 (before /contexts/:contextId)
  r.get(`${BASE}/:customFieldId/contexts/permissions`, async (req, res) => {
    const f = await field(req);
    res.json(await grants.contextPermissions(f, expand(req)));
  });
  r.put(`${BASE}/:customFieldId/contexts/permissions`, async (req, res) => {
    const f = await field(req);
    res.json(await grants.replaceContextPermissions(f, parseWith(s.contextPermissionsBody, req.body ?? null, 'body')));
  });

  // A5–A8
  r.get(`${BASE}/:customFieldId/contexts`, async (req, res) => {
    const f = await field(req);
    const e = expand(req);
    const details = await describeContexts(knex, await contextsOfField(knex, f.id), { projects: e.has('projects'), issueTypes: e.has('issueTypes') });
    res.json(details.map(contextRecord));
  });
  r.post(`${BASE}/:customFieldId/contexts`, since1, async (req, res) => {
    const f = await field(req);
    res.json(contextRecord(await createContext(knex, ctx.db.changes, f, parseWith(createContextBody, req.body ?? null, 'body'))));
  });
  r.put(`${BASE}/:customFieldId/contexts/:contextId`, since1, async (req, res) => {
    const f = await field(req);
    const c = await loadContext(knex, f, param(req, 'contextId'));
    res.json(contextRecord(await updateContext(knex, ctx.db.changes, f, c, parseWith(updateContextBody, req.body ?? null, 'body'))));
  });
  r.delete(`${BASE}/:customFieldId/contexts/:contextId`, since1, async (req, res) => {
    const f = await field(req);
    const c = await loadContext(knex, f, param(req, 'contextId'));
    res.json(contextRecord(await deleteContext(knex, ctx.db.changes, f, c)));
  });
  return r;
}
