// OpenAPI declarations of the settings routes; see docs/openapi.md.
import { z } from 'zod';
import { json, type OperationDoc } from '../../platform/openapi/operation.ts';
import { settingsBody } from './settings.schemas.ts';

const TAG = 'Admin: settings';
const settings = z.object({ onlyAdminsMayDeleteOptions: z.boolean() }).meta({ title: 'Settings' });

export const settingsOperations: OperationDoc[] = [
  { method: 'get', path: '/admin/settings', tag: TAG, access: 'admin', summary: 'Host-wide settings of the field editor', responses: { 200: json(settings, 'The settings') }, errors: [412] },
  {
    method: 'put', path: '/admin/settings', tag: TAG, access: 'admin', summary: 'Change settings (members left out stay)', body: settingsBody, bodyOptional: true,
    responses: { 200: json(settings, 'The settings') }, errors: [400, 412],
  },
];
