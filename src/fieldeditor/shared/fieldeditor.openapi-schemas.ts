// Parts of the field editor's API description that every resource's declarations share: the error
// catalogue (statusCode/subCode/message), path parameters and the records several endpoints answer.
import { z } from 'zod';
import { json, LOGIN_BUSY_HEADERS, LOGIN_BUSY_TEXT, TOO_MANY_REQUESTS_HEADERS, TOO_MANY_REQUESTS_TEXT, type ErrorCatalogue } from '../../platform/openapi/operation.ts';

export const fieldeditorError = z
  .object({
    statusCode: z.number().int(),
    subCode: z.number().int().describe('400000 validation, 401000, 403000 admin only, 403001 no grant, 403002 unknown field, 403003 delete admins only, 403004 XSRF check failed, 404000, 404001 context not of the field, 409000, 412000 not under this base path, 412001 a sync whose If-Match no longer names the option tree, 413000, 415000, 428000 a sync applied without If-Match'),
    message: z.string(),
    errors: z
      .array(z.object({ name: z.string(), message: z.string(), exceptionName: z.string().optional(), value: z.unknown().optional() }))
      .optional()
      .describe('On every 400: the offending parameters or properties'),
  })
  .meta({ title: 'FieldEditorError' });

const err = (description: string) => json(fieldeditorError, description);

/** The 429 and 503 of the request pipeline's limits, in the field editor's shape (also under the 1.1 base paths). */
export const LIMIT_ERRORS: ErrorCatalogue = {
  429: { ...err(`${TOO_MANY_REQUESTS_TEXT} (429000)`), headers: TOO_MANY_REQUESTS_HEADERS },
  503: { ...err(`${LOGIN_BUSY_TEXT} (503001)`), headers: LOGIN_BUSY_HEADERS },
};
export const FIELDEDITOR_ERRORS: ErrorCatalogue = {
  400: err('Validation errors (subCode 400000); `errors` names each offending parameter or property'),
  401: err('No or wrong credentials (401000)'),
  403: err('Not an administrator (403000), no grant on the field (403001), the field does not exist (403002), deletes are for administrators only (403003), or XSRF check failed: a cookie-only or form-type body without X-Atlassian-Token: no-check (403004)'),
  404: err('Unknown option (404000) or the context is not one of the field (404001)'),
  409: err('A concurrent write hit a uniqueness rule (409000)'),
  412: err('Not available under the 1.2 base path (412000)'),
  413: err('Body larger than 1 MB (413000)'),
  415: err('Unsupported body encoding, or a body that is not application/json (415000)'),
  ...LIMIT_ERRORS,
};

export const fieldParams = z.object({
  customFieldId: z.string().describe('`10000` or `customfield_10000`'),
});
export const contextParams = fieldParams.extend({
  contextId: z.string().describe('A context id of the field, or `default`'),
});
export const optionParams = contextParams.extend({ optionId: z.string().describe('An option id (digits)') });
export const childParams = optionParams.extend({ childOptionId: z.string().describe('A child option id (digits)') });

export const fieldRecord = z
  .object({ fieldId: z.number().int(), fieldName: z.string(), fieldDescription: z.string(), fieldType: z.string() })
  .meta({ title: 'FieldRecord' });
export const permissionLists = z.object({ userlist: z.array(z.string()), grouplist: z.array(z.string()) });
export const fullnames = z.array(z.object({ username: z.string(), fullname: z.string(), exists: z.boolean(), avatar: z.string() }));
export const contextRecord = z
  .object({
    contextId: z.number().int(),
    contextName: z.string(),
    contextDescription: z.string(),
    isGlobal: z.boolean(),
    isAllIssueTypes: z.boolean(),
    isAllProjects: z.boolean(),
    projects: z.array(z.object({ projectId: z.number().int(), projectKey: z.string(), projectName: z.string(), projectDescription: z.string() })).optional(),
    issueTypes: z
      .array(z.object({ issueTypeId: z.string(), issueTypeName: z.string(), issueTypeDescription: z.string(), issueTypeIsSubTask: z.boolean() }))
      .optional(),
  })
  .meta({ title: 'ContextRecord' });
export const option = z
  .object({ optionvalue: z.string(), id: z.number().int(), sequence: z.number().int().describe('0-based rank in its list'), disabled: z.boolean() })
  .meta({ title: 'Option' });
/** Default value read model; `{}` when the context has no default. */
export const defaultReadModel = z
  .union([
    z.object({ defaultOption: option.nullable(), defaultChildOption: option.nullable(), defaultOptions: z.array(option).nullable() }),
    z.object({}).strict(),
  ])
  .meta({ title: 'DefaultValue' });
