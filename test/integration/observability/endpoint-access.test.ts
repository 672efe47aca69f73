import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import type { Access, ApiDescription, JsonSchema, OperationDoc, ResponseDoc } from '../../../src/platform/openapi/operation.ts';
import { hostApi } from '../../../src/apidocs/host.api.ts';
import { codeblocksApi } from '../../../src/codeblocks/codeblocks.api.ts';
import { generationOf } from '../../../src/codeblocks/generation.ts';
import { fieldeditorApi } from '../../../src/fieldeditor/description/fieldeditor.api.ts';
import { FIELDEDITOR_BASES } from '../../../src/fieldeditor/shared/fieldeditor.paths.ts';

// The must-hold of issue 25: the router, its guards and the API documents come from one declaration per
// endpoint, so for EVERY declared operation a caller below its declared access is refused, with the status
// and the body its API documents. The operations are walked from the descriptions, never listed here.

/** One declared operation under one of its base paths, with the error catalogue of its API. */
interface Case {
  api: string;
  op: OperationDoc;
  base: string;
  errors: Record<number, ResponseDoc>;
}

/** The version of a field-editor base path (undefined for the host's, code blocks' and 1.1 paths). */
const versionOf = (base: string) => FIELDEDITOR_BASES.find((b) => b.path === base)?.version;

function cases(api: string, description: ApiDescription): Case[] {
  const out: Case[] = [];
  for (const group of description.groups) {
    for (const op of group.operations) {
      for (const base of group.bases ?? description.bases) {
        const version = versionOf(base);
        // Under a version it does not exist in, an operation answers its API's 412, whoever calls (base-paths tests).
        if (op.versions && version !== undefined && !op.versions.under.includes(version)) continue;
        out.push({ api, op, base, errors: group.errors });
      }
    }
  }
  return out;
}

type Caller = 'anonymous' | 'user' | 'basic user' | 'administrator';

/** Who is below each access, and the status each of them gets. */
const BELOW: Record<Access, [Caller, 401 | 403][]> = {
  anyone: [],
  user: [['anonymous', 401]],
  session: [
    ['anonymous', 401],
    ['basic user', 401],
  ],
  admin: [
    ['anonymous', 401],
    ['user', 403],
  ],
  sysadmin: [
    ['anonymous', 401],
    ['administrator', 403],
  ],
  // Not a user's access at all: no user credential opens it, not even an administrator's.
  metrics: [
    ['anonymous', 401],
    ['user', 401],
    ['administrator', 401],
  ],
};

/** The root element's name of an XML body. */
const rootElement = (xml: string) => /<([A-Za-z_][\w.-]*)[\s/>]/.exec(xml.replace(/^<\?xml[^>]*\?>/, ''))?.[1];

/** The element names a hand-written XML schema allows at the root (its `xml.name`, or one of its `oneOf`). */
const xmlNames = (schema: JsonSchema): string[] =>
  Array.isArray(schema.oneOf) ? (schema.oneOf as JsonSchema[]).flatMap(xmlNames) : [(schema.xml as { name?: string } | undefined)?.name ?? ''];

/** Fails unless `text`, sent as `type`, is a body the documented answer allows. */
function expectDocumented(answer: ResponseDoc, type: string, text: string, what: string): void {
  const content = answer.content ?? {};
  const schema = content[type];
  expect(schema, `${what}: ${type} is a documented media type (${Object.keys(content).join(', ')})`).toBeDefined();
  if (type === 'application/json') {
    const zod = schema instanceof z.ZodType ? schema : z.fromJSONSchema(schema as never);
    const parsed = zod.safeParse(JSON.parse(text));
    expect(parsed.success, `${what}: ${text} matches the documented schema`).toBe(true);
  } else if (type === 'application/xml') {
    expect(xmlNames(schema as JsonSchema), `${what}: ${text}`).toContain(rootElement(text));
  } else {
    expect(text.length, `${what}: a non-empty text`).toBeGreaterThan(0);
  }
}

describe('every declared operation refuses callers below its declared access, as documented', () => {
  // With the metrics on the main port, so that the metrics endpoint is walked too.
  const t = useTestApp({ METRICS_TOKEN: 'access-test-metrics-token' });
  const all: Case[] = [];
  const auth: Partial<Record<Caller, string>> = {};
  beforeAll(async () => {
    all.push(
      ...cases('host', hostApi),
      ...cases('codeblocks', codeblocksApi(generationOf(t.config.codeblocksCompat))),
      ...cases(
        'fieldeditor',
        fieldeditorApi(FIELDEDITOR_BASES.map((b) => b.path)),
      ),
    );
    const plain: TestUser = await t.createUser('access-plain');
    const admin: TestUser = await t.createUser('access-admin', { admin: true });
    auth.user = plain.auth;
    auth['basic user'] = plain.auth;
    auth.administrator = admin.auth;
  });

  it('walks every API and every access level that guards something', () => {
    const apis = new Set(all.map((c) => c.api));
    expect([...apis].sort()).toEqual(['codeblocks', 'fieldeditor', 'host']);
    const levels = new Set(all.map((c) => c.op.access));
    for (const level of ['anyone', 'user', 'session', 'admin', 'metrics'] as const) expect(levels, level).toContain(level);
    expect(all.filter((c) => c.op.access !== 'anyone').length).toBeGreaterThan(100);
  });

  it('answers 401 or 403 with the documented body to each caller below, under every base path', async () => {
    let checked = 0;
    for (const c of all) {
      for (const [caller, status] of BELOW[c.op.access]) {
        // Every path parameter gets a value that parses (guards run before any parsing anyway).
        const url = `${t.config.contextPath}${c.base}${c.op.path.replace(/\{[^}]+\}/g, '1')}`;
        const what = `${c.api}: ${caller} → ${c.op.method.toUpperCase()} ${url} (${c.op.access})`;
        let req = t.http[c.op.method](url);
        const credential = auth[caller as Exclude<Caller, 'anonymous'>];
        if (credential) req = req.set('Authorization', credential);
        const res = await req.buffer(true).parse((r, done) => {
          let text = '';
          r.setEncoding('utf8');
          r.on('data', (chunk: string) => (text += chunk));
          r.on('end', () => done(null, text));
        });
        expect(res.status, what).toBe(status);
        const answer = c.op.responses[status] ?? c.errors[status];
        expect(answer, `${what}: ${status} is documented`).toBeDefined();
        const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim();
        expectDocumented(answer!, type, res.body as string, what);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(150);
  });
});
