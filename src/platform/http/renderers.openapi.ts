// The error answers of the Jira-style host APIs (/rest/api/2, /rest/pat), as renderHostJson writes them.
import { z } from 'zod';
import { json, LOGIN_BUSY_HEADERS, LOGIN_BUSY_TEXT, TOO_MANY_REQUESTS_HEADERS, TOO_MANY_REQUESTS_TEXT, type ErrorCatalogue } from '../openapi/operation.ts';

export const hostJsonError = z
  .object({
    errorMessages: z.array(z.string()).describe('One message, or empty when `errors` names the fields'),
    errors: z.record(z.string(), z.string()).describe('Property or parameter name → what is wrong with it'),
  })
  .meta({ title: 'HostError' });

export const HOST_JSON_ERRORS: ErrorCatalogue = {
  400: json(hostJsonError, 'Invalid input; `errors` names the properties or parameters'),
  401: {
    ...json(hostJsonError, 'No credentials, wrong credentials, or a locked name'),
    headers: {
      'X-Seraph-LoginReason': { description: '`AUTHENTICATED_FAILED` for wrong credentials, `AUTHENTICATION_DENIED` for a locked name', schema: { type: 'string' } },
      'WWW-Authenticate': { description: 'The accepted schemes (Basic, Bearer)', schema: { type: 'string' } },
    },
  },
  403: json(hostJsonError, 'Authenticated, but without the right (administrators only)'),
  404: json(hostJsonError, 'Not found'),
  413: json(hostJsonError, 'Body larger than 1 MiB'),
  429: { ...json(hostJsonError, TOO_MANY_REQUESTS_TEXT), headers: TOO_MANY_REQUESTS_HEADERS },
  503: { ...json(hostJsonError, LOGIN_BUSY_TEXT), headers: LOGIN_BUSY_HEADERS },
};
