import { Router, type Request, type Response } from 'express';
import type { AppServices } from '../../services.ts';
import { currentUser, requireAdmin } from '../../platform/auth/guards.ts';
import { parseWith } from '../../platform/http/validate.ts';
import { parseContextId, parseFieldId } from '../access/edit-rule.ts';
import { resolveOptionsScope } from '../access/scope.ts';
import { onlyFrom, type ApiVersion } from '../fieldeditor.errors.ts';
import {
  createOptionBody,
  defaultWriteBody,
  moveBody,
  pathId,
  settingsBody,
  sortBody,
  updateOptionBody,
} from './options.schemas.ts';
import type { Actor, OptionScope } from './options.service.ts';
import type { CachedList } from './options.cache.ts';
import { readSettings, writeSettings } from '../settings/settings.repository.ts';

const OPTIONS = '/user/customfields/:customFieldId/contexts/:contextId/options';
const CHILDREN = `${OPTIONS}/:optionId/childoptions`;

const param = (req: Request, name: string): string => {
  const v = (req.params as Record<string, string | undefined>)[name];
  return v ?? '';
};

const actorOf = (req: Request): Actor => {
  const u = currentUser(req);
  return { name: u.name, isAdmin: u.isAdmin || u.isSystemAdmin };
};

/**
 * Options, child options, sort and default values (U4–U15, C1–C6) and the host-wide settings
 * (`/admin/settings`). HTTP shapes only: parse, resolve the permission, call the service, answer.
 * Literal segments (`default`, `sort`) are routed before `/:optionId`, so they never reach it.
 */
export function createOptionsRouter(ctx: AppServices, version: ApiVersion): Router {
  const r = Router();
  const { knex } = ctx.db;
  const { options, optionDefaults: defaults } = ctx.fieldeditorOptions;

  /**
   * Path ids are checked first (400), then the grant (403001 for anyone without one, before anything else
   * is revealed); `id` is the option (or child option) the path ends with, when it names one.
   */
  async function resolve(req: Request, child: boolean, item: boolean): Promise<{ scope: OptionScope; id: number }> {
    const user = currentUser(req);
    parseFieldId(param(req, 'customFieldId'));
    if (param(req, 'contextId') !== 'default') parseContextId(param(req, 'contextId'));
    const parentId = child ? parseWith(pathId, param(req, 'optionId'), 'optionId') : null;
    const itemName = child ? 'childOptionId' : 'optionId';
    const id = item ? parseWith(pathId, param(req, itemName), itemName) : 0;
    const { field, context, listVersion } = await resolveOptionsScope(knex, ctx.db.kind, user, param(req, 'customFieldId'), param(req, 'contextId'), parentId ?? 0);
    return { scope: { field, context, parentId, listVersion }, id };
  }
  const scopeOf = async (req: Request, child: boolean) => (await resolve(req, child, false)).scope;

  /** A cached list: gzip when the client accepts it (big lists shrink about tenfold), plain JSON otherwise. */
  const sendList = async (req: Request, res: Response, list: CachedList) => {
    res.type('application/json').vary('Accept-Encoding');
    if (list.body.length >= 1024 && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      res.set('Content-Encoding', 'gzip').send(await list.gzipped());
      return;
    }
    res.send(list.body);
  };

  // Default values (U15): before the /:optionId routes, so `default` is never taken for an option id.
  r.get(`${OPTIONS}/default`, async (req, res) => {
    const { field, context } = await scopeOf(req, false);
    res.json(await defaults.get(field, context));
  });
  r.put(`${OPTIONS}/default`, async (req, res) => {
    const { field, context } = await scopeOf(req, false);
    const body = parseWith(defaultWriteBody, req.body ?? {}, 'body');
    res.json(await defaults.put(actorOf(req), field, context, body));
  });
  r.delete(`${OPTIONS}/default`, async (req, res) => {
    const { field, context } = await scopeOf(req, false);
    await defaults.remove(actorOf(req), field, context);
    res.status(204).end();
  });

  for (const child of [false, true]) {
    const base = child ? CHILDREN : OPTIONS;
    const item = child ? `${CHILDREN}/:childOptionId` : `${OPTIONS}/:optionId`;

    r.get(base, async (req, res) => {
      await sendList(req, res, await options.listJson(await scopeOf(req, child)));
    });
    r.post(base, async (req, res) => {
      const scope = await scopeOf(req, child);
      const body = parseWith(createOptionBody, req.body ?? {}, 'body');
      res.json(await options.create(actorOf(req), scope, { value: body.optionvalue, disabled: body.disabled ?? false }));
    });
    // Sort: PUT as the original's clients send it, POST as the interface lists it.
    const sort = async (req: Request, res: Response) => {
      const scope = await scopeOf(req, child);
      const spec = parseWith(sortBody, req.body ?? {}, 'body');
      res.json(await options.sort(actorOf(req), scope, spec));
    };
    r.put(`${base}/sort`, sort);
    r.post(`${base}/sort`, sort);
    r.put(item, async (req, res) => {
      const { scope, id } = await resolve(req, child, true);
      const body = parseWith(updateOptionBody, req.body ?? {}, 'body');
      const patch = { value: body.optionvalue ?? undefined, disabled: body.disabled ?? undefined };
      res.json(await options.update(actorOf(req), scope, id, patch));
    });
    r.delete(item, async (req, res) => {
      const { scope, id } = await resolve(req, child, true);
      res.json(await options.remove(actorOf(req), scope, id));
    });
    r.post(`${item}/move`, async (req, res) => {
      const { scope, id } = await resolve(req, child, true);
      const move = parseWith(moveBody, req.body ?? {}, 'body');
      res.json(await options.move(actorOf(req), scope, id, move));
    });
  }

  // Host-wide settings (since 2.4.0, so not under the 1.2 base path).
  const settings = Router();
  settings.use(onlyFrom(version, '1'), requireAdmin);
  settings.get('/', async (_req, res) => {
    res.json(await readSettings(knex));
  });
  settings.put('/', async (req, res) => {
    const patch = parseWith(settingsBody, req.body ?? {}, 'body');
    const actor = currentUser(req).name;
    await knex.transaction((trx) => writeSettings(trx, patch, actor));
    res.json(await readSettings(knex));
  });
  r.use('/admin/settings', settings);
  return r;
}
