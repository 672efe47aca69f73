// The error registry of the code-block download API (rendered by error-render.ts). The contract answers 500 (not 400/404) for bad parameters and
// for unknown or trashed content, macros and sections; the kind carried in `extra` becomes the refined
// `500_ERROR_<KIND>_EXCEPTION` key in generations that have them, and `extraMessage` says what was wrong.
import { AppError } from '../platform/http/app-error.ts';
import { CodeboxError, type CodeboxErrorKind } from './codebox/codebox-errors.ts';
import { MESSAGES } from './generation.ts';

export const CODEBLOCKS_ERROR = 'CODEBLOCKS_ERROR';

export interface CodeblocksErrorExtra {
  kind: CodeboxErrorKind;
  extraMessage: string;
}

export function codeblocksError(kind: CodeboxErrorKind, extraMessage: string, cause?: unknown): AppError {
  const extra: CodeblocksErrorExtra = { kind, extraMessage };
  return new AppError(500, CODEBLOCKS_ERROR, MESSAGES.error, { extra: { ...extra }, cause });
}

export const invalidParameter = (extraMessage: string) => codeblocksError('INVALID_URL_PARAMETER', extraMessage);

/** Unknown or trashed content and unknown macros: the macro cannot be fetched from the content. */
export const fetchMacroFailed = (extraMessage: string) => codeblocksError('FETCH_MACRO', extraMessage);

export const noReadPermission = (contentId: number) => new AppError(403, 'FORBIDDEN', MESSAGES.forbidden(contentId));

export function fromCodeboxError(err: CodeboxError): AppError {
  return codeblocksError(err.kind, err.message, err);
}

/** The kind and extra message of one of our errors, or undefined for anything else (then: plain `500_ERROR`). */
export function codeblocksErrorExtra(err: AppError): CodeblocksErrorExtra | undefined {
  if (err.code !== CODEBLOCKS_ERROR) return undefined;
  const { kind, extraMessage } = err.extra as Partial<CodeblocksErrorExtra>;
  return kind !== undefined && extraMessage !== undefined ? { kind, extraMessage } : undefined;
}
