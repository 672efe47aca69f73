// The code-block API's description: E1-E3 and the servlet redirects, from their declarations, all three
// generations' bodies in one document.
import type { ApiDescription } from '../platform/openapi/operation.ts';
import type { Generation } from './generation.ts';
import { SERVLETS, TAG } from './codeblocks.openapi-schemas.ts';
import { codeblocksEndpoints } from './codeblocks.endpoints.ts';
import { servletEndpoints } from './servlet-redirect.endpoints.ts';
import { contentListEndpoints } from './content-list.endpoints.ts';

export function codeblocksApi(generation: Generation): ApiDescription {
  return {
    title: 'addon-pair code-block downloads',
    version: `1 (generation ${generation.id})`,
    description:
      'Downloads of code blocks from wiki code boxes, wire-compatible with the original add-on. The bodies of all three generations ' +
      `(CODEBLOCKS_COMPAT 5, 4 and 3.4) are described; this server answers as generation ${generation.id}.`,
    bases: [''],
    tags: [
      { name: TAG, description: 'E1-E3 under /rest/advancedcodeblocks/1, and the list of content that holds code boxes (this server\'s own)' },
      { name: SERVLETS, description: 'Redirects of the oldest generation, kept for old scripts' },
    ],
    // Each operation declares its errors in its own format (codeblocks.openapi-schemas.ts); the servlet redirects
    // are open routes, outside the API mount and its limits.
    groups: [
      { errors: {}, limited: true, operations: [...codeblocksEndpoints, ...contentListEndpoints] },
      { errors: {}, operations: servletEndpoints },
    ],
  };
}
