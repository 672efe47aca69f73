import { Router } from 'express';
import { currentUser, requireAdmin, requireUser } from '../platform/auth/guards.ts';
import { parseWith } from '../platform/http/validate.ts';
import type { SpacesService } from './spaces.service.ts';
import { presentSpace } from './wiki.presenter.ts';
import * as s from './wiki.schemas.ts';

/** /rest/api/space…: reading a space is for its readers; creating spaces and granting is for administrators. */
export function createSpacesRouter({ spaces, baseUrl }: { spaces: SpacesService; baseUrl: string }): Router {
  const r = Router();

  r.get('/space/:key', requireUser, async (req, res) => {
    const key = parseWith(s.spaceKey, req.params.key, 'key');
    res.json(presentSpace(baseUrl, await spaces.getForReader(currentUser(req), key)));
  });

  r.post('/space', requireAdmin, async (req, res) => {
    const body = parseWith(s.createSpaceBody, req.body, 'body');
    res.json(presentSpace(baseUrl, await spaces.create(body)));
  });

  r.post('/space/:key/permission', requireAdmin, async (req, res) => {
    const key = parseWith(s.spaceKey, req.params.key, 'key');
    const body = parseWith(s.permissionBody, req.body, 'body');
    res.json(await spaces.addPermission(key, body));
  });

  r.delete('/space/:key/permission/:id', requireAdmin, async (req, res) => {
    const p = parseWith(s.permissionParams, req.params);
    await spaces.deletePermission(p.key, p.id);
    res.status(204).end();
  });

  return r;
}
