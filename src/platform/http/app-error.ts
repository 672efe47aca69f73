/**
 * The one error type of the application. `code` is stable and machine-readable; each router's renderer
 * turns it into the body its interface documents. `details` carries per-field problems for 400s.
 */
export interface FieldProblem {
  /** Name of the parameter or property at fault, as the client sent it. */
  name: string;
  message: string;
  value?: unknown;
  /** Name of the failed check, for interfaces that report one (the field editor's `exceptionName`). */
  exceptionName?: string;
}

export interface AppErrorOptions {
  details?: FieldProblem[];
  /** Extra response headers (e.g. `X-Seraph-LoginReason`, `WWW-Authenticate`). */
  headers?: Record<string, string | string[]>;
  /** Sub-code for interfaces that have one (the field editor's `subCode`). */
  subCode?: number;
  /** Anything a renderer of one interface needs and others ignore. */
  extra?: Record<string, unknown>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly details: FieldProblem[];
  readonly headers: Record<string, string | string[]>;
  readonly subCode: number | undefined;
  readonly extra: Record<string, unknown>;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.details = options.details ?? [];
    this.headers = options.headers ?? {};
    this.subCode = options.subCode;
    this.extra = options.extra ?? {};
  }
}

export const badRequest = (message: string, details?: FieldProblem[], code = 'BAD_REQUEST') =>
  new AppError(400, code, message, { details });
export const forbidden = (message = 'You do not have permission to do this.', code = 'FORBIDDEN') =>
  new AppError(403, code, message);
export const notFound = (message = 'Not found.', code = 'NOT_FOUND') => new AppError(404, code, message);
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, code, message);
