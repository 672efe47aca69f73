import { Router, type Request, type Response } from 'express';
import { currentUser } from '../../platform/auth/guards.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { parseOptionId, parseScopeIds } from '../access/ids.ts';
import type { ListPath, OptionsService } from './options.service.ts';
import { sendCachedBody } from '../../platform/http/cached-body.ts';
import { pathParam } from '../../platform/http/path-param.ts';
import { CHILDREN_PATH, OPTIONS_PATH } from './options.paths.ts';

/**
 * Options and child options (U4–U14, C1–C6): parse the path ids, call the service with the user, answer.
 * Path ids are checked first (400, before any query); the right is decided by the service (a read from the
 * node's scope cache, a write inside its transaction under the list lock), and the body after it, so a caller
 * without a grant gets 403001 before anything else is revealed. Literal segments (`sort`) are routed before
 * `/:optionId`, so they never reach it.
 */
export function createOptionsRouter({ access, options }: { access: FieldAccess; options: OptionsService }): Router {
  const r = Router();

  /** The list the path names (field, context, and the parent of a child list), ids parsed in path order. */
  const listPath = (req: Request, child: boolean): ListPath => ({
    ids: parseScopeIds(pathParam(req, 'customFieldId'), pathParam(req, 'contextId')),
    parentId: child ? parseOptionId(pathParam(req, 'optionId'), 'optionId') : null,
  });
  /** That list and the option (or child option) the path ends with. */
  const itemPath = (req: Request, child: boolean): { at: ListPath; id: number } => {
    const at = listPath(req, child);
    const name = child ? 'childOptionId' : 'optionId';
    return { at, id: parseOptionId(pathParam(req, name), name) };
  };

  for (const child of [false, true]) {
    const base = child ? CHILDREN_PATH : OPTIONS_PATH;
    const item = child ? `${CHILDREN_PATH}/:childOptionId` : `${OPTIONS_PATH}/:optionId`;

    // A cached list with its ETag (304 on a match) and compressed forms (see cached-body.ts). The decision
    // comes from the node's scope cache.
    r.get(base, async (req, res) => {
      const user = currentUser(req);
      const { ids, parentId } = listPath(req, child);
      const { field, context } = await access.readable(user, ids);
      sendCachedBody(req, res, await options.listJson({ field, context, parentId }), 'application/json; charset=utf-8');
    });
    r.post(base, async (req, res) => {
      const user = currentUser(req);
      res.json(await options.create(user, listPath(req, child), req.body ?? {}));
    });
    // Sort: PUT as the original's clients send it, POST as the interface lists it.
    const sort = async (req: Request, res: Response) => {
      const user = currentUser(req);
      res.json(await options.sort(user, listPath(req, child), req.body ?? {}));
    };
    r.put(`${base}/sort`, sort);
    r.post(`${base}/sort`, sort);
    r.put(item, async (req, res) => {
      const user = currentUser(req);
      const { at, id } = itemPath(req, child);
      res.json(await options.update(user, at, id, req.body ?? {}));
    });
    r.delete(item, async (req, res) => {
      const user = currentUser(req);
      const { at, id } = itemPath(req, child);
      res.json(await options.remove(user, at, id));
    });
    r.post(`${item}/move`, async (req, res) => {
      const user = currentUser(req);
      const { at, id } = itemPath(req, child);
      res.json(await options.move(user, at, id, req.body ?? {}));
    });
  }
  return r;
}
