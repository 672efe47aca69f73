import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Validator } from '@seriousme/openapi-schema-validator';
import { basic, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { readmeRequests } from '../../helpers/readme-examples.ts';
import { DOCUMENT_PATHS, isUndocumentedRoute } from '../../../src/apidocs/apidocs.paths.ts';
import { FIELDEDITOR_DOCUMENT_PATH } from '../../../src/apidocs/apidocs.feature.ts';

type Operation = { responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> };
type PathItem = Record<string, Operation> & { servers?: { url: string }[] };
type Doc = { servers: { url: string }[]; paths: Record<string, PathItem> };

/**
 * The operation of a document that a request goes to, by its path template. Templates with fewer
 * parameters win, as the routers register literal paths first (`…/options/default` before `…/options/{optionId}`).
 */
function findOperation(docs: Doc[], method: string, path: string): Operation | undefined {
  const pathname = path.split('?')[0]!;
  const params = (t: string) => (t.match(/\{/g) ?? []).length;
  const candidates: { template: string; op: Operation }[] = [];
  for (const doc of docs) {
    for (const [template, item] of Object.entries(doc.paths)) {
      // A path item's own servers (the field editor's 1.1 operations) replace the document's.
      for (const server of item.servers ?? doc.servers) {
        const base = server.url === '/' ? '' : server.url;
        const re = new RegExp(`^${(base + template).replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
        const op = item[method.toLowerCase()];
        if (op && re.test(pathname)) candidates.push({ template, op });
      }
    }
  }
  return candidates.sort((a, b) => params(a.template) - params(b.template))[0]?.op;
}

/** The pages whose `curl` examples are sent; their examples run against the demo data as printed. */
const PAGES = ['README.md', 'docs/codeblocks-api.md', 'docs/fieldeditor-api.md', 'docs/host-api.md', 'docs/maintenance.md', 'docs/openapi.md'];

describe("the docs' examples answer as the API descriptions say", () => {
  let t: TestApp;
  const docs: Doc[] = [];
  beforeAll(async () => {
    // The demo data set and the docs' logins (admin/admin, alice/alice).
    t = await createTestApp({ DEMO: '1', ADMIN_PASSWORD: 'admin' });
    for (const path of [...Object.values(DOCUMENT_PATHS), FIELDEDITOR_DOCUMENT_PATH]) {
      const validator = new Validator();
      await validator.validate((await t.http.get(path).set('Authorization', basic('admin', 'admin')).expect(200)).body);
      docs.push(validator.resolveRefs() as Doc);
    }
  });
  afterAll(() => t.close());

  it('validates every example answer against its documented status and body schema', async () => {
    const requests = readmeRequests(
      PAGES.map((p) => join(import.meta.dirname, '../../..', p)),
      {},
    );
    expect(requests.length).toBeGreaterThan(40);
    const problems: string[] = [];
    let checked = 0;
    for (const req of requests) {
      if (isUndocumentedRoute(req.path.split('?')[0]!)) {
        checked++;
        continue;
      }
      const op = findOperation(docs, req.method === 'HEAD' ? 'GET' : req.method, req.path);
      if (!op) {
        problems.push(`no described operation: ${req.line}`);
        continue;
      }
      let call = t.http[req.method.toLowerCase() as 'get'](req.path).redirects(0);
      for (const [name, value] of Object.entries(req.headers)) call = call.set(name, value);
      const res = req.body === undefined ? await call : await call.send(req.body);
      const documented = op.responses[String(res.status)];
      if (!documented) {
        problems.push(`${res.status} is not a documented answer of: ${req.line}`);
        continue;
      }
      const type = String(res.headers['content-type'] ?? '').split(';')[0]!;
      const declared = Object.keys(documented.content ?? {});
      if (declared.length === 0 && res.text !== '') problems.push(`${res.status} with a body where none is documented: ${req.line}`);
      if (declared.length > 0 && !declared.includes(type)) problems.push(`${res.status} ${type} is not a documented media type (${declared.join(', ')}): ${req.line}`);
      const schema = documented.content?.[type]?.schema;
      if (schema && type === 'application/json') {
        const result = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]).safeParse(res.body);
        if (!result.success) problems.push(`${res.status} answer does not match its schema: ${req.line}\n  ${JSON.stringify(result.error.issues.slice(0, 3))}`);
      }
      checked++;
    }
    expect(problems).toEqual([]);
    expect(checked).toBe(requests.length);
  }, 120_000);
});
