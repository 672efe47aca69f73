import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../helpers/test-app.ts';

describe('GET /rest/api/2/myself', () => {
  const t = useTestApp();

  it('answers the administrator with its groups', async () => {
    const res = await t.http.get('/rest/api/2/myself').set('Authorization', t.adminAuth).expect(200);
    expect(res.body).toMatchObject({ name: 'admin', active: true, groups: { size: 3 } });
    expect(res.body.groups.items.map((g: { name: string }) => g.name)).toEqual(['administrators', 'system-administrators', 'users']);
  });

  it('answers 401 with a JSON body when anonymous', async () => {
    const res = await t.http.get('/rest/api/2/myself').expect(401);
    expect(res.body.errorMessages).toHaveLength(1);
  });
});
