// Code-box failures carry a kind that the HTTP layer turns into the contract's refined
// 500 error key (`500_ERROR_<KIND>_EXCEPTION`), so callers never build those strings by hand.

export const CODEBOX_ERROR_KINDS = [
  'INVALID_MACRO_BODY',
  'EMPTY_MACRO_BODY',
  'MACRO_BODY_PROCESSING',
  'INVALID_URL_PARAMETER',
  'IO',
  'HTTP',
  'MALFORMED_URL',
  'OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED',
  'FETCH_MACRO',
  'CHUNKED_READ',
] as const;

export type CodeboxErrorKind = (typeof CODEBOX_ERROR_KINDS)[number];

const DEFAULT_MESSAGES: Record<CodeboxErrorKind, string> = {
  INVALID_MACRO_BODY: 'the macro body has no [content] line followed by a line break',
  EMPTY_MACRO_BODY: 'the macro body is empty',
  MACRO_BODY_PROCESSING: 'the macro body could not be processed',
  INVALID_URL_PARAMETER: 'invalid URL parameter',
  IO: 'reading the remote template failed',
  HTTP: 'the remote template server answered with an error status',
  MALFORMED_URL: 'the remote template URL is malformed',
  OUTBOUND_ALLOWLIST_URL_NOT_ALLOWED: 'the remote template URL is not on the outbound allowlist',
  FETCH_MACRO: 'the macro could not be loaded from the content',
  CHUNKED_READ: 'reading the chunked remote response failed',
};

export class CodeboxError extends Error {
  override readonly name = 'CodeboxError';
  constructor(
    readonly kind: CodeboxErrorKind,
    message: string = DEFAULT_MESSAGES[kind],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The refined 500 `error` value of the contentId generation, e.g. `500_ERROR_IO_EXCEPTION`. */
export function errorKeyFor(kind: CodeboxErrorKind): string {
  return `500_ERROR_${kind}_EXCEPTION`;
}
