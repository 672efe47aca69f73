import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestApp, type TestUser } from '../../helpers/test-app.ts';

describe('personal access tokens', () => {
  const t = useTestApp();
  let owner: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    owner = await t.createUser('owner');
    other = await t.createUser('other');
  });

  it('lists a user\'s own tokens without raw values, and stores only hashes', async () => {
    const created = await t.http.post('/rest/pat/latest/tokens').set('Authorization', owner.auth).send({ name: 'laptop' }).expect(201);
    expect(created.body).toMatchObject({ id: expect.any(Number), name: 'laptop', createdAt: expect.any(String) });
    expect(created.body.expiringAt).toBeUndefined();
    const list = await t.http.get('/rest/pat/latest/tokens').set('Authorization', owner.auth).expect(200);
    expect(list.body).toEqual([expect.objectContaining({ id: created.body.id, name: 'laptop' })]);
    expect(list.body[0].rawToken).toBeUndefined();
    const stored = await t.services.db.knex('access_tokens').where({ id: created.body.id }).first();
    expect(JSON.stringify(stored)).not.toContain(created.body.rawToken);
    expect((await t.http.get('/rest/pat/latest/tokens').set('Authorization', other.auth).expect(200)).body).toEqual([]);
  });

  it('records when a token was last used', async () => {
    const { body } = await t.http.post('/rest/pat/latest/tokens').set('Authorization', owner.auth).send({ name: 'used' }).expect(201);
    await t.http.get('/rest/api/2/myself').set('Authorization', `Bearer ${body.rawToken}`).expect(200);
    // Recorded in the background, so the request itself never waits for the write.
    await vi.waitFor(async () => {
      const list = await t.http.get('/rest/pat/latest/tokens').set('Authorization', owner.auth).expect(200);
      expect(list.body.find((x: { id: number }) => x.id === body.id).lastAccessedAt).toEqual(expect.any(String));
    });
  });

  it.each([{}, { name: '' }, { name: 'x', expirationDuration: 0 }, { name: 'x', expirationDuration: 1.5 }, { name: 'x', expirationDuration: 'soon' }])(
    'refuses %j with 400',
    async (body) => {
      await t.http.post('/rest/pat/latest/tokens').set('Authorization', owner.auth).send(body).expect(400);
    },
  );

  it('lets only the owner or an administrator revoke a token', async () => {
    const { body } = await t.http.post('/rest/pat/latest/tokens').set('Authorization', owner.auth).send({ name: 'shared' }).expect(201);
    await t.http.delete(`/rest/pat/latest/tokens/${body.id}`).set('Authorization', other.auth).expect(404);
    await t.http.delete(`/rest/pat/latest/tokens/${body.id}`).set('Authorization', t.adminAuth).expect(204);
    await t.http.delete(`/rest/pat/latest/tokens/${body.id}`).set('Authorization', owner.auth).expect(404);
    await t.http.delete('/rest/pat/latest/tokens/not-a-number').set('Authorization', owner.auth).expect(400);
  });

  it('needs a user', async () => {
    await t.http.get('/rest/pat/latest/tokens').expect(401);
    await t.http.post('/rest/pat/latest/tokens').send({ name: 'x' }).expect(401);
  });
});

describe('GET /status', () => {
  const t = useTestApp();

  it('answers RUNNING without authentication', async () => {
    expect((await t.http.get('/status').expect(200)).body).toEqual({ state: 'RUNNING' });
  });

  it('answers 503 ERROR when the database is gone', async () => {
    await t.services.db.close();
    expect((await t.http.get('/status').expect(503)).body).toEqual({ state: 'ERROR' });
  });
});
