// The field editor's API description (served by M4), from the same declarations its routers are built from.
import type { ApiDescription, OperationDoc } from '../../platform/openapi/operation.ts';
import { FIELDEDITOR_ERRORS } from '../shared/fieldeditor.openapi-schemas.ts';
import { fieldeditorEndpoints } from '../fieldeditor.endpoints.ts';
import { healthEndpoints } from '../health/health.endpoints.ts';
import { COMPAT11_ERRORS, compat11Endpoints } from '../compat-1.1/compat.endpoints.ts';
import { COMPAT11_BASES } from '../compat-1.1/compat.paths.ts';

const TAG = 'Description';

/** Every operation of the `1` and `1.2` base paths (under `1.1` each of their paths answers 412). */
export const fieldeditorOperations: OperationDoc[] = [...fieldeditorEndpoints, ...healthEndpoints];

/**
 * Base paths, in the order of FIELDEDITOR_BASES (fieldeditor.paths.ts), as the document's servers; the 1.1
 * operations carry their own (the `1.1` base paths, COMPAT11_BASES).
 */
export function fieldeditorApi(bases: readonly string[]): ApiDescription {
  return {
    title: 'addon-pair field editor',
    version: '1',
    description:
      'Grants on select-type custom fields and the editing of their options, contexts and default values, wire-compatible with the ' +
      'original add-on. Every base path answers the same operations; operations added after the 1.2 generation (A4, A6-A8, U3, ' +
      'settings) answer 412 under the `1.2` base paths. Errors are `{statusCode, subCode, message}`, plus `errors[]` on a 400. ' +
      'The `1.1` base paths answer only the ten operations of API 1.1 (tag "API 1.1 (compatibility)", with servers of their own), with ' +
      "1.1's statuses: 500 for missing rights and unknown fields or options; every other path of this document answers 412 there.",
    bases: [...bases],
    tags: [
      { name: 'Admin: permissions', description: 'Grants (administrators)' },
      { name: 'Admin: fields and contexts', description: 'Field list and contexts (administrators)' },
      { name: 'Admin: settings', description: 'Host-wide settings (administrators)' },
      { name: 'User: fields and contexts', description: 'What the caller may edit (a grant)' },
      { name: 'User: options', description: 'Options and child options (a grant on the field or context)' },
      { name: 'User: default values', description: 'Default values (a grant)' },
      { name: 'Admin: maintenance', description: 'Jobs, operations and the event log (administrators)' },
      { name: 'Health', description: 'No user needed' },
      { name: TAG, description: 'This document (administrators)' },
      { name: 'API 1.1 (compatibility)', description: "The original's routes before 1.2, on the field's default context (a grant); only under the 1.1 base paths" },
    ],
    groups: [
      // The health check answers before the API's steps (no authentication, no limits); everything else after them.
      {
        errors: FIELDEDITOR_ERRORS,
        limited: true,
        operations: fieldeditorEndpoints,
        denied: 'no grant on the field or its context (403001), the field does not exist (403002), or a delete while deletes are for administrators only (403003)',
      },
      { errors: FIELDEDITOR_ERRORS, operations: healthEndpoints },
      { errors: COMPAT11_ERRORS, bases: [...COMPAT11_BASES], limited: true, operations: compat11Endpoints },
    ],
  };
}
