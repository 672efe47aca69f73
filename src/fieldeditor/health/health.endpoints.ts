// `GET {api_base}/health/status` without authentication (clients call it before anything else and stop
// unless it answers 200). Its router runs before authentication, so even a wrong credential gets the answer.
import { z } from 'zod';
import type { Endpoint } from '../../platform/http/endpoint.ts';
import { json } from '../../platform/openapi/operation.ts';
import { fieldeditorError } from '../shared/fieldeditor.openapi-schemas.ts';

export interface HealthDeps {
  ping: () => Promise<void>;
}

export const healthEndpoints: Endpoint<HealthDeps>[] = [
  {
    method: 'get', path: '/health/status', tag: 'Health', access: 'anyone', summary: 'Health check (before authentication: even a wrong credential gets it)',
    responses: {
      200: json(z.object({ status: z.literal('OK') }), 'The field editor and its database answer'),
      503: json(fieldeditorError, 'The database does not answer (subCode 503000)'),
    },
    handle: async (_req, res, { ping }) => {
      try {
        await ping();
        res.json({ status: 'OK' });
      } catch {
        res.status(503).json({ statusCode: 503, subCode: 503000, message: 'The field editor cannot reach its database.' });
      }
    },
  },
];
