// M4 under each base path: the field editor's OpenAPI document, for administrators only (since 2.10.2; 401
// without a user, 403 in the field editor's error shape for others). The earlier URL answers 302 to it, also
// for administrators only, so it reveals nothing either.
import type { Endpoint } from '../../platform/http/endpoint.ts';
import { json } from '../../platform/openapi/operation.ts';
import { API_SPECIFICATION_PATH, EARLIER_SPECIFICATION_PATH } from './description.paths.ts';

export interface DescriptionDeps {
  /** The document's JSON text (built on first use). */
  document: () => string;
  /** The base path this router serves, context path included. */
  basePath: string;
}

const TAG = 'Description';

export const descriptionEndpoints: Endpoint<DescriptionDeps>[] = [
  {
    method: 'get', path: API_SPECIFICATION_PATH, tag: TAG, access: 'admin', summary: 'M4: this description (OpenAPI 3.1)',
    responses: { 200: json({ type: 'object', description: 'An OpenAPI 3.1 document' }, 'The document') },
    handle: (_req, res, { document }) => {
      res.type('application/json; charset=utf-8').send(document());
    },
  },
  {
    method: 'get', path: EARLIER_SPECIFICATION_PATH, tag: TAG, access: 'admin', summary: "The description's earlier URL: 302 to M4",
    responses: { 302: { description: 'Moved to M4', headers: { Location: { description: 'The path of M4 under the same base path', schema: { type: 'string' } } } } },
    handle: (_req, res, { basePath }) => {
      // No body, as the description says (Express's redirect would add a text one).
      res.status(302).location(`${basePath}${API_SPECIFICATION_PATH}`).end();
    },
  },
];
