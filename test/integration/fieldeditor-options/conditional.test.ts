// Option lists (U4, C1) with ETags: 304 only after the grant check, a new tag after a write, compression.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/test-app.ts';
import { addOptions, createField, grant, paths } from '../../helpers/tracker-fixtures.ts';

describe('option lists: conditional GET and compression', () => {
  let t: TestApp;
  let bob: TestUser;
  let eve: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    bob = await t.createUser('bob-etag');
    eve = await t.createUser('eve-etag');
  });
  afterAll(() => t.close());

  it('answers 304 to a granted user with the current tag, 403/401 to everyone else, and a new tag after a write', async () => {
    const f = await createField(t, { type: 'cascadingselect' });
    await grant(t, f.id, { user: bob.name });
    const p = paths(f.id, 'default');
    const [parent] = await addOptions(t, bob.auth, p.options, ['Europe']);
    await addOptions(t, bob.auth, p.children(parent!.id), ['Germany']);
    for (const url of [p.options, p.children(parent!.id)]) {
      const first = await t.http.get(url).set('Authorization', bob.auth).set('Accept-Encoding', 'identity').expect(200);
      const tag = first.headers['etag'] as string;
      expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      expect((await t.http.get(url).set('Authorization', bob.auth).set('If-None-Match', tag)).status).toBe(304);
      expect((await t.http.get(url).set('Authorization', bob.auth).set('If-None-Match', '*')).status).toBe(304);
      for (const inm of [tag, '*']) {
        const denied = await t.http.get(url).set('Authorization', eve.auth).set('If-None-Match', inm);
        expect(denied.status).toBe(403);
        expect(denied.body.subCode).toBe(403001);
        expect((await t.http.get(url).set('If-None-Match', inm)).status).toBe(401);
      }
      await addOptions(t, bob.auth, url, [`New ${url.length}`]);
      const after = await t.http.get(url).set('Authorization', bob.auth).set('Accept-Encoding', 'identity').set('If-None-Match', tag);
      expect(after.status).toBe(200);
      expect(after.headers['etag']).not.toBe(tag);
      expect(after.text).toContain(`New ${url.length}`);
    }
  });

  it('a grant revoked through A4 refuses the next conditional read (403, not 304)', async () => {
    const f = await createField(t);
    await grant(t, f.id, { user: bob.name });
    const p = paths(f.id, 'default');
    const tag = (await t.http.get(p.options).set('Authorization', bob.auth).expect(200)).headers['etag'] as string;
    await t.http
      .patch(`/rest/trackercustomfieldeditorplugin/1/admin/customfields/${f.id}`)
      .set('Authorization', t.adminAuth)
      .send({ user: bob.name, action: 'REVOKE', type: 'GLOBAL' })
      .expect(200);
    expect((await t.http.get(p.options).set('Authorization', bob.auth).set('If-None-Match', tag)).status).toBe(403);
  });

  it('compresses a list over 1 KB for a client that accepts gzip', async () => {
    const f = await createField(t);
    await grant(t, f.id, { user: bob.name });
    const p = paths(f.id, 'default');
    await addOptions(t, bob.auth, p.options, Array.from({ length: 30 }, (_, i) => `A fairly long option value number ${i}`));
    const gz = await t.http.get(p.options).set('Authorization', bob.auth).set('Accept-Encoding', 'gzip').expect(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['vary']).toBe('Accept-Encoding');
    expect((gz.body as unknown[]).length).toBe(30);
    const plain = await t.http.get(p.options).set('Authorization', bob.auth).set('Accept-Encoding', 'gzip;q=0').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });
});
