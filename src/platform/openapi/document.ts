import { z } from 'zod';
import { forbiddenReasons, forbiddenText, unauthenticatedReason } from './access-answers.ts';
import { VERSION_UNAVAILABLE, type Access, type ApiDescription, type JsonSchema, type OperationDoc, type ResponseDoc, type Schema } from './operation.ts';

export type OpenApiDocument = { openapi: string; paths: Record<string, Record<string, unknown>> } & Record<string, unknown>;

/** Login page of the web interface that issues the session cookie. */
export const SESSION_ENDPOINT = '/rest/auth/1/session';

const SECURITY_SCHEMES = {
  basic: { type: 'http', scheme: 'basic', description: 'Username and password. Failed logins count toward the lock of the name (MAX_AUTH_ATTEMPTS).' },
  bearer: { type: 'http', scheme: 'bearer', description: 'A personal access token (POST /rest/pat/latest/tokens). Never in the query string.' },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'The metrics token (METRICS_TOKEN), not a user: for the monitoring system only.' },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'JSESSIONID',
    description: `The web session cookie, obtained from \`POST ${SESSION_ENDPOINT}\` with a username and password; sent by the browser on same-origin requests.`,
  },
};
const AUTHENTICATED: Record<string, never[]>[] = [{ basic: [] }, { bearer: [] }, { session: [] }];

/** The credentials an operation of this access takes. */
function securityOf(access: Access): Record<string, never[]>[] {
  if (access === 'anyone') return [];
  if (access === 'session') return [{ session: [] }];
  if (access === 'metrics') return [{ metricsToken: [] }];
  return AUTHENTICATED;
}

/**
 * A zod schema as JSON Schema (draft 2020-12, which OpenAPI 3.1 uses): requests as their input side (what a
 * client sends, before transforms), responses as their output side. Definitions zod puts under `$defs`
 * (recursive types) move to `components.schemas`, where references inside an OpenAPI document can reach them.
 */
function toJsonSchema(schema: Schema, io: 'input' | 'output', defs: Record<string, unknown>): JsonSchema {
  if (!(schema instanceof z.ZodType)) return schema;
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out.$schema;
  const local = out.$defs as Record<string, unknown> | undefined;
  if (!local) return out;
  delete out.$defs;
  const renamed = new Map<string, string>();
  for (const name of Object.keys(local)) {
    let target = name;
    for (let i = 2; target in defs; i++) target = `${name}${i}`;
    renamed.set(name, target);
    defs[target] = local[name];
  }
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) =>
          k === '$ref' && typeof x === 'string' && x.startsWith('#/$defs/') ? [k, `#/components/schemas/${renamed.get(x.slice(8)) ?? x.slice(8)}`] : [k, rewrite(x)],
        ),
      );
    }
    return v;
  };
  for (const target of renamed.values()) defs[target] = rewrite(defs[target]);
  return rewrite(out) as JsonSchema;
}

/** The accesses whose operations take a Basic header, so a password check (and its 503 LOGIN_BUSY) can run. */
const TAKES_PASSWORD: ReadonlySet<Access> = new Set(['user', 'admin', 'sysadmin']);

/** A rate limit or the failed-login limit (429); a password check that would wait too long (503). */
const TOO_MANY_REQUESTS = 429;
const LOGIN_BUSY = 503;

const pathParamNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

function operationId(op: OperationDoc): string {
  const words = `${op.method} ${op.path}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1))).join('');
}

function parameters(op: OperationDoc, defs: Record<string, unknown>): unknown[] {
  const params: unknown[] = [];
  const pathSchema = op.params ? (toJsonSchema(op.params, 'input', defs).properties as Record<string, JsonSchema>) : {};
  for (const name of pathParamNames(op.path)) {
    const schema = pathSchema[name] ?? { type: 'string' };
    params.push({ name, in: 'path', required: true, schema, ...(schema.description ? { description: schema.description } : {}) });
  }
  if (op.query) {
    const q = toJsonSchema(op.query, 'input', defs);
    const required = new Set((q.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((q.properties ?? {}) as Record<string, JsonSchema>)) {
      params.push({ name, in: 'query', required: required.has(name), schema, ...(schema.description ? { description: schema.description } : {}) });
    }
  }
  return params;
}

function response(r: ResponseDoc, defs: Record<string, unknown>): unknown {
  return {
    description: r.description,
    ...(r.headers ? { headers: r.headers } : {}),
    ...(r.content
      ? { content: Object.fromEntries(Object.entries(r.content).map(([type, schema]) => [type, { schema: toJsonSchema(schema, 'output', defs) }])) }
      : {}),
  };
}

/** A request body's media types: JSON, and the same members as a form where scripts may send one (form-body.ts). */
function bodyContent(op: OperationDoc, schema: JsonSchema): Record<string, { schema: JsonSchema }> {
  return op.formBody ? { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } } : { 'application/json': { schema } };
}

/** The OpenAPI 3.1 document of one API, for a server under `contextPath` (servers are relative URLs). */
export function buildOpenApiDocument(api: ApiDescription, contextPath: string): OpenApiDocument {
  const defs: Record<string, unknown> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  for (const group of api.groups) {
    for (const op of group.operations) {
      const errors = new Set(op.errors ?? []);
      const unauthenticated = unauthenticatedReason(op);
      const forbidden = forbiddenReasons(op, group);
      if (unauthenticated) errors.add(401);
      if (forbidden.length > 0) errors.add(403);
      else errors.delete(403);
      if (op.versions) errors.add(VERSION_UNAVAILABLE);
      if (group.limited) errors.add(TOO_MANY_REQUESTS);
      if (group.limited && TAKES_PASSWORD.has(op.access)) errors.add(LOGIN_BUSY);
      const responses: Record<string, unknown> = {};
      for (const [status, r] of Object.entries(op.responses)) responses[status] = response(r, defs);
      for (const status of [...errors].sort()) {
        const own = op.responses[status];
        const r = own ?? group.errors[status];
        if (!r) throw new Error(`${op.method.toUpperCase()} ${op.path}: no error ${status} in the API's catalogue`);
        // The catalogue's shape and headers, with this operation's own reasons (access-answers.ts).
        const description = own ? undefined : status === 401 ? unauthenticated : status === 403 ? forbiddenText(forbidden) : undefined;
        responses[String(status)] ??= response(description ? { ...r, description } : r, defs);
      }
      const id = operationId(op);
      if (ids.has(id)) throw new Error(`${op.method.toUpperCase()} ${op.path} is declared twice`);
      ids.add(id);
      const item = (paths[op.path] ??= group.bases ? { servers: group.bases.map((base) => ({ url: `${contextPath}${base}` })) } : {});
      item[op.method] = {
        operationId: id,
        summary: op.summary,
        ...(op.description ? { description: op.description } : {}),
        tags: [op.tag],
        // Who may call it, as declared (the explorer shows it among the operation's extensions).
        'x-access': op.access,
        security: securityOf(op.access),
        parameters: parameters(op, defs),
        ...(op.body
          ? { requestBody: { required: !op.bodyOptional, content: bodyContent(op, toJsonSchema(op.body, 'input', defs)) } }
          : {}),
        responses,
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: api.title, version: api.version, description: api.description },
    servers: api.bases.map((base) => ({ url: `${contextPath}${base}` || '/' })),
    tags: api.tags,
    paths,
    components: { securitySchemes: SECURITY_SCHEMES, schemas: defs },
  };
}

/** The document as JSON text, built on first use (zod's JSON Schema output takes a few milliseconds). */
export function lazyDocument(api: () => ApiDescription, contextPath: string): () => string {
  let text: string | undefined;
  return () => (text ??= JSON.stringify(buildOpenApiDocument(api(), contextPath)));
}
