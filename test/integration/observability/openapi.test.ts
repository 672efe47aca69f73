import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { listRegisteredRoutes } from '../../../src/platform/http/route-walk.ts';
import { DOCUMENT_PATHS, isUndocumentedRoute, UNDOCUMENTED_ROUTES } from '../../../src/apidocs/apidocs.paths.ts';
import { FIELDEDITOR_DOCUMENT_PATH } from '../../../src/apidocs/apidocs.feature.ts';
import { FIELDEDITOR_BASES } from '../../../src/fieldeditor/shared/fieldeditor.paths.ts';
import { METRICS_PATH } from '../../../src/platform/metrics/metrics.routes.ts';
import type { OpenApiDocument } from '../../../src/platform/openapi/document.ts';

// Routes deliberately left out (the explorer, the web page) are listed, with their reasons, in
// UNDOCUMENTED_ROUTES (src/apidocs/apidocs.paths.ts).

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Every `METHOD /full/path` a document describes (server path + operation path; a path item's own servers win). */
function documented(doc: OpenApiDocument): Set<string> {
  const out = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const server of (item.servers ?? doc.servers) as { url: string }[]) {
      const base = server.url === '/' ? '' : server.url;
      for (const m of METHODS) if (item[m]) out.add(`${m.toUpperCase()} ${base}${path}`);
    }
  }
  return out;
}

describe('OpenAPI descriptions', () => {
  let t: TestApp;
  const documents: Record<string, OpenApiDocument> = {};
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: 'openapi-test-metrics-token' });
    for (const [name, path] of Object.entries({ ...DOCUMENT_PATHS, fieldeditor: FIELDEDITOR_DOCUMENT_PATH })) {
      const res = await t.http.get(path).set('Authorization', t.adminAuth).expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      documents[name] = res.body as OpenApiDocument;
    }
  });
  afterAll(() => t.close());

  it.each(['host', 'codeblocks', 'fieldeditor'])('%s is valid OpenAPI 3.1', async (name) => {
    const validator = new Validator();
    const result = await validator.validate(documents[name]!);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every registered route, and every described operation has a route', () => {
    const routes = new Set<string>();
    for (const r of listRegisteredRoutes(t.app)) {
      if (isUndocumentedRoute(r.path)) continue;
      for (const m of r.methods) routes.add(`${m} ${r.path}`);
    }
    const described = new Set<string>();
    for (const doc of Object.values(documents)) for (const op of documented(doc)) described.add(op);
    const undocumented = [...routes].filter((r) => !described.has(r)).sort();
    const withoutRoute = [...described].filter((d) => !routes.has(d)).sort();
    expect({ undocumented, withoutRoute }).toEqual({ undocumented: [], withoutRoute: [] });
    expect(routes.size).toBeGreaterThan(30);
  });

  it('leaves out only the routes listed with a reason; the metrics route is declared and described (issue 25)', () => {
    expect(UNDOCUMENTED_ROUTES.map((u) => u.path)).not.toContain(METRICS_PATH);
    expect(documented(documents.host!)).toContain(`GET ${METRICS_PATH}`);
    expect((documents.host!.paths[METRICS_PATH]!.get as { security: unknown[] }).security).toEqual([{ metricsToken: [] }]);
    for (const u of UNDOCUMENTED_ROUTES) expect(u.why.length).toBeGreaterThan(10);
  });

  it('gives every operation a summary, its statuses with bodies and its security', () => {
    for (const doc of Object.values(documents)) {
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const m of METHODS) {
          const op = item[m] as { summary?: string; responses: Record<string, { description: string }>; security?: unknown[] } | undefined;
          if (!op) continue;
          expect(op.summary, `${m} ${path}`).toBeTruthy();
          expect(Object.keys(op.responses).length, `${m} ${path}`).toBeGreaterThan(0);
          expect(Array.isArray(op.security), `${m} ${path}`).toBe(true);
          if ((op.security ?? []).length > 0) expect(op.responses['401'], `${m} ${path} answers 401`).toBeDefined();
        }
      }
      const schemes = (doc.components as { securitySchemes: Record<string, Record<string, string>> }).securitySchemes;
      expect(schemes.basic).toMatchObject({ type: 'http', scheme: 'basic' });
      expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(schemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'JSESSIONID' });
    }
  });

  it('declares 429 on every operation behind the limits, and 503 LOGIN_BUSY where a password is checked (issue 30)', () => {
    let limited = 0;
    for (const doc of Object.values(documents)) {
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const m of METHODS) {
          const op = item[m] as { responses: Record<string, { headers?: Record<string, unknown> }>; security?: Record<string, unknown>[] } | undefined;
          if (!op) continue;
          // Every operation that takes Basic runs in an API mount: the rate limits and the login limits cover it.
          if (!(op.security ?? []).some((s) => 'basic' in s)) continue;
          limited++;
          expect(op.responses['429']?.headers, `${m} ${path} answers 429`).toHaveProperty('Retry-After');
          expect(op.responses['429']?.headers, `${m} ${path}`).toHaveProperty('X-RateLimit-Reset');
          expect(op.responses['503']?.headers, `${m} ${path} answers 503`).toHaveProperty('Retry-After');
        }
      }
    }
    expect(limited).toBeGreaterThan(50);
    const op = (doc: string, path: string, m = 'get') => documents[doc]!.paths[path]![m] as { responses: Record<string, unknown> };
    // The sign-in (anyone) is a login; a session-only route is limited but checks no password.
    expect(Object.keys(op('host', '/rest/auth/1/session', 'post').responses)).toEqual(expect.arrayContaining(['429', '503']));
    expect(op('host', '/rest/auth/1/session', 'delete').responses).toHaveProperty('429');
    // Open routes, outside every API mount: no limits.
    expect(op('host', '/status').responses).not.toHaveProperty('429');
    expect(op('fieldeditor', '/health/status').responses).not.toHaveProperty('429');
  });

  it('describes requests with the zod schemas that validate them', () => {
    const createUser = (documents.host!.paths['/rest/api/2/user']!.post as { requestBody: { content: Record<string, { schema: { required: string[] } }> } }).requestBody;
    expect(createUser.content['application/json']!.schema.required).toEqual(['name', 'password']);
    const e1 = documents.codeblocks!.paths['/rest/advancedcodeblocks/1/download_code/plain_text']!.get as { parameters: { name: string; required: boolean }[]; responses: Record<string, { content: Record<string, unknown> }> };
    expect(e1.parameters.map((p) => [p.name, p.required])).toEqual([['macroId', true], ['contentId', false], ['pageId', false], ['key', true], ['asciiOnly', false]]);
    expect(Object.keys(e1.responses['200']!.content)).toEqual(['text/plain']);
    const e2 = documents.codeblocks!.paths['/rest/advancedcodeblocks/1/download_list/xml']!.get as { responses: Record<string, { content: Record<string, unknown> }> };
    expect(Object.keys(e2.responses['500']!.content)).toEqual(['application/xml']);
  });

  it('serves the field editor description (M4) to administrators only, under every base path, and 302 from its earlier URL', async () => {
    const user = await t.createUser('m4-user');
    const sysadmin = await t.createUser('m4-sysadmin', { sysadmin: true });
    for (const { path } of FIELDEDITOR_BASES) {
      const none = await t.http.get(`${path}/api_specification/openapi_json`).expect(401);
      expect(none.body).toMatchObject({ statusCode: 401, subCode: 401000 });
      const forbidden = await t.http.get(`${path}/api_specification/openapi_json`).set('Authorization', user.auth).expect(403);
      expect(forbidden.body).toEqual({ statusCode: 403, subCode: 403000, message: expect.any(String) });
      const ok = await t.http.get(`${path}/api_specification/openapi_json`).set('Authorization', sysadmin.auth).expect(200);
      expect(ok.body).toMatchObject({ openapi: '3.1.0', info: { title: 'addon-pair field editor' } });
      expect(ok.body.servers.map((s: { url: string }) => s.url)).toEqual(FIELDEDITOR_BASES.map((b) => b.path));
      const moved = await t.http.get(`${path}/api_specification/swagger_json`).set('Authorization', t.adminAuth).expect(302);
      expect(moved.headers.location).toBe(`${path}/api_specification/openapi_json`);
      await t.http.get(`${path}/api_specification/swagger_json`).set('Authorization', user.auth).expect(403);
      await t.http.get(`${path}/api_specification/swagger_json`).expect(401);
    }
  });

  it('uses relative server URLs under the context path, so the explorer never calls another origin', async () => {
    const wiki = await createTestApp({ BASE_URL: 'http://example.org/wiki' });
    try {
      const doc = (await wiki.http.get(`/wiki${DOCUMENT_PATHS.host}`).expect(200)).body as OpenApiDocument;
      expect(doc.servers).toEqual([{ url: '/wiki' }]);
      await wiki.http.get(DOCUMENT_PATHS.host).expect(404);
    } finally {
      await wiki.close();
    }
  });
});
