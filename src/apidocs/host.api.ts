// The host's API description: directory, tokens, wiki, tracker, the status check and these descriptions.
import { OPERATIONS_TAG, type ApiDescription } from '../platform/openapi/operation.ts';
import { HOST_JSON_ERRORS } from '../platform/http/renderers.openapi.ts';
import { directoryEndpoints } from '../directory/directory.endpoints.ts';
import { tokenEndpoints } from '../directory/tokens.endpoints.ts';
import { trackerEndpoints } from '../tracker/tracker.endpoints.ts';
import { WIKI_ERRORS } from '../wiki/wiki.openapi-schemas.ts';
import { wikiEndpoints } from '../wiki/wiki.feature.ts';
import { sessionEndpoints } from '../web/sessions/session.endpoints.ts';
import { documentEndpoints, statusEndpoints } from './operations.endpoints.ts';
import { withLatestAliases } from './latest-alias.ts';
import { webhookEndpoints } from '../webhooks/webhooks.endpoints.ts';
import { metricsEndpoints } from '../platform/metrics/metrics.endpoints.ts';
import { MIGRATION_TAG, migrationEndpoints } from '../migration/migration.endpoints.ts';

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
    { name: 'Webhooks', description: 'Subscriptions to field-editor changes, under /rest/webhooks/1.0 (administrators; docs/webhooks.md)' },
    { name: MIGRATION_TAG, description: 'Bringing a wiki space export across, under /rest/addon-pair/1 (system administrators; docs/migration.md)' },
    { name: 'Sessions', description: 'Sign-in sessions of the web interface (the JSESSIONID cookie), under /rest/auth/1' },
    { name: OPERATIONS_TAG, description: 'Health check and API descriptions (no user needed), and the metrics (the metrics token)' },
  ],
  groups: [
    // API mounts, behind the request pipeline's limits; the status, the documents and /metrics are open routes.
    {
      errors: HOST_JSON_ERRORS,
      limited: true,
      operations: [...withLatestAliases([...directoryEndpoints, ...trackerEndpoints]), ...tokenEndpoints, ...sessionEndpoints, ...webhookEndpoints, ...migrationEndpoints],
    },
    { errors: WIKI_ERRORS, limited: true, operations: wikiEndpoints, denied: 'without the space permission or the content restriction the operation needs' },
    { errors: {}, operations: [...statusEndpoints, ...documentEndpoints, ...metricsEndpoints] },
  ],
};
