import { Router } from 'express';
import { currentUser, requireAdmin } from '../../platform/auth/guards.ts';
import { parseWith } from '../../platform/http/validate.ts';
import { onlyFrom, type ApiVersion } from '../fieldeditor.errors.ts';
import { settingsBody } from './settings.schemas.ts';
import { actorOf } from '../access/actor.ts';
import type { SettingsService } from './settings.service.ts';

/** `/admin/settings`: host-wide settings, administrators only (since 2.4.0, so not under the 1.2 base path). */
export function createSettingsRouter({ settings, version }: { settings: SettingsService; version: ApiVersion }): Router {
  const r = Router();
  r.use('/admin/settings', onlyFrom(version, '1'), requireAdmin);
  r.get('/admin/settings', async (_req, res) => {
    res.json(await settings.read());
  });
  r.put('/admin/settings', async (req, res) => {
    const patch = parseWith(settingsBody, req.body ?? {}, 'body');
    res.json(await settings.update(actorOf(currentUser(req)), patch));
  });
  return r;
}
