// The host's API description: directory, tokens, wiki, tracker, the status check and these descriptions.
import { z } from 'zod';
import { json, type ApiDescription, type OperationDoc } from '../platform/openapi/operation.ts';
import { HOST_JSON_ERRORS } from '../platform/http/renderers.openapi.ts';
import { directoryEndpoints } from '../directory/directory.endpoints.ts';
import { tokenEndpoints } from '../directory/tokens.endpoints.ts';
import { trackerEndpoints } from '../tracker/tracker.endpoints.ts';
import { WIKI_ERRORS } from '../wiki/wiki.openapi-schemas.ts';
import { wikiEndpoints } from '../wiki/wiki.module.ts';
import { sessionEndpoints } from '../web/sessions/session.endpoints.ts';
import { DOCUMENT_PATHS } from './apidocs.paths.ts';
import { withLatestAliases } from './latest-alias.ts';

const OPERATIONS = 'Operations';

const platformOperations: OperationDoc[] = [
  {
    method: 'get', path: '/status', tag: OPERATIONS, access: 'anyone', summary: 'Health check for load balancers',
    responses: {
      200: json(z.object({ state: z.literal('RUNNING') }), 'Running, the database answers'),
      503: json(z.object({ state: z.literal('ERROR') }), 'The database does not answer within 2 s'),
    },
  },
  {
    method: 'get', path: DOCUMENT_PATHS.host, tag: OPERATIONS, access: 'anyone', summary: 'This description (OpenAPI 3.1)',
    responses: { 200: json({ type: 'object', description: 'An OpenAPI 3.1 document' }, 'The document') },
  },
  {
    method: 'get', path: DOCUMENT_PATHS.codeblocks, tag: OPERATIONS, access: 'anyone', summary: 'The description of the code-block downloads (OpenAPI 3.1)',
    responses: { 200: json({ type: 'object', description: 'An OpenAPI 3.1 document' }, 'The document') },
  },
];

export const hostApi: ApiDescription = {
  title: 'addon-pair host REST',
  version: '2',
  description:
    'The host data addon-pair keeps (users, groups, tokens, wiki spaces and content, tracker projects, issue types and fields), with ' +
    'Jira-style (`/rest/api/2`, `/rest/pat`) and Confluence-style (`/rest/api`) bodies. The field editor and the code-block downloads ' +
    'have descriptions of their own (see the explorer at /docs/).',
  bases: [''],
  tags: [
    { name: 'Users and groups', description: 'Directory under /rest/api/2 (and its alias /rest/api/latest)' },
    { name: 'Personal access tokens', description: 'Each user manages its own, under /rest/pat/latest' },
    { name: 'Wiki: spaces', description: 'Confluence-style, under /rest/api' },
    { name: 'Wiki: content and restrictions', description: 'Confluence-style, under /rest/api' },
    { name: 'Tracker: projects, issue types, fields', description: 'Jira-style, under /rest/api/2 (and its alias /rest/api/latest)' },
    { name: 'Sessions', description: 'Sign-in sessions of the web interface (the JSESSIONID cookie), under /rest/auth/1' },
    { name: OPERATIONS, description: 'Health check and API descriptions (no user needed)' },
  ],
  groups: [
    { errors: HOST_JSON_ERRORS, operations: [...withLatestAliases([...directoryEndpoints, ...trackerEndpoints]), ...tokenEndpoints, ...sessionEndpoints] },
    { errors: WIKI_ERRORS, operations: wikiEndpoints },
    { errors: {}, operations: platformOperations },
  ],
};
