import { Router } from 'express';
import { currentUser, requireAdmin, requireUser } from '../platform/auth/guards.ts';
import { parseWith } from '../platform/http/validate.ts';
import type { SpacesService } from './spaces.service.ts';
import { presentPage, presentSpace } from './wiki.presenter.ts';
import * as s from './wiki.schemas.ts';

/**
 * /rest/api/space…: listing and reading spaces is for their readers; creating spaces is for administrators;
 * permissions and deletion are for administrators and the space's own administrators (checked in the service).
 */
export function createSpacesRouter({ spaces, baseUrl }: { spaces: SpacesService; baseUrl: string }): Router {
  const r = Router();

  r.get('/space', requireUser, async (req, res) => {
    const q = parseWith(s.spaceListQuery, req.query);
    const page = await spaces.listReadable(currentUser(req), q.start, q.limit);
    res.json(presentPage(baseUrl, '/rest/api/space', req.query, page, (sp) => presentSpace(baseUrl, sp)));
  });

  r.get('/space/:key', requireUser, async (req, res) => {
    const key = parseWith(s.spaceKey, req.params.key, 'key');
    res.json(presentSpace(baseUrl, await spaces.getForReader(currentUser(req), key)));
  });

  r.post('/space', requireAdmin, async (req, res) => {
    const body = parseWith(s.createSpaceBody, req.body, 'body');
    res.json(presentSpace(baseUrl, await spaces.create(currentUser(req), body)));
  });

  r.delete('/space/:key', requireUser, async (req, res) => {
    const key = parseWith(s.spaceKey, req.params.key, 'key');
    await spaces.delete(currentUser(req), key);
    res.status(204).end();
  });

  r.get('/space/:key/permission', requireUser, async (req, res) => {
    const key = parseWith(s.spaceKey, req.params.key, 'key');
    const results = await spaces.listPermissions(currentUser(req), key);
    res.json({ results, size: results.length, _links: { base: baseUrl } });
  });

  r.post('/space/:key/permission', requireUser, async (req, res) => {
    const key = parseWith(s.spaceKey, req.params.key, 'key');
    const body = parseWith(s.permissionBody, req.body, 'body');
    res.json(await spaces.addPermission(currentUser(req), key, body));
  });

  r.delete('/space/:key/permission/:id', requireUser, async (req, res) => {
    const p = parseWith(s.permissionParams, req.params);
    await spaces.deletePermission(currentUser(req), p.key, p.id);
    res.status(204).end();
  });

  return r;
}
