import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import express from 'express';
import type { FieldProblem } from './app-error.ts';
import { invalidInput } from './platform.errors.ts';
import type { RequestStep, StepNext } from './pipeline.ts';
import { bodyTypeRefusal } from './body-type.ts';
import { isUpload } from './upload.ts';
import { firstUnstorable, unstorableMessage } from './storable-text.ts';
import { verifyUtf8 } from './body-charset.ts';
import { readForm, scriptFormRule } from './form-body.ts';

/**
 * The one input boundary of every API mount (a step of the request pipeline, pipeline.ts): whatever reaches a router has a path that
 * decodes, query values and body members that can be stored, and a body that was what its headers said.
 * Failures are AppErrors with code INVALID_INPUT (400) in the mount's own error shape, raised before any
 * route runs, so no query is ever sent with such a value.
 */

/** Deepest nesting of a JSON body walked (express.json accepts any depth; a deeper body is refused). */
export const MAX_DEPTH = 64;

/**
 * Longest query string (characters after `?`, as sent): common proxies refuse request lines much longer than
 * 8 KiB, and no endpoint needs one; a longer query is refused (400) before anything parses it.
 */
export const MAX_QUERY_LENGTH = 8 * 1024;

/** Checks every string of a parsed JSON body, object keys included; collects at most a few problems. */
function checkValue(value: unknown, name: string, depth: number, problems: FieldProblem[]): void {
  if (problems.length >= 5) return;
  if (typeof value === 'string') {
    const bad = firstUnstorable(value);
    if (bad !== undefined) problems.push({ name: name || 'body', message: unstorableMessage(bad) });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth > MAX_DEPTH) {
    problems.push({ name: name || 'body', message: `is nested more than ${MAX_DEPTH} levels deep.` });
    return;
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, v] of entries) {
    const member = name ? `${name}.${key}` : key;
    const badKey = firstUnstorable(key);
    if (badKey !== undefined) {
      problems.push({ name: name || 'body', message: `has a member name that ${unstorableMessage(badKey)}` });
      continue;
    }
    checkValue(v, member, depth + 1, problems);
  }
}

/**
 * The query's length, then path segments and query values. Without a `%` in the URL nothing can be wrong (Node
 * refuses raw control characters in the request line), so the hot path of downloads and cached reads pays a
 * length comparison and one `indexOf`.
 */
function checkUrl(url: string, problems: FieldProblem[]): void {
  if (url.length > MAX_QUERY_LENGTH) {
    const start = url.indexOf('?');
    if (start >= 0 && url.length - start - 1 > MAX_QUERY_LENGTH) {
      problems.push({ name: 'query', message: `is longer than ${MAX_QUERY_LENGTH} characters.` });
      return;
    }
  }
  if (url.indexOf('%') < 0) return;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  for (const segment of path.split('/')) {
    if (segment.indexOf('%') < 0) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      problems.push({ name: 'path', message: `the path segment "${segment.slice(0, 100)}" is not valid percent-encoding.` });
      continue;
    }
    const bad = firstUnstorable(decoded);
    if (bad !== undefined) problems.push({ name: 'path', message: `the path segment "${segment.slice(0, 100)}" ${unstorableMessage(bad)}` });
  }
  if (q < 0) return;
  // The query as Express's 'simple' parser reads it (node:querystring; a fragment is not part of it).
  const hash = url.indexOf('#', q);
  const query = parseQueryString(url.slice(q + 1, hash < 0 ? undefined : hash));
  for (const [key, value] of Object.entries(query)) {
    const badKey = firstUnstorable(key);
    if (badKey !== undefined) {
      problems.push({ name: 'query', message: `a parameter name ${unstorableMessage(badKey)}` });
      continue;
    }
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v !== 'string') continue;
      const bad = firstUnstorable(v);
      if (bad !== undefined) {
        problems.push({ name: key, message: unstorableMessage(bad) });
        break;
      }
    }
  }
}

const isBodyless = (method: string | undefined) => method === 'GET' || method === 'HEAD';

/** Body parsers by size limit (one per API mount's limit, made once). */
const jsonParsers = new Map<number, ReturnType<typeof express.json>>();
function jsonParser(limit: number) {
  let parser = jsonParsers.get(limit);
  if (!parser) jsonParsers.set(limit, (parser = express.json({ limit, strict: false, verify: verifyUtf8 })));
  return parser;
}

/**
 * The pipeline step: the path and query first; then, for a request that may carry a body, a script's form on an
 * operation that takes one (form-body.ts), or else its media type (body-type.ts), the JSON body (express.json, up to the API's limit) and every string in it. GET and HEAD
 * carry no body worth reading: the parser is skipped on the busiest requests.
 */
export const inputBoundaryStep: RequestStep = {
  name: 'input-boundary',
  run(req, res, next, api) {
    const problems: FieldProblem[] = [];
    checkUrl(req.url ?? '', problems);
    if (problems.length > 0) return next(invalidInput(problems));
    if (isBodyless(req.method) || !api) return next();
    // A file its route reads itself, under its own limit (upload.ts).
    if (isUpload(req, api.uploads)) return next();
    // A form from a script, on an operation that takes one (form-body.ts): read into its JSON body's members.
    const form = scriptFormRule(req, api.forms);
    if (form) {
      return readForm(req, res, api.bodyLimit, form, (err?: unknown) => {
        if (err) return next(err);
        checkValue((req as { body?: unknown }).body, '', 0, problems);
        next(problems.length > 0 ? invalidInput(problems) : undefined);
      });
    }
    const typeErr = api.refuseNonJsonBodies ? bodyTypeRefusal(req.method ?? '', req.headers) : undefined;
    if (typeErr) return next(typeErr);
    // express.json only reads the request stream and headers, so it runs on a plain Node request too.
    const parse = jsonParser(api.bodyLimit) as unknown as (q: IncomingMessage, s: ServerResponse, n: StepNext) => void;
    parse(req, res, (err?: unknown) => {
      if (err) return next(err);
      checkValue((req as { body?: unknown }).body, '', 0, problems);
      next(problems.length > 0 ? invalidInput(problems) : undefined);
    });
  },
};
