// `/admin/settings`: host-wide settings, administrators only, declared once (docs/openapi.md). Added in
// 2.4.0, so not under the 1.2 base paths, where even an anonymous caller gets the 412 first.
import { z } from 'zod';
import { currentUser } from '../../platform/auth/guards.ts';
import { parseWith } from '../../platform/http/validate.ts';
import type { Endpoint } from '../../platform/http/endpoint.ts';
import { json, type VersionRule } from '../../platform/openapi/operation.ts';
import { settingsBody } from './settings.schemas.ts';
import { actorOf } from '../access/actor.ts';
import type { SettingsService } from './settings.service.ts';

export interface SettingsDeps {
  settings: SettingsService;
}

const TAG = 'Admin: settings';
const PATH = '/admin/settings';
const settingsRecord = z.object({ onlyAdminsMayDeleteOptions: z.boolean() }).meta({ title: 'Settings' });
const UNDER_1_FIRST: VersionRule = { under: ['1'], beforeAccess: true };

export const settingsEndpoints: Endpoint<SettingsDeps>[] = [
  {
    method: 'get', path: PATH, tag: TAG, access: 'admin', versions: UNDER_1_FIRST, summary: 'Host-wide settings of the field editor',
    responses: { 200: json(settingsRecord, 'The settings') },
    handle: async (_req, res, { settings }) => {
      res.json(await settings.read());
    },
  },
  {
    method: 'put', path: PATH, tag: TAG, access: 'admin', versions: UNDER_1_FIRST, summary: 'Change settings (members left out stay)', body: settingsBody,
    bodyOptional: true, responses: { 200: json(settingsRecord, 'The settings') }, errors: [400],
    handle: async (req, res, { settings }) => {
      const patch = parseWith(settingsBody, req.body ?? {}, 'body');
      res.json(await settings.update(actorOf(currentUser(req)), patch));
    },
  },
];
