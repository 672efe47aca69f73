// Every cached field-editor read (U2, U3, U4, U9, C1, U15) across two server processes on one PostgreSQL:
// a write on A shows on B's very next request; a revoked grant or membership is refused on B's next request.
import { describe, expect, it } from 'vitest';
import type { ServerProcess } from '../helpers/server-process.ts';
import { CHEAP_HASHES, INLINE_DELIVERY, useServerCluster } from '../helpers/server-cluster.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
const ADMIN = basic('admin', 'cluster-admin');
const ALICE = basic('alice', 'alice');
const FE = '/rest/trackercustomfieldeditorplugin/1';
const U = (field: number, ctx: number | string, rest = '') => `${FE}/user/customfields/${field}/contexts/${ctx}${rest}`;

describe.skipIf(!onPostgres)('field-editor read caches across two server processes', () => {
  const [a, b] = useServerCluster({
    prefix: 'fecluster',
    env: { ADMIN_PASSWORD: 'cluster-admin', DEMO: '1', ...CHEAP_HASHES, ...INLINE_DELIVERY },
    nodes: [{}, {}],
    startTimeoutMs: 180_000,
  }).nodes;

  const get = (node: ServerProcess, path: string, auth = ALICE, headers: Record<string, string> = {}) =>
    fetch(`${node.url}${path}`, { headers: { Authorization: auth, ...headers } });
  const send = async (node: ServerProcess, method: string, path: string, body: unknown, auth = ALICE) => {
    const res = await fetch(`${node.url}${path}`, {
      method,
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect([method, path, res.status]).toEqual([method, path, 200]);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const values = async (node: ServerProcess, path: string) => ((await (await get(node, path)).json()) as { optionvalue: string }[]).map((o) => o.optionvalue);

  it('U4: an option created on A is listed by B at once, and B no longer answers 304 to the old tag', async () => {
    const path = U(10000, 'default', '/options');
    const before = await get(b, path);
    const tag = before.headers.get('etag')!;
    expect(tag).toBeTruthy();
    expect((await get(b, path, ALICE, { 'If-None-Match': tag })).status).toBe(304);
    await send(a, 'POST', path, { optionvalue: 'Cluster U4' });
    const after = await get(b, path, ALICE, { 'If-None-Match': tag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(tag);
    expect(((await after.json()) as { optionvalue: string }[]).map((o) => o.optionvalue)).toContain('Cluster U4');
  });

  it('U9: a rename on A in a second context shows on B at once', async () => {
    const path = U(10000, 10110, '/options');
    expect(await values(b, path)).toContain('Crash');
    await send(a, 'PUT', U(10000, 10110, '/options/10010'), { optionvalue: 'Crash hard' });
    expect(await values(b, path)).toContain('Crash hard');
  });

  it('C1: a child option created on A is listed by B at once', async () => {
    const path = U(10002, 'default', '/options/10030/childoptions');
    expect(await values(b, path)).not.toContain('Italy');
    await send(a, 'POST', path, { optionvalue: 'Italy' });
    expect(await values(b, path)).toContain('Italy');
  });

  it('U15 and U3: a default set on A shows on B at once, and a settings change on A shows in U3 on B', async () => {
    const def = U(10002, 'default', '/options/default');
    await get(b, def);
    const u3Before = (await (await get(b, U(10002, 'default'))).json()) as { authenticatedUserMeta: { userAllowedToDeleteOptions: boolean } };
    expect(u3Before.authenticatedUserMeta.userAllowedToDeleteOptions).toBe(true);
    await send(a, 'PUT', def, { optionId: 10040, childOptionId: 10041 });
    expect(((await (await get(b, def)).json()) as { defaultOption: { id: number } }).defaultOption.id).toBe(10040);
    const u3 = (await (await get(b, U(10002, 'default'))).json()) as { defaultOption: { defaultChildOption: { id: number } } };
    expect(u3.defaultOption.defaultChildOption.id).toBe(10041);
    await send(a, 'PUT', `${FE}/admin/settings`, { onlyAdminsMayDeleteOptions: true }, ADMIN);
    const u3After = (await (await get(b, U(10002, 'default'))).json()) as { authenticatedUserMeta: { userAllowedToDeleteOptions: boolean } };
    expect(u3After.authenticatedUserMeta.userAllowedToDeleteOptions).toBe(false);
    await send(a, 'PUT', `${FE}/admin/settings`, { onlyAdminsMayDeleteOptions: false }, ADMIN);
  });

  it('U2: a context renamed on A is listed by B at once', async () => {
    const list = async () => (await (await get(b, `${FE}/user/customfields/10002/contexts`)).json()) as { contextName: string; contextId: number }[];
    const [first] = await list();
    expect(first!.contextName).not.toBe('Cluster context');
    await send(a, 'PUT', `${FE}/admin/customfields/10002/contexts/${first!.contextId}`, { name: 'Cluster context' }, ADMIN);
    expect((await list()).map((c) => c.contextName)).toContain('Cluster context');
  });

  it('a grant revoked on A is refused by B on the very next request of every cached read (also a conditional one)', async () => {
    const reads = [U(10002, 'default', '/options'), U(10002, 'default', '/options/10030/childoptions'), U(10002, 'default', '/options/default'), U(10002, 'default'), `${FE}/user/customfields/10002/contexts`];
    const tags = new Map<string, string | null>();
    for (const r of reads) {
      const res = await get(b, r);
      expect([r, res.status]).toEqual([r, 200]);
      tags.set(r, res.headers.get('etag'));
    }
    await send(a, 'PATCH', `${FE}/admin/customfields/10002`, { user: 'alice', action: 'REVOKE', type: 'GLOBAL' }, ADMIN);
    for (const r of reads) {
      const res = await get(b, r, ALICE, { 'If-None-Match': tags.get(r) ?? '*' });
      expect([r, res.status]).toEqual([r, 403]);
    }
  });

  it('a membership removed on A stops a group grant on B at once', async () => {
    await send(a, 'POST', '/rest/api/2/group', { name: 'cluster-editors' }, ADMIN).catch(() => undefined);
    await fetch(`${a.url}/rest/api/2/group/user?groupname=cluster-editors`, {
      method: 'POST',
      headers: { Authorization: ADMIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'alice' }),
    });
    await send(a, 'PATCH', `${FE}/admin/customfields/10002`, { group: 'cluster-editors', action: 'GRANT', type: 'GLOBAL' }, ADMIN);
    const path = U(10002, 'default', '/options');
    expect((await get(b, path)).status).toBe(200);
    const removed = await fetch(`${a.url}/rest/api/2/group/user?groupname=cluster-editors&username=alice`, { method: 'DELETE', headers: { Authorization: ADMIN } });
    expect(removed.status).toBe(200);
    expect((await get(b, path)).status).toBe(403);
  });
});
