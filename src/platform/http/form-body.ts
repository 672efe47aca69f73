import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { z } from 'zod';
import type { FieldProblem } from './app-error.ts';
import type { OperationDoc } from '../openapi/operation.ts';
import { invalidInput } from './platform.errors.ts';
import { verifyUtf8 } from './body-charset.ts';

/*
 * Form bodies from scripts (issue 43). Scripts written for the original field editor post the option writes'
 * simple fields as `application/x-www-form-urlencoded` (Python's `requests.post(data=…)`). The XSRF rule
 * (body-type.ts) exists for browsers; a script that sends Basic or Bearer credentials and no cookie is not a
 * browser session. So on an operation that declares `formBody`, such a request's form is read into the members
 * its JSON body schema declares, each as the JSON value that schema takes, and the route sees what a JSON client
 * would have sent. Anything that looks like a browser keeps the XSRF rule: a Cookie header (a session may ride on
 * it), or the headers every current browser adds to a cross-site form post (`Origin`, `Sec-Fetch-Site`); so do a
 * session credential, multipart and text/plain.
 */

export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** An operation that takes a form body: its method and path (as a pattern) and the JSON body schema it is read into. */
export interface FormRule {
  readonly method: string;
  /** Matched against the request's path (without the query), anchored at the end: the mount's base comes before it. */
  readonly path: RegExp;
  /** The declared members and their schemas. */
  readonly members: Readonly<Record<string, z.ZodType>>;
}

/** The object schema under a body schema (through optional, nullable and pipes such as a `.transform`). */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  if (schema instanceof z.ZodPipe) return objectShape(schema.in as z.ZodType);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return objectShape(schema.unwrap() as z.ZodType);
  return undefined;
}

const escapeForPattern = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The form rules of the endpoints that declare `formBody`. Throws (at start-up) for a declaration whose body is
 * not an object of simple members: a form has no other shape.
 */
export function formRules(endpoints: readonly OperationDoc[]): FormRule[] {
  return endpoints
    .filter((e) => e.formBody)
    .map((e) => {
      const members = e.body && objectShape(e.body);
      if (!members) throw new Error(`${e.method.toUpperCase()} ${e.path} declares formBody without an object body`);
      const source = e.path
        .split(/\{[^}]+\}/)
        .map(escapeForPattern)
        .join('[^/]+');
      return { method: e.method.toUpperCase(), path: new RegExp(`${source}/?$`, 'i'), members };
    });
}

const mediaType = (raw: string | undefined) => (raw === undefined ? '' : raw.split(';')[0]!.trim().toLowerCase());

/** The rule a request's form body is read by, or undefined when the request keeps the XSRF rule. */
export function scriptFormRule(req: IncomingMessage, rules: readonly FormRule[] | undefined): FormRule | undefined {
  if (!rules || mediaType(req.headers['content-type']) !== FORM_TYPE) return undefined;
  const via = req.user?.via;
  if (via !== 'basic' && via !== 'bearer') return undefined;
  const h = req.headers;
  if (h.cookie !== undefined || h.origin !== undefined || h['sec-fetch-site'] !== undefined) return undefined;
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return rules.find((r) => r.method === req.method && r.path.test(path));
}

const BOOLEAN_TEXT = /^(true|false)$/i;
const NUMBER_TEXT = /^-?\d{1,15}(\.\d{1,15})?$/;

/**
 * One form value as the JSON value its member's schema takes: the text itself where the schema takes text (so
 * an option named "007" or "True" keeps its name), otherwise `true`/`false` (any case) as a boolean and a
 * decimal as a number when the schema takes that; otherwise the text, for the schema to refuse by name.
 */
export function formValue(schema: z.ZodType, text: string): unknown {
  if (schema.safeParse(text).success) return text;
  if (BOOLEAN_TEXT.test(text)) {
    const b = text.toLowerCase() === 'true';
    if (schema.safeParse(b).success) return b;
  }
  if (NUMBER_TEXT.test(text)) {
    const n = Number(text);
    if (schema.safeParse(n).success) return n;
  }
  return text;
}

/** A parsed form as the JSON body of `rule`: declared members only, each given once. */
export function formToBody(rule: FormRule, form: Record<string, unknown>): { body: Record<string, unknown>; problems: FieldProblem[] } {
  const body: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  for (const [name, schema] of Object.entries(rule.members)) {
    if (!Object.hasOwn(form, name)) continue;
    const raw = form[name];
    if (typeof raw !== 'string') problems.push({ name, message: 'is given more than once.' });
    else body[name] = formValue(schema, raw);
  }
  return { body, problems };
}

/** Most members a form may have: the option writes declare two or three. */
const MAX_FORM_PARAMETERS = 32;

/** What the pipeline's steps call to go on (pipeline.ts's StepNext; not imported: the pipeline imports FormRule). */
type Next = (err?: unknown) => void;

const formParsers = new Map<number, ReturnType<typeof express.urlencoded>>();
function formParser(limit: number) {
  let parser = formParsers.get(limit);
  if (!parser) formParsers.set(limit, (parser = express.urlencoded({ extended: false, limit, parameterLimit: MAX_FORM_PARAMETERS, verify: verifyUtf8 })));
  return parser;
}

/** Reads the form (at most `limit` bytes, UTF-8) into `req.body` as `rule`'s JSON body; `next` gets the error, if any. */
export function readForm(req: IncomingMessage, res: ServerResponse, limit: number, rule: FormRule, next: Next): void {
  const parse = formParser(limit) as unknown as (q: IncomingMessage, s: ServerResponse, n: Next) => void;
  parse(req, res, (err?: unknown) => {
    if (err) return next(err);
    const holder = req as { body?: unknown };
    const { body, problems } = formToBody(rule, (holder.body ?? {}) as Record<string, unknown>);
    holder.body = body;
    next(problems.length > 0 ? invalidInput(problems) : undefined);
  });
}
