// Wiring of API 1.1 (compat.endpoints.ts) under its base paths, so that app.ts gains one line.
import type { IRouter } from 'express';
import { buildRouter } from '../../platform/http/endpoint.ts';
import { mountApi } from '../../platform/http/mount-api.ts';
import type { RequestPipeline } from '../../platform/http/pipeline.ts';
import { fieldeditorOperations } from '../description/fieldeditor.api.ts';
import type { Fieldeditor } from '../fieldeditor.module.ts';
import { compat11Endpoints } from './compat.endpoints.ts';
import { laterRoutes412, renderFieldEditor11 } from './compat.errors.ts';
import { COMPAT11_BASES } from './compat.paths.ts';

/**
 * Mounts the ten 1.1 operations under both 1.1 base paths (errors with 1.1's statuses), then 412 for any path
 * of the later generations' operations, then the field editor's 404.
 */
export function mountFieldeditorCompat(root: IRouter, pipeline: RequestPipeline, fe: Fieldeditor): void {
  const [path, ...aliases] = COMPAT11_BASES;
  mountApi(root, pipeline, {
    path,
    aliases,
    render: renderFieldEditor11,
    routers: [buildRouter(compat11Endpoints, { access: fe.access, options: fe.options }), laterRoutes412(fieldeditorOperations.map((op) => op.path))],
  });
}
