// Parts of the code-block API's description that its endpoints share: the error answers of each format as
// every generation (CODEBLOCKS_COMPAT 5, 4, 3.4) writes them, the list bodies, the servlet parameters.
import { z } from 'zod';
import { LOGIN_BUSY_HEADERS, LOGIN_BUSY_TEXT, TOO_MANY_REQUESTS_HEADERS, TOO_MANY_REQUESTS_TEXT, type JsonSchema, type ResponseDoc } from '../platform/openapi/operation.ts';
import { MESSAGES } from './generation.ts';

export const TAG = 'Code-block downloads';
export const SERVLETS = 'Servlet paths of the oldest generation';

const string = (description: string): JsonSchema => ({ type: 'string', description });
const xmlElement = (name: string, properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  xml: { name },
  properties,
  required,
});

/** The app's own error body (all generations): `error`, `message`, and `extraMessage` from generation 4 on. */
const appErrorProperties = {
  error: string(
    '`401_UNAUTHORIZED`, `403_FORBIDDEN`, `429_TOO_MANY_REQUESTS`, `503_SERVICE_UNAVAILABLE`, `500_ERROR_<KIND>_EXCEPTION` or `500_ERROR` ' +
      '(generation 3.4: `401 UNAUTHORIZED`, `403 FORBIDDEN`, `429 TOO MANY REQUESTS`, `503 SERVICE UNAVAILABLE`, `500 ERROR`)',
  ),
  message: string(`\`${MESSAGES.unauthorized}\`, \`no read permission on page with id <id>\` or \`${MESSAGES.error}\``),
  extraMessage: string('What was wrong (500 in generations 5 and 4; `Internal server error` for unexpected errors)'),
};
const xmlAppError = xmlElement('advancedCodeblockMacro', appErrorProperties, ['error', 'message']);
const xmlHostStatus = xmlElement('status', { 'status-code': { type: 'integer', const: 401 }, message: string(MESSAGES.hostUnauthorized) }, ['status-code', 'message']);
const jsonAppError: JsonSchema = { type: 'object', title: 'CodeblocksError', properties: appErrorProperties, required: ['error', 'message'] };
const jsonHostStatus: JsonSchema = {
  type: 'object',
  title: 'HostStatus',
  properties: { message: string(MESSAGES.hostUnauthorized), 'status-code': { type: 'integer', const: 401 } },
  required: ['message', 'status-code'],
};
export const text = (description: string): JsonSchema => ({ type: 'string', description });

export type Format = 'text' | 'xml' | 'json';
export const MEDIA: Record<Format, string> = { text: 'text/plain', xml: 'application/xml', json: 'application/json' };

/** The error answers of one endpoint format, as each generation writes them. */
export function errors(format: Format): Record<number, ResponseDoc> {
  const body = (app: JsonSchema, host?: JsonSchema): ResponseDoc['content'] => {
    if (format === 'text') return { [MEDIA.text]: text('The message; on 500 in generations 5 and 4 a second line `<error key>: <extraMessage>`') };
    return { [MEDIA[format]]: host ? { oneOf: [host, app] } : app };
  };
  return {
    401: {
      description:
        'Not logged in: no, wrong or locked credentials. Generation 5 answers the host\'s `status` body (`Client must be authenticated …`), ' +
        'generations 4 and 3.4 the app\'s own body with `no logged in user found`',
      content: body(format === 'xml' ? xmlAppError : jsonAppError, format === 'xml' ? xmlHostStatus : jsonHostStatus),
      headers: { 'X-Seraph-LoginReason': { description: 'Kept from the host for refused credentials', schema: { type: 'string' } } },
    },
    403: { description: 'The user may not view the content (`no read permission on page with id <id>`)', content: body(format === 'xml' ? xmlAppError : jsonAppError) },
    429: { description: `${TOO_MANY_REQUESTS_TEXT}; the message says when to come back`, content: body(format === 'xml' ? xmlAppError : jsonAppError), headers: TOO_MANY_REQUESTS_HEADERS },
    500: {
      description: 'Bad parameters, unknown or trashed content, unknown macro or section, unusable macro body, remote template failures, anything unexpected',
      content: body(format === 'xml' ? xmlAppError : jsonAppError),
    },
    503: { description: `${LOGIN_BUSY_TEXT}; the message says when to come back`, content: body(format === 'xml' ? xmlAppError : jsonAppError), headers: LOGIN_BUSY_HEADERS },
  };
}

const block = { type: 'object', properties: { key: string('Base64 of the section name; `cmF3` is the raw template'), name: string('Section name'), download: string('Absolute download link') }, required: ['key', 'name', 'download'] };
const contentRecord = {
  type: 'object',
  properties: {
    contentId: { type: 'integer' },
    contentTitle: { type: 'string' },
    contentType: { type: 'string', enum: ['page', 'blogpost', 'comment'] },
    spaceKey: { type: 'string' },
    macroId: { type: 'string' },
  },
  required: ['contentId', 'contentTitle', 'contentType', 'spaceKey', 'macroId'],
};
const pageRecord = {
  type: 'object',
  properties: { pageId: { type: 'integer' }, pageName: { type: 'string' }, spaceKey: { type: 'string' }, macroId: { type: 'string' } },
  required: ['pageId', 'pageName', 'spaceKey', 'macroId'],
};
export const jsonList: JsonSchema = {
  title: 'DownloadList',
  description: 'Generations 5 and 4: `content`; generation 3.4: `page`',
  oneOf: [
    { type: 'object', properties: { content: contentRecord, codeBlocks: { type: 'array', items: block } }, required: ['content', 'codeBlocks'] },
    { type: 'object', properties: { page: pageRecord, codeBlocks: { type: 'array', items: block } }, required: ['page', 'codeBlocks'] },
  ],
};
export const xmlList: JsonSchema = xmlElement(
  'advancedCodeblockMacro',
  {
    content: { ...contentRecord, description: 'Generations 5 and 4 (`<page>` with pageId, pageName, spaceKey, macroId in 3.4)' },
    codeBlocks: { type: 'array', xml: { name: 'codeBlocks', wrapped: true }, items: { ...block, xml: { name: 'codeBlock' } } },
  },
  ['codeBlocks'],
);

export const downloadDescription =
  'Parameters: `key` (Base64 of the UTF-8 section name, padding optional, URL-safe alphabet accepted), `macroId`, `contentId` ' +
  '(or its alias `pageId`, in every generation; both given and different is an error), `asciiOnly=true`. A repeated parameter is an error; ' +
  'unknown ones are ignored. Authentication first, then the parameters, then the view permission, then macro and section.';

export const servletQuery = z.object({
  pagepropertykey: z.string().optional().describe('Renamed to `key`'),
  macroid: z.string().optional().describe('Renamed to `macroId`'),
  pageid: z.string().optional().describe('Renamed to `contentId` (`pageId` in generation 3.4)'),
  asciionly: z.string().optional().describe('Renamed to `asciiOnly`'),
  os_authType: z.string().optional().describe('Dropped (Basic is always accepted)'),
});
export const redirect = (target: string): ResponseDoc => ({
  description: `Moved to ${target}; every other parameter passes unchanged with its exact encoding`,
  headers: { Location: { description: `Absolute URL of ${target} with the renamed parameters`, schema: { type: 'string' } } },
});
