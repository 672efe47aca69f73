import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { runCli, type ServerProcess } from '../helpers/server-process.ts';
import { CHEAP_HASHES, INLINE_DELIVERY, useServerCluster } from '../helpers/server-cluster.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const BUSY_MS = 1500;
const admin = { Authorization: `Basic ${Buffer.from('admin:cluster-admin').toString('base64')}` };
const preload = path.resolve(import.meta.dirname, '../helpers/busy-on-signal.mjs');

/** Makes `node`'s main thread spin for BUSY_MS and resolves once it has begun. */
async function makeBusy(node: ServerProcess): Promise<void> {
  const before = node.output().split('busy-start').length;
  node.child.kill('SIGUSR2');
  const deadline = Date.now() + 5000;
  while (node.output().split('busy-start').length === before) {
    if (Date.now() > deadline) throw new Error('the node did not start spinning');
    await new Promise((r) => setTimeout(r, 5));
  }
}

// Issue 15, point 5: a write waits for every node to acknowledge it, but the acknowledgement comes from each
// node's listener thread, not from its (possibly busy) main thread.
describe.skipIf(!onPostgres)('a busy node does not slow the writes of the cluster', () => {
  // b spins its main thread on SIGUSR2 (helpers/busy-on-signal.mjs).
  const cluster = useServerCluster({
    prefix: 'busy',
    env: { ADMIN_PASSWORD: 'cluster-admin', DEMO: '1', ...CHEAP_HASHES, ...INLINE_DELIVERY },
    nodes: [{}, { NODE_OPTIONS: `--import ${preload}`, BUSY_MS: String(BUSY_MS) }],
  });
  const [a, b] = cluster.nodes;

  it('a token revoked while another node is busy answers quickly, and the busy node refuses the token on its next request', async () => {
    const created = await fetch(`${a.url}/rest/pat/latest/tokens`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'busy' }),
    });
    const { id, rawToken } = (await created.json()) as { id: number; rawToken: string };
    const bearer = { Authorization: `Bearer ${rawToken}` };
    // Twice: the second answer comes from b's credential cache.
    expect((await fetch(`${b.url}/rest/api/2/myself`, { headers: bearer })).status).toBe(200);
    expect((await fetch(`${b.url}/rest/api/2/myself`, { headers: bearer })).status).toBe(200);

    await makeBusy(b);
    const started = performance.now();
    const revoked = await fetch(`${a.url}/rest/pat/latest/tokens/${id}`, { method: 'DELETE', headers: admin });
    const revokeMs = performance.now() - started;
    expect(revoked.status).toBeLessThan(300);
    // b's main thread is still spinning: the revocation did not wait for it.
    expect(b.output()).not.toMatch(/busy-end\s*$/);
    expect(revokeMs).toBeLessThan(BUSY_MS / 2);

    // b answers once its main thread is free again, and its cache no longer admits the token.
    expect((await fetch(`${b.url}/rest/api/2/myself`, { headers: bearer })).status).toBe(401);
  }, 30_000);

  it('a password changed while another node is busy is refused there on the next request', async () => {
    const alice = (p: string) => ({ Authorization: `Basic ${Buffer.from(`alice:${p}`).toString('base64')}` });
    expect((await fetch(`${b.url}/rest/api/2/myself`, { headers: alice('alice') })).status).toBe(200);
    // No time bound here: the change itself hashes the new password (the slow hash), which alone may take
    // longer than the spin on a loaded machine. The token test above bounds the wait.
    await makeBusy(b);
    const changed = await fetch(`${a.url}/rest/api/2/user/password?username=alice`, {
      method: 'PUT',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ password: 'alice-new-password' }),
    });
    expect(changed.status).toBeLessThan(300);
    expect((await fetch(`${b.url}/rest/api/2/myself`, { headers: alice('alice') })).status).toBe(401);
    expect((await fetch(`${b.url}/rest/api/2/myself`, { headers: alice('alice-new-password') })).status).toBe(200);
  }, 30_000);

  it('a password set from the command line while the servers run is refused on both on the next request', async () => {
    const bob = (p: string) => ({ Authorization: `Basic ${Buffer.from(`bob:${p}`).toString('base64')}` });
    // bob is made through REST: only the password change below is the command line's (a process start fewer).
    const add = await fetch(`${a.url}/rest/api/2/user`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'bob', password: 'bob-first-pw' }),
    });
    expect(add.status).toBe(201);
    for (const node of [a, b]) expect((await fetch(`${node.url}/rest/api/2/myself`, { headers: bob('bob-first-pw') })).status).toBe(200);
    // A short process: its change listener may not be connected yet when it announces the change.
    const passwd = await runCli(['user', 'passwd', 'bob', '--password', 'bob-second-pw'], { DATABASE_URL: cluster.databaseUrl }).done;
    expect(passwd.code, passwd.output).toBe(0);
    for (const node of [a, b]) expect((await fetch(`${node.url}/rest/api/2/myself`, { headers: bob('bob-first-pw') })).status).toBe(401);
  }, 60_000);
});
