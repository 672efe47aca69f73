// Issue 43, point 2: every operation of every API document says who may call it (`x-access`, its declared
// access), and describes its 401 and 403 with the reasons that hold for it, not the API's generic text (the
// host's "administrators only" on `PUT /rest/api/2/myself/password`, which any user may call).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { DOCUMENT_PATHS } from '../../../src/apidocs/apidocs.paths.ts';
import { FIELDEDITOR_DOCUMENT_PATH } from '../../../src/apidocs/apidocs.feature.ts';
import { hostApi } from '../../../src/apidocs/host.api.ts';
import { codeblocksApi } from '../../../src/codeblocks/codeblocks.api.ts';
import { generationOf } from '../../../src/codeblocks/generation.ts';
import { fieldeditorApi } from '../../../src/fieldeditor/description/fieldeditor.api.ts';
import { FIELDEDITOR_BASES } from '../../../src/fieldeditor/shared/fieldeditor.paths.ts';
import type { ApiDescription } from '../../../src/platform/openapi/operation.ts';
import type { OpenApiDocument } from '../../../src/platform/openapi/document.ts';

type Operation = { 'x-access'?: unknown; responses: Record<string, { description: string }> };

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

describe('access in the API descriptions', () => {
  let t: TestApp;
  const served: Record<string, OpenApiDocument> = {};
  let declared: Record<string, ApiDescription>;
  beforeAll(async () => {
    t = await createTestApp();
    for (const [name, path] of Object.entries({ ...DOCUMENT_PATHS, fieldeditor: FIELDEDITOR_DOCUMENT_PATH })) {
      served[name] = (await t.http.get(path).set('Authorization', t.adminAuth).expect(200)).body as OpenApiDocument;
    }
    declared = {
      host: hostApi,
      codeblocks: codeblocksApi(generationOf(t.config.codeblocksCompat)),
      fieldeditor: fieldeditorApi(FIELDEDITOR_BASES.map((b) => b.path)),
    };
  });
  afterAll(() => t.close());

  it('gives every operation of every document its declared access as x-access, and nothing else carries one', () => {
    expect(Object.keys(served).sort()).toEqual(Object.keys(declared).sort());
    let walked = 0;
    for (const [name, doc] of Object.entries(served)) {
      const expected = new Map<string, string>();
      for (const group of declared[name]!.groups) for (const op of group.operations) expected.set(`${op.method} ${op.path}`, op.access);
      const found = new Map<string, unknown>();
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const m of METHODS) {
          const op = item[m] as Operation | undefined;
          if (op) found.set(`${m} ${path}`, op['x-access']);
        }
      }
      expect(Object.fromEntries(found), name).toEqual(Object.fromEntries(expected));
      walked += found.size;
    }
    expect(walked).toBeGreaterThan(100);
  });

  it('describes 401 and 403 per operation with their true reasons', () => {
    const host = served.host!.paths;
    const password = host['/rest/api/2/myself/password']!.put as Operation;
    expect(password['x-access']).toBe('user');
    expect(password.responses['403']!.description).toMatch(/current password is wrong/);
    expect(password.responses['403']!.description).not.toMatch(/administrator/);
    expect(password.responses['401']!.description).toMatch(/^Not signed in/);

    const createGroup = host['/rest/api/2/group']!.post as Operation;
    expect(createGroup['x-access']).toBe('admin');
    expect(createGroup.responses['403']!.description).toMatch(/not an administrator/);

    // A read for any signed-in user answers no 403 at all.
    const myself = host['/rest/api/2/myself']!.get as Operation;
    expect(myself.responses['403']).toBeUndefined();
    expect(myself.responses['401']).toBeDefined();

    const fe = served.fieldeditor!.paths;
    const create = fe['/user/customfields/{customFieldId}/contexts/{contextId}/options']!.post as Operation;
    expect(create.responses['403']!.description).toMatch(/no grant on the field/);
    expect(create.responses['403']!.description).toMatch(/form body from a script/);
    expect(create.responses['403']!.description).not.toMatch(/not an administrator/);
    const adminList = fe['/admin/customfields']!.get as Operation;
    expect(adminList.responses['403']!.description).toMatch(/not an administrator/);
    expect(adminList.responses['403']!.description).not.toMatch(/grant|XSRF/);
  });

  it('leaves no operation with the generic texts of the error catalogues', () => {
    for (const [name, doc] of Object.entries(served)) {
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const m of METHODS) {
          const op = item[m] as Operation | undefined;
          const d403 = op?.responses['403']?.description ?? '';
          expect(d403, `${name} ${m} ${path}`).not.toMatch(/administrators only\)$|^Authenticated, but without the right/);
        }
      }
    }
  });
});
