// The API 1.1 mount (compat.endpoints.ts under its base paths), part of the field editor's HTTP surface.
import { buildRouter } from '../../platform/http/endpoint.ts';
import { formRules } from '../../platform/http/form-body.ts';
import type { ApiMount } from '../../platform/http/mount-api.ts';
import { fieldeditorOperations } from '../description/fieldeditor.api.ts';
import type { FieldAccess } from '../access/access.service.ts';
import type { OptionsService } from '../options/options.service.ts';
import { compat11Endpoints } from './compat.endpoints.ts';
import { laterRoutes412, renderFieldEditor11 } from './compat.errors.ts';
import { COMPAT11_BASES } from './compat.paths.ts';

/**
 * The ten 1.1 operations under both 1.1 base paths (errors with 1.1's statuses), then 412 for any path of the
 * later generations' operations, then the field editor's 404.
 */
export function compat11Mount(deps: { access: FieldAccess; options: OptionsService }): ApiMount {
  const [path, ...aliases] = COMPAT11_BASES;
  return {
    path,
    aliases,
    render: renderFieldEditor11,
    forms: formRules(compat11Endpoints),
    routers: [buildRouter(compat11Endpoints, deps), laterRoutes412(fieldeditorOperations.map((op) => op.path))],
  };
}
