// The host's operational endpoints, for anyone: the health check for load balancers and the API descriptions
// of the host and the code-block downloads, each declared once (docs/openapi.md).
import { z } from 'zod';
import type { Endpoint } from '../platform/http/endpoint.ts';
import { answerStatus } from '../platform/http/status-check.ts';
import { json, OPERATIONS_TAG } from '../platform/openapi/operation.ts';
import { DOCUMENT_PATHS } from './apidocs.paths.ts';

export interface StatusDeps {
  /** A trivial database query. */
  ping: () => Promise<unknown>;
}

export interface DocumentsDeps {
  /** Each document's JSON text (built on first use). */
  documents: Record<keyof typeof DOCUMENT_PATHS, () => string>;
}

export const statusEndpoints: Endpoint<StatusDeps>[] = [
  {
    method: 'get', path: '/status', tag: OPERATIONS_TAG, access: 'anyone', summary: 'Health check for load balancers',
    responses: {
      200: json(z.object({ state: z.literal('RUNNING') }), 'Running, the database answers'),
      503: json(z.object({ state: z.literal('ERROR') }), 'The database does not answer within 2 s'),
    },
    handle: (req, res, { ping }) => answerStatus(req, res, ping),
  },
];

const document = (name: keyof typeof DOCUMENT_PATHS, summary: string): Endpoint<DocumentsDeps> => ({
  method: 'get', path: DOCUMENT_PATHS[name], tag: OPERATIONS_TAG, access: 'anyone', summary,
  responses: { 200: json({ type: 'object', description: 'An OpenAPI 3.1 document' }, 'The document') },
  handle: (_req, res, { documents }) => {
    res.type('application/json; charset=utf-8').send(documents[name]());
  },
});

export const documentEndpoints: Endpoint<DocumentsDeps>[] = [
  document('host', 'This description (OpenAPI 3.1)'),
  document('codeblocks', 'The description of the code-block downloads (OpenAPI 3.1)'),
];
