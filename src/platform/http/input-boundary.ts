import { isUtf8 } from 'node:buffer';
import type { Request, RequestHandler } from 'express';
import { AppError, type FieldProblem } from './app-error.ts';
import { firstUnstorable, unstorableMessage } from './storable-text.ts';

/**
 * The one input boundary of every API mount (mount-api.ts): whatever reaches a router has a path that
 * decodes, query values and body members that can be stored, and a body that was what its headers said.
 * Failures are AppErrors with code INVALID_INPUT (400) in the mount's own error shape, raised before any
 * route runs, so no query is ever sent with such a value.
 */
export const INVALID_INPUT = 'INVALID_INPUT';

const invalidInput = (problems: FieldProblem[]) =>
  new AppError(400, INVALID_INPUT, problems.map((p) => `${p.name}: ${p.message}`).join('; '), { details: problems });

/** Deepest nesting of a JSON body walked (express.json accepts any depth; a deeper body is refused). */
const MAX_DEPTH = 64;

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
 * Path segments and query values. Without a `%` in the URL nothing can be wrong (Node refuses raw control
 * characters in the request line), so the hot path of downloads and cached reads pays one `indexOf`.
 */
function checkUrl(req: Request, problems: FieldProblem[]): void {
  const url = req.url;
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
  const query = req.query as Record<string, unknown>;
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

/** Runs before the JSON body parser: path and query. */
export const checkRequestUrl: RequestHandler = (req, _res, next) => {
  const problems: FieldProblem[] = [];
  checkUrl(req, problems);
  next(problems.length > 0 ? invalidInput(problems) : undefined);
};

/** Runs after the JSON body parser: every string of the body. */
export const checkRequestBody: RequestHandler = (req, _res, next) => {
  const problems: FieldProblem[] = [];
  checkValue(req.body, '', 0, problems);
  next(problems.length > 0 ? invalidInput(problems) : undefined);
};

/** A body whose bytes are not UTF-8: thrown by express.json's `verify`, mapped to a 400 by normalizeError. */
export class BodyCharsetError extends Error {
  readonly code = 'BODY_NOT_UTF8';
  constructor() {
    super('The request body is not valid UTF-8.');
  }
}

/**
 * express.json's `verify` hook: JSON is UTF-8 (RFC 8259); undecodable bytes would otherwise become U+FFFD
 * silently. Bodies declaring another charset are decoded by body-parser (unknown charsets answer 415).
 */
export function verifyUtf8(req: Request, _res: unknown, buf: Buffer, encoding: string): void {
  if ((encoding === 'utf-8' || encoding === 'utf8') && !isUtf8(buf)) throw new BodyCharsetError();
}
