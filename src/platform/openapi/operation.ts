// What an endpoint declares about itself for its API document (the documented half of an `Endpoint`,
// src/platform/http/endpoint.ts, which adds the handler), and what an API document is assembled from.
// See docs/openapi.md.
import type { z } from 'zod';

/** A JSON Schema written by hand, for what zod cannot say (XML element names, plain text). */
export type JsonSchema = { [key: string]: unknown };

/** A body of one media type: a zod schema (turned into JSON Schema) or a hand-written JSON Schema. */
export type Schema = z.ZodType | JsonSchema;

export interface ResponseDoc {
  description: string;
  /** Media type → schema; none for an empty body. */
  content?: Record<string, Schema>;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

/**
 * Who may call an operation: anyone (no credentials needed), any signed-in user, a user signed in with the
 * web session cookie (not Basic or Bearer), administrators (members of the administrators or the system
 * administrators group), or system administrators only; or, not a user at all, the monitoring system with the
 * metrics token (METRICS_TOKEN as a bearer token). Everything but `anyone` adds the API's 401 answer and the
 * security schemes; `admin` and `sysadmin` add its 403.
 */
export type Access = 'anyone' | 'user' | 'session' | 'admin' | 'sysadmin' | 'metrics';

/**
 * The versions of its base paths an operation exists under (the field editor's `1` and `1.2`). Under any other
 * version of the same API its route answers the API's "not under this version" error (412), which the
 * document then lists. That check runs after the access guard, or before it with `beforeAccess`.
 */
export interface VersionRule {
  under: readonly string[];
  beforeAccess?: boolean;
}

/** The explorer's group of the host's operational endpoints (status, API documents, metrics). */
export const OPERATIONS_TAG = 'Operations';

/** The status of the "not under this version" answer (the field editor's 412000). */
export const VERSION_UNAVAILABLE = 412;

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

export interface OperationDoc {
  method: HttpMethod;
  /** Path template under the API's base (`/user/{username}`), as the route is registered. */
  path: string;
  summary: string;
  description?: string;
  /** Group in the explorer. */
  tag: string;
  access: Access;
  /** Set when the operation does not exist under every version of its API's base paths. */
  versions?: VersionRule;
  /** Path parameters, when they are more than plain strings (every `{name}` of the path is documented anyway). */
  params?: z.ZodObject;
  /** The zod schema the route validates its query string with. */
  query?: z.ZodObject;
  /** The zod schema the route validates its JSON body with. */
  body?: z.ZodType;
  /** Set when a request without a body is accepted. */
  bodyOptional?: boolean;
  /**
   * Set when a script (Basic or Bearer, no cookie) may send the body's simple members as
   * `application/x-www-form-urlencoded` too (platform/http/form-body.ts): the original's clients do.
   */
  formBody?: boolean;
  /** Success answers (and errors specific to this operation). */
  responses: Record<number, ResponseDoc>;
  /** Error statuses taken from the API's error catalogue (401 and 403 follow from `access`, 412 from `versions`). */
  errors?: number[];
  /**
   * Why a caller with the declared access still gets a 403 that `errors` lists (a wrong current password, no grant
   * on the field), when it is not its group's `denied`: the document describes each operation's 403 with its own
   * reasons (access-answers.ts).
   */
  denied?: string;
}

/** The error answers of one API, in its own error shape, by status. */
export type ErrorCatalogue = Record<number, ResponseDoc>;

/** Operations that share an error catalogue (one API mount). */
export interface OperationGroup {
  errors: ErrorCatalogue;
  operations: OperationDoc[];
  /**
   * Set for operations served by an API mount (platform/http/mount-api.ts), whose request pipeline runs the rate
   * limits and authentication's login limits: every operation then lists the 429 (`RATE_LIMITED`, or
   * `TOO_MANY_FAILED_LOGINS`), and every one that takes a password (Basic: access `user`, `admin`, `sysadmin`) the
   * 503 `LOGIN_BUSY`, from its own responses or the catalogue.
   */
  limited?: boolean;
  /** Why an operation of this group that lists a 403 refuses a caller who has its access (see OperationDoc.denied). */
  denied?: string;
  /**
   * Paths (under the context path) these operations are served under instead of the API's `bases`: a
   * compatibility base path that answers other routes (the field editor's `1.1`). They become the path items'
   * own `servers`.
   */
  bases?: string[];
}

export interface ApiDescription {
  title: string;
  version: string;
  description: string;
  /** Paths (under the context path) the operations' paths are relative to; each becomes a server. */
  bases: string[];
  groups: OperationGroup[];
  tags: { name: string; description: string }[];
}

/** A JSON answer: `json(schema, '…')`. */
export const json = (schema: Schema, description: string): ResponseDoc => ({ description, content: { 'application/json': schema } });

/** An answer without a body. */
export const empty = (description: string): ResponseDoc => ({ description });

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds until a request will pass', schema: { type: 'integer' } } };

/** The headers of a 429 (docs/configuration.md, "Limits"): when to come back, and the bucket that refused. */
export const TOO_MANY_REQUESTS_HEADERS: NonNullable<ResponseDoc['headers']> = {
  ...RETRY_AFTER,
  'X-RateLimit-Limit': { description: "The refusing bucket's size (a rate limit's burst; absent for the failed-login limit)", schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left now (0)', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the bucket is full again, in Unix seconds', schema: { type: 'integer' } },
};

/** The headers of a 503 `LOGIN_BUSY`. */
export const LOGIN_BUSY_HEADERS: NonNullable<ResponseDoc['headers']> = RETRY_AFTER;

/** What a 429 means, for every API's catalogue. */
export const TOO_MANY_REQUESTS_TEXT =
  'A rate limit was reached (`RATE_LIMITED`: the credential\'s or the address\'s bucket for this family), or a login came from an address with too many failed logins (`TOO_MANY_FAILED_LOGINS`, `LOGIN_FAILURES_PER_ADDRESS`)';

/** What a 503 means where a password is checked. */
export const LOGIN_BUSY_TEXT = 'A login whose password check would wait more than a second (`LOGIN_BUSY`)';
