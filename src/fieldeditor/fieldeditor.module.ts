import type { Router } from 'express';
import type { AppServices } from '../services.ts';
import type { ApiVersion } from './fieldeditor.errors.ts';
import { createAdminRouter } from './fields/fields-admin.routes.ts';
import { createUserRouter } from './fields/fields-user.routes.ts';
import { createOptionsRouter } from './options/options.routes.ts';

/** Base paths the field editor answers under: its own name and the original product's, each in two versions. */
export const FIELDEDITOR_BASES: { path: string; version: ApiVersion }[] = [
  { path: '/rest/trackercustomfieldeditorplugin/1', version: '1' },
  { path: '/rest/trackercustomfieldeditorplugin/1.2', version: '1.2' },
  { path: '/rest/jiracustomfieldeditorplugin/1', version: '1' },
  { path: '/rest/jiracustomfieldeditorplugin/1.2', version: '1.2' },
];

/** Every router of the field editor for one base path. */
export function createFieldeditorRouters(ctx: AppServices, version: ApiVersion): Router[] {
  return [createAdminRouter(ctx, ctx.fieldeditorGrants, version), createUserRouter(ctx, version), createOptionsRouter(ctx, version)];
}
