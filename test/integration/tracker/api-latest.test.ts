// Issue 26, point 2: `/rest/api/latest` is an alias of `/rest/api/2` for every host endpoint (the tracker host
// serves `latest` that way, and clients written for it use it), described in the host's OpenAPI document too;
// an unknown path under `/rest/api/` answers in the error format of the host it belongs to: the tracker's for a
// versioned path (`/rest/api/<digits or latest>/…`), the wiki's for any other.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';
import { createField } from '../../helpers/tracker-fixtures.ts';
import { DOCUMENT_PATHS } from '../../../src/apidocs/apidocs.paths.ts';

const t = useTestApp();
let carol: TestUser;

beforeAll(async () => {
  carol = await t.createUser('latest-carol');
  await createField(t, { name: 'Latest field' });
});

const hostNotFound = { errorMessages: ['Not found.'], errors: {} };

describe('/rest/api/latest', () => {
  it.each(['/project', '/field', '/issuetype', '/myself', '/groups/picker?query=us'])('GET %s answers as under /rest/api/2', async (path) => {
    const two = await t.http.get(`/rest/api/2${path}`).set('Authorization', carol.auth);
    const latest = await t.http.get(`/rest/api/latest${path}`).set('Authorization', carol.auth);
    expect(two.status).toBe(200);
    expect(latest.status).toBe(200);
    expect(latest.body).toEqual(two.body);
  });

  it('writes as /rest/api/2 does, with the same rights: 401 without a user, 403 for a non-administrator', async () => {
    const created = await t.http.post('/rest/api/latest/project').set('Authorization', t.adminAuth).send({ key: 'LATEST', name: 'Latest' });
    expect(created.status).toBe(201);
    const listed = await t.http.get('/rest/api/2/project').set('Authorization', carol.auth);
    expect(listed.body.map((p: { key: string }) => p.key)).toContain('LATEST');
    const anonymous = await t.http.get('/rest/api/latest/project');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ errorMessages: [expect.any(String)], errors: {} });
    const forbidden = await t.http.post('/rest/api/latest/group').set('Authorization', carol.auth).send({ name: 'latest-group' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ errorMessages: [expect.any(String)], errors: {} });
  });

  it('is described in the host OpenAPI document, each /rest/api/2 operation once more', async () => {
    const doc = (await t.http.get(DOCUMENT_PATHS.host).expect(200)).body as { paths: Record<string, Record<string, { operationId: string }>> };
    const two = Object.keys(doc.paths).filter((p) => p.startsWith('/rest/api/2/'));
    expect(two.length).toBeGreaterThan(10);
    for (const path of two) {
      const alias = doc.paths[path.replace('/rest/api/2/', '/rest/api/latest/')];
      expect(alias, path).toBeDefined();
      expect(Object.keys(alias!).sort()).toEqual(Object.keys(doc.paths[path]!).sort());
    }
  });
});

describe('unknown paths under /rest/api/', () => {
  it.each(['/rest/api/latest/nothing', '/rest/api/2/nothing', '/rest/api/3/project', '/rest/api/1/field', '/rest/api/LATEST/x/y'])(
    '%s: 404 in the tracker host format',
    async (path) => {
      const res = await t.http.get(path).set('Authorization', carol.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(hostNotFound);
    },
  );

  it.each(['/rest/api/nothing', '/rest/api/space/NOSUCHSPACE', '/rest/api/latestnews'])('%s: 404 in the wiki host format', async (path) => {
    const res = await t.http.get(path).set('Authorization', carol.auth);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, data: expect.objectContaining({ successful: false }), reason: 'Not Found' });
  });
});
