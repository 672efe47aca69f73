import { describe, expect, it } from 'vitest';
import { CHEAP_HASHES, INLINE_DELIVERY, useServerCluster } from '../helpers/server-cluster.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const NO_CHECK = { 'X-Atlassian-Token': 'no-check' };

async function signIn(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/rest/auth/1/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

describe.skipIf(!onPostgres)('a web session on two server processes sharing one PostgreSQL', () => {
  const [a, b] = useServerCluster({
    prefix: 'websess',
    env: { ADMIN_PASSWORD: 'cluster-admin', DEMO: '1', ...CHEAP_HASHES, ...INLINE_DELIVERY },
    nodes: [{}, {}],
  }).nodes;

  it('a session created on one process works on the other, and a sign-out on either ends it on both', async () => {
    const cookie = await signIn(a.url, 'alice', 'alice');
    const onB = await fetch(`${b.url}/rest/api/2/myself`, { headers: { Cookie: cookie } });
    expect(onB.status).toBe(200);
    expect(((await onB.json()) as { name: string }).name).toBe('alice');
    // A state-changing request on B with the XSRF header works too.
    const token = await fetch(`${b.url}/rest/pat/latest/tokens`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json', ...NO_CHECK },
      body: JSON.stringify({ name: 'from-b' }),
    });
    expect(token.status).toBe(201);

    const out = await fetch(`${b.url}/rest/auth/1/session`, { method: 'DELETE', headers: { Cookie: cookie, ...NO_CHECK } });
    expect(out.status).toBe(204);
    expect((await fetch(`${a.url}/rest/api/2/myself`, { headers: { Cookie: cookie } })).status).toBe(401);
    expect((await fetch(`${b.url}/rest/api/2/myself`, { headers: { Cookie: cookie } })).status).toBe(401);
  });

  it('a password changed through one process ends the session on the other', async () => {
    const cookie = await signIn(b.url, 'alice', 'alice');
    expect((await fetch(`${a.url}/rest/api/2/myself`, { headers: { Cookie: cookie } })).status).toBe(200);
    const admin = { Authorization: `Basic ${Buffer.from('admin:cluster-admin').toString('base64')}`, 'Content-Type': 'application/json' };
    const changed = await fetch(`${b.url}/rest/api/2/user/password?username=alice`, { method: 'PUT', headers: admin, body: JSON.stringify({ password: 'alice2' }) });
    expect(changed.status).toBe(204);
    expect((await fetch(`${a.url}/rest/api/2/myself`, { headers: { Cookie: cookie } })).status).toBe(401);
  });
});
