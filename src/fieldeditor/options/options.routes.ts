import { Router, type Request, type Response } from 'express';
import { currentUser } from '../../platform/auth/guards.ts';
import { parseWith } from '../../platform/http/validate.ts';
import { actorOf } from '../access/actor.ts';
import type { FieldAccess } from '../access/access.service.ts';
import { parseOptionId, parseScopeIds } from '../access/ids.ts';
import { createOptionBody, moveBody, sortBody, updateOptionBody } from './options.schemas.ts';
import type { OptionScope, OptionsService } from './options.service.ts';
import { sendCachedBody } from '../../platform/http/cached-body.ts';
import { pathParam } from '../../platform/http/path-param.ts';
import { CHILDREN_PATH, OPTIONS_PATH } from './options.paths.ts';

/**
 * Options and child options (U4–U14, C1–C6): parse, resolve the scope the user may edit, call the
 * service, answer. Literal segments (`sort`) are routed before `/:optionId`, so they never reach it.
 */
export function createOptionsRouter({ access, options }: { access: FieldAccess; options: OptionsService }): Router {
  const r = Router();

  /**
   * Path ids are checked first (400), then the grant (403001 for anyone without one, before anything else
   * is revealed); `id` is the option (or child option) the path ends with, when it names one.
   */
  async function resolve(req: Request, child: boolean, item: boolean, read = false): Promise<{ scope: OptionScope; id: number }> {
    const user = currentUser(req);
    const ids = parseScopeIds(pathParam(req, 'customFieldId'), pathParam(req, 'contextId'));
    const parentId = child ? parseOptionId(pathParam(req, 'optionId'), 'optionId') : null;
    const itemName = child ? 'childOptionId' : 'optionId';
    const id = item ? parseOptionId(pathParam(req, itemName), itemName) : 0;
    // Reads take the decision from the node's scope cache; writes decide from the database.
    const { field, context } = await (read ? access.readable(user, ids) : access.editable(user, ids));
    return { scope: { field, context, parentId }, id };
  }
  const scopeOf = async (req: Request, child: boolean) => (await resolve(req, child, false)).scope;

  for (const child of [false, true]) {
    const base = child ? CHILDREN_PATH : OPTIONS_PATH;
    const item = child ? `${CHILDREN_PATH}/:childOptionId` : `${OPTIONS_PATH}/:optionId`;

    // A cached list with its ETag (304 on a match) and compressed forms (see cached-body.ts).
    r.get(base, async (req, res) => {
      sendCachedBody(req, res, await options.listJson((await resolve(req, child, false, true)).scope), 'application/json; charset=utf-8');
    });
    r.post(base, async (req, res) => {
      const scope = await scopeOf(req, child);
      const body = parseWith(createOptionBody, req.body ?? {}, 'body');
      res.json(await options.create(actorOf(currentUser(req)), scope, { value: body.optionvalue, disabled: body.disabled ?? false }));
    });
    // Sort: PUT as the original's clients send it, POST as the interface lists it.
    const sort = async (req: Request, res: Response) => {
      const scope = await scopeOf(req, child);
      const spec = parseWith(sortBody, req.body ?? {}, 'body');
      res.json(await options.sort(actorOf(currentUser(req)), scope, spec));
    };
    r.put(`${base}/sort`, sort);
    r.post(`${base}/sort`, sort);
    r.put(item, async (req, res) => {
      const { scope, id } = await resolve(req, child, true);
      const body = parseWith(updateOptionBody, req.body ?? {}, 'body');
      const patch = { value: body.optionvalue ?? undefined, disabled: body.disabled ?? undefined };
      res.json(await options.update(actorOf(currentUser(req)), scope, id, patch));
    });
    r.delete(item, async (req, res) => {
      const { scope, id } = await resolve(req, child, true);
      res.json(await options.remove(actorOf(currentUser(req)), scope, id));
    });
    r.post(`${item}/move`, async (req, res) => {
      const { scope, id } = await resolve(req, child, true);
      const move = parseWith(moveBody, req.body ?? {}, 'body');
      res.json(await options.move(actorOf(currentUser(req)), scope, id, move));
    });
  }
  return r;
}
