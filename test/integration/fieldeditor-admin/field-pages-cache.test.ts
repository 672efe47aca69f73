import { describe, expect, it } from 'vitest';
import { uniq, useTestApp } from '../../helpers/test-app.ts';
import { createField, FE, grant } from '../../helpers/tracker-fixtures.ts';

/** The paged A1/U1 answers are kept in memory; every change that alters them must show at once. */
describe('cached field pages stay true', () => {
  const t = useTestApp();

  it('A1 shows a new field and a new grant on the very next request', async () => {
    const tag = uniq('cachetest');
    const page = () => t.http.get(`${FE}/admin/customfields?filter=${tag}&maxResults=10`).set('Authorization', t.adminAuth).expect(200);
    expect((await page()).body.total).toBe(0);
    expect((await page()).body.processingTimeInMs).toBe(0);
    const field = await createField(t, { name: `${tag} one` });
    expect((await page()).body.total).toBe(1);
    await t.createUser(`${tag}u`);
    await grant(t, field.id, { user: `${tag}u` });
    expect((await page()).body.values[0].globalPermission.userlist).toEqual([`${tag}u`]);
  });

  it('U1 follows a group membership change and a deleted user at once', async () => {
    const tag = uniq('cacheu');
    const field = await createField(t, { name: `${tag} field` });
    const user = await t.createUser(`${tag}u`);
    await t.http.post('/rest/api/2/group').set('Authorization', t.adminAuth).send({ name: `${tag}g` }).expect(201);
    await grant(t, field.id, { group: `${tag}g` });
    const page = () => t.http.get(`${FE}/user/customfields?filter=${tag}`).set('Authorization', user.auth).expect(200);
    expect((await page()).body.total).toBe(0);
    await t.http.post(`/rest/api/2/group/user?groupname=${tag}g`).set('Authorization', t.adminAuth).send({ name: user.name }).expect(201);
    expect((await page()).body.total).toBe(1);
    await t.http.delete(`/rest/api/2/group/user?groupname=${tag}g&username=${user.name}`).set('Authorization', t.adminAuth).expect(200);
    expect((await page()).body.total).toBe(0);
  });
});
