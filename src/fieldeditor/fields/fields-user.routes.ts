import { Router, type Request } from 'express';
import { currentUser, requireUser } from '../../platform/auth/guards.ts';
import { parseWith } from '../../platform/http/validate.ts';
import type { AppServices } from '../../services.ts';
import { contextsOfField, describeContexts } from '../../tracker/contexts.service.ts';
import { grantsReaching, loadField, parseFieldId, resolveEditableContext } from '../access/edit-rule.ts';
import { fieldPermissionDenied, onlyFrom, type ApiVersion } from '../fieldeditor.errors.ts';
import * as s from '../fieldeditor.schemas.ts';
import { legacyFieldList } from './fields.service.ts';
import { wantsPage } from './fields-admin.routes.ts';
import { contextRecord, fieldRecord } from '../fieldeditor.presenters.ts';
import { readDefaultValue } from '../defaults/defaults.repository.ts';
import { onlyAdminsMayDeleteOptions } from '../settings/settings.repository.ts';

const param = (req: Request, name: string): string => (req.params as Record<string, string | undefined>)[name] ?? '';

/** User read endpoints U1–U3: what the caller may edit, by grant (administrators need grants too). */
export function createUserRouter(ctx: AppServices, version: ApiVersion): Router {
  const r = Router();
  const { knex } = ctx.db;
  r.use('/user', requireUser);

  // U1: legacy plain array, or the page wrapper when any paging parameter is present.
  r.get('/user/customfields', async (req, res) => {
    const user = currentUser(req);
    if (!wantsPage(req)) return void res.json(await legacyFieldList(knex, user));
    res.json(await ctx.fieldPages.user(s.toPageRequest(parseWith(s.pageQuery, req.query, 'query')), user));
  });

  // U2: with a global grant every context; otherwise the contexts the caller holds a grant on.
  r.get('/user/customfields/:customFieldId/contexts', async (req, res) => {
    const user = currentUser(req);
    const field = await loadField(knex, parseFieldId(param(req, 'customFieldId')));
    const { expand } = parseWith(s.expandQuery, req.query, 'expand');
    const reach = await knex('field_grants as g').distinct('g.context_id').where('g.field_id', field.id).andWhere(grantsReaching(knex, user));
    if (reach.length === 0) throw fieldPermissionDenied();
    const global = reach.some((g: { context_id: number | null }) => g.context_id === null);
    const granted = new Set(reach.map((g: { context_id: number | null }) => g.context_id));
    const contexts = (await contextsOfField(knex, field.id)).filter((c) => global || granted.has(c.id));
    const details = await describeContexts(knex, contexts, { projects: expand.has('projects'), issueTypes: expand.has('issueTypes') });
    res.json(details.map(contextRecord));
  });

  // U3: field, context, default value and what the caller may do (added in 2.0.0, so not under 1.2).
  r.get('/user/customfields/:customFieldId/contexts/:contextId', onlyFrom(version, '1'), async (req, res) => {
    const user = currentUser(req);
    const { field, context } = await resolveEditableContext(knex, user, param(req, 'customFieldId'), param(req, 'contextId'));
    const [details, defaultOption, adminsOnly] = await Promise.all([
      describeContexts(knex, [context]),
      readDefaultValue(knex, field, context),
      onlyAdminsMayDeleteOptions(knex),
    ]);
    res.json({
      ...fieldRecord(field),
      context: details[0] ? contextRecord(details[0]) : undefined,
      defaultOption,
      authenticatedUserMeta: { userAllowedToDeleteOptions: !adminsOnly || user.isAdmin || user.isSystemAdmin },
    });
  });
  return r;
}
