import { Router, type Request } from 'express';
import { currentUser } from '../../platform/auth/guards.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { parseScopeIds, type ScopeIds } from '../access/ids.ts';
import { pathParam } from '../../platform/http/path-param.ts';
import { OPTIONS_PATH } from '../options/options.paths.ts';
import type { DefaultsService } from './defaults.service.ts';

/**
 * Default values (U15). Mounted before the option routes, so `default` is never taken for an option id.
 * The caller must be allowed to edit the context (a grant), like every user endpoint: a read asks the node's
 * scope cache, a write decides inside its transaction (DefaultsService), and the body comes after the right.
 */
export function createDefaultsRouter({ access, defaults }: { access: FieldAccess; defaults: DefaultsService }): Router {
  const r = Router();
  const PATH = `${OPTIONS_PATH}/default`;
  const idsOf = (req: Request): ScopeIds => parseScopeIds(pathParam(req, 'customFieldId'), pathParam(req, 'contextId'));

  r.get(PATH, async (req, res) => {
    const user = currentUser(req);
    const { field, context } = await access.readable(user, idsOf(req));
    res.json(await defaults.get(field, context));
  });
  r.put(PATH, async (req, res) => {
    const user = currentUser(req);
    res.json(await defaults.put(user, idsOf(req), req.body ?? {}));
  });
  r.delete(PATH, async (req, res) => {
    const user = currentUser(req);
    await defaults.remove(user, idsOf(req));
    res.status(204).end();
  });
  return r;
}
