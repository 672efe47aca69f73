import { Router } from 'express';
import { currentUser, requireUser } from '../platform/auth/guards.ts';
import { parseWith } from '../platform/http/validate.ts';
import type { ContentService } from './content.service.ts';
import type { RestrictionsService } from './restrictions.service.ts';
import { presentContent, presentPage, presentReadRestriction } from './wiki.presenter.ts';
import * as s from './wiki.schemas.ts';

/** Writes answer the saved content with its stored body, so clients see the macro ids that were assigned. */
const AFTER_WRITE = ['body.storage', 'ancestors', 'container'];

/** /rest/api/content…: every route needs a user; view and write rules live in the services. */
export function createContentRouter(deps: { content: ContentService; restrictions: RestrictionsService; baseUrl: string }): Router {
  const { content, restrictions, baseUrl } = deps;
  const r = Router();
  r.use('/content', requireUser);

  r.get('/content', async (req, res) => {
    const q = parseWith(s.contentListQuery, req.query);
    const expand = { ancestors: q.expand.has('ancestors'), container: q.expand.has('container') };
    const page = await content.list(currentUser(req), { spaceKey: q.spaceKey, type: q.type, title: q.title }, q.start, q.limit, expand);
    res.json(presentPage(baseUrl, '/rest/api/content', req.query, page, (view) => presentContent(baseUrl, view, q.expand)));
  });

  r.post('/content', async (req, res) => {
    const { expand } = parseWith(s.expandQuery, req.query);
    const body = parseWith(s.createContentBody, req.body, 'body');
    const view = await content.create(currentUser(req), body);
    res.json(presentContent(baseUrl, view, new Set([...expand, ...AFTER_WRITE])));
  });

  r.get('/content/:id', async (req, res) => {
    const { id } = parseWith(s.idParams, req.params);
    const { expand } = parseWith(s.expandQuery, req.query);
    const view = await content.get(currentUser(req), id, { ancestors: expand.has('ancestors'), container: expand.has('container') });
    res.json(presentContent(baseUrl, view, expand));
  });

  r.put('/content/:id', async (req, res) => {
    const { id } = parseWith(s.idParams, req.params);
    const { expand } = parseWith(s.expandQuery, req.query);
    const body = parseWith(s.updateContentBody, req.body, 'body');
    const view = await content.update(currentUser(req), id, body);
    res.json(presentContent(baseUrl, view, new Set([...expand, ...AFTER_WRITE])));
  });

  r.delete('/content/:id', async (req, res) => {
    const { id } = parseWith(s.idParams, req.params);
    await content.trash(currentUser(req), id);
    res.status(204).end();
  });

  r.get('/content/:id/restriction/byOperation/read', async (req, res) => {
    const { id } = parseWith(s.idParams, req.params);
    res.json(presentReadRestriction(baseUrl, id, await restrictions.getRead(currentUser(req), id)));
  });

  r.put('/content/:id/restriction', async (req, res) => {
    const { id } = parseWith(s.idParams, req.params);
    const body = parseWith(s.restrictionsBody, req.body, 'body');
    const read = await restrictions.putRead(currentUser(req), id, body);
    const results = [presentReadRestriction(baseUrl, id, read)];
    res.json({ results, size: results.length, _links: { base: baseUrl } });
  });

  r.get('/content/:id/history/:version/macro/id/:macroId', async (req, res) => {
    const p = parseWith(s.macroParams, req.params);
    const macro = await content.macro(currentUser(req), p.id, p.version, p.macroId);
    res.json({ ...macro, _links: { base: baseUrl } });
  });

  return r;
}
