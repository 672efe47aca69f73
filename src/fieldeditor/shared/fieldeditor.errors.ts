import type { ErrorRenderer } from '../../platform/http/error-handler.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { LOGIN_BUSY } from '../../platform/http/platform.errors.ts';
import type { VersionRule } from '../../platform/openapi/operation.ts';

/**
 * The error registry of the field-editor API (its codes, sub-codes and messages; the options room's own refusals
 * are in options/options.errors.ts, built on this file's SUB and validationError; codes any API can raise are in
 * platform/http/platform.errors.ts), and its error format: `{statusCode, subCode, message}`, plus `errors[]` on every 400
 * (clients print that list as a table, so it is always present on a 400, possibly empty).
 * The subCodes are ours (the original's list is not public); they are documented in docs/fieldeditor-api.md.
 */
export const SUB = {
  VALIDATION: 400000,
  NOT_AUTHENTICATED: 401000,
  ADMIN_REQUIRED: 403000,
  NO_GRANT: 403001,
  FIELD_NOT_FOUND: 403002,
  DELETE_ADMINS_ONLY: 403003,
  NOT_FOUND: 404000,
  CONTEXT_NOT_FOUND: 404001,
  CONFLICT: 409000,
  VERSION: 412000,
  TOO_LARGE: 413000,
  UNSUPPORTED_MEDIA: 415000,
  /** A rate limit, or too many failed logins from the address (429, with Retry-After). */
  TOO_MANY_REQUESTS: 429000,
  INTERNAL: 500000,
  /** The password checks are too busy for this login (503 `LOGIN_BUSY`, with Retry-After); 503000 is the health check's. */
  LOGIN_BUSY: 503001,
} as const;

export const NO_GRANT_MESSAGE = 'FieldPermission Denied - you do not have sufficient rights for this operation.';

export const fieldPermissionDenied = () => new AppError(403, 'NO_GRANT', NO_GRANT_MESSAGE, { subCode: SUB.NO_GRANT });

export const fieldNotFound = () =>
  new AppError(403, 'FIELD_NOT_FOUND', 'The custom field does not exist or you do not have sufficient rights for this operation.', {
    subCode: SUB.FIELD_NOT_FOUND,
  });

/** THE delete rule's refusal (settings/settings.service.ts): options, child options and defaults answer it alike. */
export const deleteAdminsOnly = () =>
  new AppError(403, 'DELETE_ADMINS_ONLY', 'Only administrators may delete options (host setting).', {
    subCode: SUB.DELETE_ADMINS_ONLY,
  });

/** 404 for a context id (as the client sent it) that is not one of the field's contexts. */
export const contextNotFound = (raw: string) =>
  new AppError(404, 'CONTEXT_NOT_FOUND', `The context ${raw} does not exist for this custom field.`, { subCode: SUB.CONTEXT_NOT_FOUND });

/** A 400 in the field editor's shape, naming one or more offending properties. */
export const validationError = (details: { name: string; message: string; value?: unknown; exceptionName?: string }[]) =>
  new AppError(400, 'VALIDATION', 'validation errors', { subCode: SUB.VALIDATION, details });

/** The sub-code of an error that names none, by its status. */
const SUB_OF_STATUS: Readonly<Record<number, number>> = {
  400: SUB.VALIDATION,
  401: SUB.NOT_AUTHENTICATED,
  403: SUB.ADMIN_REQUIRED,
  404: SUB.NOT_FOUND,
  409: SUB.CONFLICT,
  412: SUB.VERSION,
  413: SUB.TOO_LARGE,
  415: SUB.UNSUPPORTED_MEDIA,
  429: SUB.TOO_MANY_REQUESTS,
};

function defaultSubCode(err: AppError): number {
  if (err.status === 403 && err.code === 'FORBIDDEN') return SUB.ADMIN_REQUIRED;
  if (err.code === LOGIN_BUSY) return SUB.LOGIN_BUSY;
  return SUB_OF_STATUS[err.status] ?? (err.status >= 500 ? SUB.INTERNAL : err.status * 1000);
}

export const renderFieldEditor: ErrorRenderer = (err, _req, res) => {
  // A busy login is expected and says when to come back; any other 5xx is not.
  const unexpected = err.status >= 500 && err.code !== LOGIN_BUSY;
  const body: Record<string, unknown> = {
    statusCode: err.status,
    subCode: err.subCode ?? defaultSubCode(err),
    // Never the message of an unexpected error: it may carry SQL or internals.
    message: unexpected ? 'Internal server error' : err.status === 400 && err.code === 'VALIDATION' ? 'validation errors' : err.message,
  };
  if (err.status === 400) {
    body.errors =
      err.details.length > 0
        ? err.details.map((d) => ({
            name: d.name,
            message: d.message,
            ...(d.exceptionName === undefined ? {} : { exceptionName: d.exceptionName }),
            ...(d.value === undefined ? {} : { value: d.value }),
          }))
        : [{ name: 'body', message: err.message }];
  }
  res.json(body);
};

export type ApiVersion = '1' | '1.2';

/** The 412 of an endpoint added after the `1.2` generation, under a `1.2` base path (the original's answer). */
export const notUnderThisVersion = () =>
  new AppError(412, 'VERSION', 'This endpoint is not available under the requested URL (min version: 1).', { subCode: SUB.VERSION });

/** The 412 of an endpoint of the `1.2` generation or later, under a `1.1` base path (compat-1.1/). */
export const notUnder11 = () =>
  new AppError(412, 'VERSION', 'This endpoint is not available under the requested URL (min version: 1.2).', { subCode: SUB.VERSION });

// ---- Import part of the grants (rendered by the import's own report) ----

export const importUnknownField = (where: string, field: unknown) => new AppError(400, 'FIELD_NOT_FOUND', `${where}: unknown field ${String(field)}`);

export const importUnknownContext = (where: string, context: unknown) => new AppError(400, 'CONTEXT_NOT_FOUND', `${where}: unknown context ${String(context)}`);

export const importUnknownPrincipal = (where: string, type: 'user' | 'group', name: string) =>
  new AppError(400, 'PRINCIPAL_NOT_FOUND', `${where}: unknown ${type} ${name}`);

/**
 * Endpoints added after the `1.2` generation (PATCH grants, context create/update/delete, U3, maintenance …)
 * exist under the `1` base paths only; under `1.2` they answer 412, after the access check.
 */
export const SINCE_1: VersionRule = { under: ['1'] };
