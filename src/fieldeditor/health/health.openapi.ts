// OpenAPI declaration of the health check; see docs/openapi.md.
import { z } from 'zod';
import { json, type OperationDoc } from '../../platform/openapi/operation.ts';
import { fieldeditorError } from '../fieldeditor.openapi-schemas.ts';

export const healthOperations: OperationDoc[] = [
  {
    method: 'get', path: '/health/status', tag: 'Health', access: 'anyone', summary: 'Health check (before authentication: even a wrong credential gets it)',
    responses: {
      200: json(z.object({ status: z.literal('OK') }), 'The field editor and its database answer'),
      503: json(fieldeditorError, 'The database does not answer (subCode 503000)'),
    },
  },
];
