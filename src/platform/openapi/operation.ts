// What a feature declares about its routes (one small object per operation, in a `*.openapi.ts` file next to
// the `*.routes.ts` it describes), and what an API document is assembled from. See docs/openapi.md.
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

/** Who may call an operation; `user` and `admin` add the API's 401 (and 403) answers and the security schemes. */
export type Access = 'anyone' | 'user' | 'admin';

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
  /** Path parameters, when they are more than plain strings (every `{name}` of the path is documented anyway). */
  params?: z.ZodObject;
  /** The zod schema the route validates its query string with. */
  query?: z.ZodObject;
  /** The zod schema the route validates its JSON body with. */
  body?: z.ZodType;
  /** Set when a request without a body is accepted. */
  bodyOptional?: boolean;
  /** Success answers (and errors specific to this operation). */
  responses: Record<number, ResponseDoc>;
  /** Error statuses taken from the API's error catalogue (401 and 403 follow from `access`). */
  errors?: number[];
}

/** The error answers of one API, in its own error shape, by status. */
export type ErrorCatalogue = Record<number, ResponseDoc>;

/** Operations that share an error catalogue (one API mount). */
export interface OperationGroup {
  errors: ErrorCatalogue;
  operations: OperationDoc[];
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
