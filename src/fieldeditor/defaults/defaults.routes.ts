import { Router, type Request } from 'express';
import { currentUser } from '../../platform/auth/guards.ts';
import { parseWith } from '../../platform/http/validate.ts';
import { actorOf } from '../access/actor.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { pathParam } from '../../platform/http/path-param.ts';
import { OPTIONS_PATH } from '../options/options.paths.ts';
import { defaultWriteBody } from './defaults.schemas.ts';
import type { DefaultsService } from './defaults.service.ts';

/**
 * Default values (U15). Mounted before the option routes, so `default` is never taken for an option id.
 * The caller must be allowed to edit the context (a grant), like every user endpoint.
 */
export function createDefaultsRouter({ access, defaults }: { access: FieldAccess; defaults: DefaultsService }): Router {
  const r = Router();
  const PATH = `${OPTIONS_PATH}/default`;
  const scope = (req: Request) =>
    access.editable(currentUser(req), { rawFieldId: pathParam(req, 'customFieldId'), rawContextId: pathParam(req, 'contextId') });

  r.get(PATH, async (req, res) => {
    // A read: the decision comes from the node's scope cache (writes below ask the database).
    const { field, context } = await access.readable(currentUser(req), {
      rawFieldId: pathParam(req, 'customFieldId'),
      rawContextId: pathParam(req, 'contextId'),
    });
    res.json(await defaults.get(field, context));
  });
  r.put(PATH, async (req, res) => {
    const { field, context } = await scope(req);
    const body = parseWith(defaultWriteBody, req.body ?? {}, 'body');
    res.json(await defaults.put(actorOf(currentUser(req)), field, context, body));
  });
  r.delete(PATH, async (req, res) => {
    const { field, context } = await scope(req);
    await defaults.remove(actorOf(currentUser(req)), field, context);
    res.status(204).end();
  });
  return r;
}
