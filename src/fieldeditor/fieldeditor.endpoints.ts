// Every endpoint of the field editor behind authentication, from each resource's declarations, and the
// prefixes closed as a whole to callers below their endpoints' access (an unknown path or method there meets
// the guard before the 404: 401 for anonymous callers, 403 for users under /admin/customfields). The health
// check runs before authentication and is declared apart (health/health.endpoints.ts).
import type { Endpoint } from '../platform/http/endpoint.ts';
import { grantsEndpoints, type GrantsDeps } from './grants/grants.endpoints.ts';
import { fieldsEndpoints, type FieldsDeps } from './fields/fields.endpoints.ts';
import { settingsEndpoints, type SettingsDeps } from './settings/settings.endpoints.ts';
import { optionsEndpoints, type OptionsDeps } from './options/options.endpoints.ts';
import { optionsBulkEndpoints, type OptionsBulkDeps } from './options/options-bulk.endpoints.ts';
import { defaultsEndpoints, type DefaultsDeps } from './options/defaults.endpoints.ts';
import { maintenanceEndpoints, type MaintenanceDeps } from './maintenance/maintenance.endpoints.ts';
import { descriptionEndpoints, type DescriptionDeps } from './description/description.endpoints.ts';

/** What the field editor's handlers are given: its services, and the description of the base path. */
export type FieldeditorEndpointDeps = GrantsDeps & FieldsDeps & SettingsDeps & OptionsDeps & OptionsBulkDeps & DefaultsDeps & MaintenanceDeps & DescriptionDeps;

/** In the order of the description. */
export const fieldeditorEndpoints: Endpoint<FieldeditorEndpointDeps>[] = [
  ...grantsEndpoints,
  ...fieldsEndpoints,
  ...settingsEndpoints,
  ...optionsEndpoints,
  ...optionsBulkEndpoints,
  ...defaultsEndpoints,
  ...maintenanceEndpoints,
  ...descriptionEndpoints,
];

export const FIELDEDITOR_CLOSED_PREFIXES = ['/admin/customfields', '/admin/settings', '/user', '/maintenance'];
